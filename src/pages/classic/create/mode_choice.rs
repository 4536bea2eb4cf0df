//! The classic form's three modes of use (four choices), each named and explained in words.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;
use crate::pages::classic::model::Mode;

#[component]
pub fn ModeChoice(mode: RwSignal<Mode>) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-kinds" role="radiogroup" aria-label=move || td_string!(locale.get(), classic.new_mode_label)>
            {Mode::ALL.into_iter().map(|choice| view! {
                <label class="vstage-kind" class:vstage-kind--chosen=move || mode.get() == choice>
                    <input type="radio" name="vstage-classic-mode" prop:checked=move || mode.get() == choice on:change=move |_| mode.set(choice) />
                    <span class="vstage-kind__name">{move || choice.label(locale.get())}</span>
                    <span class="vstage-kind__hint">{move || choice.explained(locale.get())}</span>
                </label>
            }).collect_view()}
        </div>
    }
}
