//! One variation: its status (announced as it changes), an ETA countdown while it works, its thumbnail (the full
//! image on click), download, "Use in listing" when embedded, its configuration, its lineage and, when it failed, why
//! (or that the service deleted it).
//! `model` works out its words, and the picture and the actions are components of their own.

mod actions;
mod model;
mod picture;

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{Variation, VariationStatus, VariationType};

use self::actions::VariationActions;
use self::picture::VariationPicture;
use crate::components::eta_bar::EtaBar;
use crate::describe;
use crate::listing::ListingUse;
use crate::locale::use_locale;

#[component]
pub fn VariationCard(
    variation: Variation,
    /// "Variation 2" or the like.
    #[prop(into)]
    title: String,
    /// What its images are saved as, without the extension (`living-room-modern-2`).
    #[prop(into)]
    file_name: String,
    /// For staging on a removal: "Staged on empty room N".
    #[prop(into)]
    lineage: Option<String>,
    #[prop(into)] now: Signal<i64>,
    /// Opens the full image.
    #[prop(into)]
    on_open: Callback<(String, Signal<String>)>,
    /// Compares this result with its before.
    #[prop(into)]
    on_compare: Callback<String>,
    /// On removal variations: stage the empty room.
    #[prop(optional, into)]
    on_stage: Option<Callback<String>>,
    /// Hands one image of the finished result to the host's listing (only where there is a listing to take it).
    #[prop(default = None)]
    on_use: Option<ListingUse>,
) -> impl IntoView {
    let locale = use_locale();
    let images = variation.result.as_ref().map(|result| result.images().to_vec()).unwrap_or_default();
    let eta = model::pending_eta(&variation);
    let start = variation.created_at.millis();
    let Variation { id, status, kind, config, error_message, .. } = variation;
    let on_stage = on_stage.filter(|_| kind == Some(VariationType::Removal));
    let failed = status == VariationStatus::Error;
    let deleted = status == VariationStatus::Deleted;
    let label = Signal::derive({
        let title = title.clone();
        move || model::label(locale.get(), &title, kind.as_ref())
    });
    let status_words = {
        let status = status.clone();
        move || describe::status(locale.get(), &status)
    };
    view! {
        <article class="vstage-variation" part="card" aria-label=label data-variation-id=id.clone() data-status=status.as_str().to_string()>
            <header class="vstage-variation__head">
                <h3>{title.clone()}</h3>
                <span class=model::badge_class(&status) role="status" aria-live="polite">
                    {status_words}
                </span>
            </header>
            <VariationPicture images=images.clone() working=!status.is_final() title label on_open />
            {eta.map(|eta| view! { <EtaBar start eta now /> })}
            {failed.then(|| view! { <p class="vstage-error" role="alert">{move || model::failure_words(locale.get(), error_message.as_deref())}</p> })}
            {deleted.then(|| view! { <p class="vstage-variation__note">{move || td_string!(locale.get(), studio.variation_deleted)}</p> })}
            {config.map(|config| view! { <p class="vstage-variation__config">{move || describe::config(locale.get(), &config)}</p> })}
            {lineage.map(|lineage| view! { <p class="vstage-variation__lineage">{lineage}</p> })}
            {(!images.is_empty()).then(|| view! { <VariationActions id=id.clone() images file_name on_compare on_stage on_use /> })}
        </article>
    }
}
