//! The footer's way out: cancel, "Detect furniture" and "Use this mask", the last two only while the photo is
//! loaded and nothing is under way.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::FooterState;
use crate::locale::use_locale;
use crate::mask_editor::element::Studio;

#[component]
pub fn FooterActions(
    work: FooterState,
    /// The photo whose mask is edited.
    image_url: String,
    studio: Studio,
) -> impl IntoView {
    let locale = use_locale();
    let idle = move || work.idle();
    let (detecting, uploading) = (studio.clone(), studio.clone());
    view! {
        <div class="vstage-form__actions">
            <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| studio.cancel()>
                {move || td_string!(locale.get(), mask.footer_cancel)}
            </button>
            <button type="button" class="vstage-button vstage-button--secondary"
                title=move || td_string!(locale.get(), mask.footer_detect_title)
                disabled=move || !idle() on:click=move |_| work.detect(detecting.clone(), image_url.clone())>
                {move || td_string!(locale.get(), mask.footer_detect)}
            </button>
            <button type="button" class="vstage-button vstage-mask-use"
                disabled=move || !idle() on:click=move |_| work.export(uploading.clone())>
                {move || td_string!(locale.get(), mask.footer_use)}
            </button>
        </div>
    }
}
