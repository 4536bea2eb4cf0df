//! A finished variation card's actions: "Use in listing" (where a listing takes it), download (each view of a
//! multi-view result), compare with its before, and, on a removal variation, stage the empty room.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::ResultImage;

use crate::locale::use_locale;

#[component]
pub fn VariationActions(
    /// The variation's id, which each action is called with.
    id: String,
    /// The result's images (one per view of a multi-view result), to download.
    images: Vec<ResultImage>,
    on_compare: Callback<String>,
    /// Only on removal variations.
    on_stage: Option<Callback<String>>,
    /// Only where there is a listing to take the result: with the image chosen (the view of a multi-view result).
    on_use: Option<Callback<(String, u32)>>,
) -> impl IntoView {
    let locale = use_locale();
    let (compare_id, stage_id, use_id) = (id.clone(), id.clone(), id);
    view! {
        <div class="vstage-variation__actions">
        {on_use.map(|on_use| (0..images.len()).map(|index| {
            let (use_id, views) = (use_id.clone(), images.len());
            let words = move || match views {
                1 => td_string!(locale.get(), studio.variation_use).to_string(),
                _ => td_string!(locale.get(), studio.variation_use_view, number = index + 1).to_string(),
            };
            view! {
                <button class="vstage-button vstage-button--small" part="primary-button" on:click=move |_| on_use.run((use_id.clone(), index as u32))>
                    {words}
                </button>
            }
        }).collect_view())}
            {images.iter().enumerate().map(|(index, image)| {
                let views = images.len();
                let words = move || match views {
                    1 => td_string!(locale.get(), studio.download).to_string(),
                    _ => td_string!(locale.get(), studio.download_view, number = index + 1).to_string(),
                };
                view! {
                    <a class="vstage-button vstage-button--small vstage-button--secondary" href=image.url.clone() download="" target="_blank" rel="noopener">
                        {words}
                    </a>
                }
            }).collect_view()}
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
