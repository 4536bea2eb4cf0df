//! The photo picker's preview of the photo chosen, or a sentence when it cannot be shown.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::PickerState;
use crate::locale::use_locale;

#[component]
pub fn PhotoPreview(picker: PickerState) -> impl IntoView {
    let locale = use_locale();
    move || {
        picker.shown_photo().map(|src| {
            view! {
                <figure class="vstage-preview">
                    <Show
                        when=move || !picker.preview_broken.get()
                        fallback=move || view! {
                            <p class="vstage-error">{move || td_string!(locale.get(), forms.picker_broken)}</p>
                        }
                    >
                        <img
                            src=src.clone()
                            alt=move || td_string!(locale.get(), forms.picker_preview_alt)
                            on:error=move |_| picker.preview_broken.set(true)
                        />
                    </Show>
                </figure>
            }
        })
    }
}
