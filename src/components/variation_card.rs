//! One variation: its status (announced as it changes), an ETA countdown while it works, its thumbnail (the full
//! image on click), download, "Use in listing" when embedded, its configuration, its lineage and, when it failed, why.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{Variation, VariationStatus, VariationType};

use crate::components::eta_bar::EtaBar;
use crate::describe;
use crate::locale::use_locale;

#[component]
pub fn VariationCard(
    variation: Variation,
    /// "Variation 2" or the like.
    #[prop(into)]
    title: String,
    /// For staging on a removal: "Staged on removal variation N".
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
    /// Hands the finished result to the host's listing (only where there is a listing to take it).
    #[prop(default = None)]
    on_use: Option<Callback<String>>,
) -> impl IntoView {
    let locale = use_locale();
    let status = variation.status.clone();
    let status_class = format!("vstage-badge vstage-badge--{}", status.as_str());
    let image = variation.result.as_ref().and_then(|result| result.primary().cloned());
    let config = variation.config.clone();
    let working = !status.is_final();
    let eta = variation.eta.as_ref().map(|eta| eta.millis()).filter(|_| working);
    let start = variation.created_at.millis();
    let id = variation.id.clone();
    let is_removal = variation.kind == Some(VariationType::Removal);
    let failed = status == VariationStatus::Error;
    let error_message = variation.error_message.clone();
    let error_message =
        move || error_message.clone().unwrap_or_else(|| td_string!(locale.get(), studio.variation_failed).to_string());
    let label = Signal::derive({
        let (title, kind) = (title.clone(), variation.kind.clone());
        move || {
            let locale = locale.get();
            let kind = describe::variation_type(locale, kind.as_ref());
            td_string!(locale, studio.variation_label, title = &title, kind = kind)
        }
    });
    let status_words = {
        let status = status.clone();
        move || describe::status(locale.get(), &status)
    };
    view! {
        <article class="vstage-variation" part="card" aria-label=label data-variation-id=id.clone() data-status=status.as_str().to_string()>
            <header class="vstage-variation__head">
                <h3>{title.clone()}</h3>
                <span class=status_class role="status" aria-live="polite">
                    {status_words}
                </span>
            </header>
            {match (image.clone(), working) {
                (Some(image), _) => {
                    let full = image.url.clone();
                    let thumbnail = image.thumbnail().to_string();
                    view! {
                        <button class="vstage-variation__thumb" on:click=move |_| on_open.run((full.clone(), label))>
                            <img src=thumbnail alt=move || td_string!(locale.get(), studio.variation_open_full, title = &title) loading="lazy" />
                        </button>
                    }
                        .into_any()
                }
                (None, true) => view! { <div class="vstage-variation__placeholder vstage-skeleton" aria-hidden="true"></div> }.into_any(),
                (None, false) => view! { <div class="vstage-variation__placeholder" aria-hidden="true"></div> }.into_any(),
            }}
            {eta.map(|eta| view! { <EtaBar start eta now /> })}
            {failed.then(|| view! { <p class="vstage-error" role="alert">{error_message}</p> })}
            {config.map(|config| view! { <p class="vstage-variation__config">{move || describe::config(locale.get(), &config)}</p> })}
            {lineage.map(|lineage| view! { <p class="vstage-variation__lineage">{lineage}</p> })}
            {image.map(|image| {
                let compare_id = id.clone();
                let stage_id = id.clone();
                let use_id = id.clone();
                view! {
                    <div class="vstage-variation__actions">
                    {on_use.map(|on_use| view! {
                        <button class="vstage-button vstage-button--small" part="primary-button" on:click=move |_| on_use.run(use_id.clone())>
                            {move || td_string!(locale.get(), studio.variation_use)}
                        </button>
                    })}
                        <a class="vstage-button vstage-button--small vstage-button--secondary" href=image.url.clone() download="" target="_blank" rel="noopener">
                            {move || td_string!(locale.get(), studio.download)}
                        </a>
                        <button class="vstage-button vstage-button--small vstage-button--secondary" on:click=move |_| on_compare.run(compare_id.clone())>
                            {move || td_string!(locale.get(), studio.variation_compare)}
                        </button>
                        {on_stage.filter(|_| is_removal).map(|on_stage| view! {
                            <button class="vstage-button vstage-button--small" on:click=move |_| on_stage.run(stage_id.clone())>
                                {move || td_string!(locale.get(), studio.variation_stage_empty_room)}
                            </button>
                        })}
                    </div>
                }
            })}
        </article>
    }
}
