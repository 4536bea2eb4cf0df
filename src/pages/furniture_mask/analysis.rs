//! The service's analysis over the photo: its mask, the share of the photo it marked, and the way on to the
//! editor (from that mask, or from an empty one).

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Analysis;

use super::model::share_words;
use super::state::FurnitureMaskState;
use crate::locale::use_locale;

#[component]
pub fn AnalysisShown(page: FurnitureMaskState, analysis: Analysis) -> impl IntoView {
    let locale = use_locale();
    let percentage = analysis.percentage_masked;
    let result_url = analysis.result_url.clone();
    view! {
        <figure class="vstage-analysis">
            <div class="vstage-analysis__images">
                <img src=page.image_url.get_untracked() alt=move || td_string!(locale.get(), studio.mask_photo_alt) />
                <img class="vstage-analysis__mask" src=analysis.result_url alt=move || td_string!(locale.get(), studio.mask_found_alt) />
            </div>
            <figcaption class="vstage-analysis-share">{move || share_words(locale.get(), percentage)}</figcaption>
        </figure>
        <div class="vstage-form__actions">
            <button type="button" class="vstage-button vstage-button--secondary"
                on:click=move |_| page.edit(None)>{move || td_string!(locale.get(), studio.mask_start_empty)}</button>
            <button type="button" class="vstage-button vstage-edit-mask"
                on:click=move |_| page.edit(Some(result_url.clone()))>{move || td_string!(locale.get(), studio.mask_edit)}</button>
        </div>
    }
}
