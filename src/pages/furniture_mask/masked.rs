//! The mask made: a link to see it, staging the room too (with its room type and style), editing it again, what
//! it costs (removal counts as staging, `vstage_api::usage`), and "Remove with this mask".

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::usage;

use super::staging_choices::StagingChoices;
use super::state::FurnitureMaskState;
use crate::components::cost_note::CostNote;
use crate::locale::use_locale;

#[component]
pub fn MaskedSection(
    page: FurnitureMaskState,
    /// Where the mask is uploaded.
    mask_url: String,
    /// Creates the render that removes what the mask at this address marks.
    on_remove: Callback<String>,
) -> impl IntoView {
    let locale = use_locale();
    let FurnitureMaskState { stage, working, .. } = page;
    let (again, removed_with, cost_of) = (mask_url.clone(), mask_url.clone(), mask_url.clone());
    view! {
        <section class="vstage-masked" aria-label=move || td_string!(locale.get(), studio.mask_remove_with)>
            <p>
                {move || td_string!(locale.get(), studio.mask_ready)}
                " "
                <a href=mask_url target="_blank" rel="noopener">{move || td_string!(locale.get(), studio.mask_see)}</a>
            </p>
            <label class="vstage-check">
                <input type="checkbox" prop:checked=move || stage.get() on:change=move |ev| stage.set(event_target_checked(&ev)) />
                {move || td_string!(locale.get(), studio.mask_stage_too)}
            </label>
            <Show when=move || stage.get()>
                <StagingChoices page />
            </Show>
            <p class="vstage-hint">{move || td_string!(locale.get(), studio.mask_counts_as_staging)}</p>
            <CostNote cost=Signal::derive(move || Some(usage::of_render(&page.removal(cost_of.clone())))) />
            <div class="vstage-form__actions">
                <button type="button" class="vstage-button vstage-button--secondary"
                    on:click=move |_| page.edit(Some(again.clone()))>{move || td_string!(locale.get(), studio.mask_edit_again)}</button>
                <button type="button" class="vstage-button vstage-remove-with-mask" disabled=move || working.get()
                    on:click=move |_| on_remove.run(removed_with.clone())>
                    {move || td_string!(locale.get(), studio.mask_remove_with)}
                </button>
            </div>
        </section>
    }
}
