//! The service's analysis over the photo: its mask as a strong tint with an outline over the photo (seen at a glance,
//! before the editor opens), the share of the photo it marked, the way on to the editor (from that mask, or from an
//! empty one), and what removal costs. The page brings it into view when it arrives (`mod.rs`).

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Analysis;

use super::model::{share_words, tint_style};
use super::state::FurnitureMaskState;
use crate::locale::use_locale;

/// The id of the analysis's figure, which the page brings into view and focuses when the analysis arrives.
pub const FOUND_ID: &str = "vstage-mask-found";

#[component]
pub fn AnalysisShown(page: FurnitureMaskState, analysis: Analysis) -> impl IntoView {
    let locale = use_locale();
    let percentage = analysis.percentage_masked;
    let result_url = analysis.result_url.clone();
    let tint = tint_style(&analysis.result_url);
    view! {
        <figure class="vstage-analysis" id=FOUND_ID tabindex="-1">
            <div class="vstage-analysis__images">
                <img src=page.image_url.get_untracked() alt=move || td_string!(locale.get(), studio.mask_photo_alt) />
                <img class="vstage-analysis__mask" src=analysis.result_url alt=move || td_string!(locale.get(), studio.mask_found_alt) />
                <span class="vstage-analysis__outline" aria-hidden="true">
                    <span class="vstage-analysis__tint" style=tint></span>
                </span>
            </div>
            <figcaption class="vstage-analysis-share">{move || share_words(locale.get(), percentage)}</figcaption>
        </figure>
        <div class="vstage-form__actions">
            <button type="button" class="vstage-button vstage-button--secondary"
                on:click=move |_| page.edit(None)>{move || td_string!(locale.get(), studio.mask_start_empty)}</button>
            <button type="button" class="vstage-button vstage-edit-mask"
                on:click=move |_| page.edit(Some(result_url.clone()))>{move || td_string!(locale.get(), studio.mask_edit)}</button>
        </div>
        <p class="vstage-hint">{move || td_string!(locale.get(), studio.mask_counts_as_staging)}</p>
    }
}
