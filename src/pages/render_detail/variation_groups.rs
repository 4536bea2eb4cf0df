//! The render's variations as cards, in a section per kind of processing (staging, removal, dusk, enhancement,
//! then kinds this studio does not know), each card titled with its number in its group.

use leptos::prelude::*;
use vstage_api::Variation;

use super::model::{file_name, grouped, lineage, title};
use crate::clock::use_now;
use crate::components::variation_card::VariationCard;
use crate::listing::ListingUse;
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
    on_use: Option<ListingUse>,
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
                    .map(|variation| {
                        let title = title(locale, &variation, &list);
                        let file_name = file_name(&variation, &list);
                        let lineage = lineage(locale, &variation, &list);
                        view! {
                            <VariationCard
                                variation
                                title
                                file_name
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
