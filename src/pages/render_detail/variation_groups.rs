//! The render's variations as cards, in a section per kind of processing (staging, removal, dusk, enhancement,
//! then kinds this studio does not know), each card titled with its number in its group.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Variation;

use super::model::{grouped, lineage};
use crate::clock::use_now;
use crate::components::variation_card::VariationCard;
use crate::describe;
use crate::locale::use_locale;

#[component]
pub fn VariationGroups(
    variations: RwSignal<Vec<Variation>>,
    /// Where a full image opens.
    viewer: RwSignal<Option<(String, Signal<String>)>>,
    /// The variation compared with its before.
    compare: RwSignal<Option<String>>,
    /// "Stage this empty room", with the removal variation's id.
    on_stage: Callback<String>,
    /// "Use in listing", where a listing embeds the studio: the variation and which of its images.
    on_use: Option<Callback<(String, u32)>>,
) -> impl IntoView {
    let locale = use_locale();
    let now = use_now();
    move || {
        let list = variations.get();
        // A language change draws the cards again, in the new words.
        let locale = locale.get();
        grouped(locale, &list)
            .into_iter()
            .map(|(name, members)| {
                let heading = format!("{name} ({})", members.len());
                let cards = members
                    .into_iter()
                    .enumerate()
                    .map(|(index, variation)| {
                        let kind = describe::variation_type(locale, variation.kind.as_ref());
                        let title = td_string!(locale, studio.detail_variation_title, kind = kind, number = index + 1);
                        let lineage = lineage(locale, &variation, &list);
                        view! {
                            <VariationCard
                                variation
                                title
                                lineage
                                now
                                on_open=move |image| viewer.set(Some(image))
                                on_compare=move |id| compare.set(Some(id))
                                on_stage
                                on_use
                            />
                        }
                    })
                    .collect_view();
                view! {
                    <section class="vstage-section">
                        <h2>{heading}</h2>
                        <div class="vstage-variations">{cards}</div>
                    </section>
                }
            })
            .collect_view()
    }
}
