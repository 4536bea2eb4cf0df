//! The bulk dialog's choice of what to add: the same settings for each render, or each one's empty room staged
//! (with what that means for renders without one).

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;

#[component]
pub fn ModeTabs(
    /// Whether each render's empty room is staged.
    on_empty_rooms: RwSignal<bool>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-tabs" role="radiogroup" aria-label=move || td_string!(locale.get(), studio.bulk_what)>
            <label class="vstage-tab" class:vstage-tab--chosen=move || !on_empty_rooms.get()>
                <input type="radio" name="vstage-bulk-mode" prop:checked=move || !on_empty_rooms.get() on:change=move |_| on_empty_rooms.set(false) />
                {move || td_string!(locale.get(), studio.bulk_same_settings)}
            </label>
            <label class="vstage-tab" class:vstage-tab--chosen=move || on_empty_rooms.get()>
                <input type="radio" name="vstage-bulk-mode" prop:checked=move || on_empty_rooms.get() on:change=move |_| on_empty_rooms.set(true) />
                {move || td_string!(locale.get(), studio.bulk_empty_rooms)}
            </label>
        </div>
        <Show when=move || on_empty_rooms.get()>
            <p class="vstage-hint">{move || td_string!(locale.get(), studio.bulk_empty_rooms_hint)}</p>
        </Show>
    }
}
