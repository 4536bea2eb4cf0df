//! A finished variation card's actions: "Use in listing" (where a listing takes it), download, compare with its
//! before, and, on a removal variation, stage the empty room.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;

#[component]
pub fn VariationActions(
    /// The variation's id, which each action is called with.
    id: String,
    /// The full result's address, to download.
    image_url: String,
    on_compare: Callback<String>,
    /// Only on removal variations.
    on_stage: Option<Callback<String>>,
    /// Only where there is a listing to take the result.
    on_use: Option<Callback<String>>,
) -> impl IntoView {
    let locale = use_locale();
    let (compare_id, stage_id, use_id) = (id.clone(), id.clone(), id);
    view! {
        <div class="vstage-variation__actions">
        {on_use.map(|on_use| view! {
            <button class="vstage-button vstage-button--small" part="primary-button" on:click=move |_| on_use.run(use_id.clone())>
                {move || td_string!(locale.get(), studio.variation_use)}
            </button>
        })}
            <a class="vstage-button vstage-button--small vstage-button--secondary" href=image_url download="" target="_blank" rel="noopener">
                {move || td_string!(locale.get(), studio.download)}
            </a>
            <button class="vstage-button vstage-button--small vstage-button--secondary" on:click=move |_| on_compare.run(compare_id.clone())>
                {move || td_string!(locale.get(), studio.variation_compare)}
            </button>
            {on_stage.map(|on_stage| view! {
                <button class="vstage-button vstage-button--small" on:click=move |_| on_stage.run(stage_id.clone())>
                    {move || td_string!(locale.get(), studio.variation_stage_empty_room)}
                </button>
            })}
        </div>
    }
}
