//! What stands over the stage until the photo is ready: that it is loading, or why it could not be.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;
use crate::mask_editor::handle::Photo;

#[component]
pub fn PhotoStatus(photo: RwSignal<Photo>) -> impl IntoView {
    let locale = use_locale();
    move || match photo.get() {
        Photo::Loading => Some(
            view! {
                <p class="vstage-mask-stage__status" aria-busy="true">
                    {move || td_string!(locale.get(), mask.stage_loading)}
                </p>
            }
            .into_any(),
        ),
        Photo::Failed(problem) => Some(
            view! {
                <p class="vstage-error vstage-mask-stage__status" role="alert">
                    {move || problem.sentence(locale.get())}
                </p>
            }
            .into_any(),
        ),
        Photo::Ready => None,
    }
}
