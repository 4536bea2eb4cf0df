//! The classic render's output: its resolution (the service's default, 4K or Full HD), the virtual staging
//! watermark, and whether the service answers only once it is rendered.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::NewClassicForm;
use crate::locale::use_locale;

#[component]
pub fn OutputChoices(form: NewClassicForm) -> impl IntoView {
    let locale = use_locale();
    let NewClassicForm { resolution, watermark, wait, .. } = form;
    view! {
        <div class="vstage-field">
            <label for="vstage-classic-resolution">{move || td_string!(locale.get(), classic.new_resolution)}</label>
            <select id="vstage-classic-resolution" on:change=move |ev| resolution.set(event_target_value(&ev))>
                <option value="">{move || td_string!(locale.get(), classic.new_resolution_default)}</option>
                <option value="4k">"4K"</option>
                <option value="full-hd">"Full HD"</option>
            </select>
        </div>
        <label class="vstage-check">
            <input type="checkbox" prop:checked=move || watermark.get() on:change=move |ev| watermark.set(event_target_checked(&ev)) />
            {move || td_string!(locale.get(), classic.watermark)}
        </label>
        <label class="vstage-check">
            <input type="checkbox" prop:checked=move || wait.get() on:change=move |ev| wait.set(event_target_checked(&ev)) />
            {move || td_string!(locale.get(), classic.new_wait)}
        </label>
    }
}
