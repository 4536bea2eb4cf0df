//! "Add variations to selected": one configuration for several renders, or their empty rooms staged, sent with
//! `POST /v2/renders/variations/bulk` after each render was read again and checked for room; those left out are named.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::validate::MAX_BULK_ENTRIES;
use vstage_api::{ApiError, BulkAddVariations, BulkVariations, GetRender, MAX_VARIATIONS_PER_RENDER, ValidationError};

use crate::api::use_api;
use crate::components::config_fields::ConfigFields;
use crate::config_draft::ConfigDraft;
use crate::locale::errors::form_error;
use crate::locale::{Locale, use_locale};
use crate::plural;
use crate::variation_plan::{Target, plan};

/// The draft id of this form's configuration (apart from other forms' on the same screen).
const DRAFT_ID: u32 = 2000;

#[derive(Debug, Clone, PartialEq)]
enum Reading {
    Pending,
    Read(Vec<Target>),
    /// The render named `label` could not be read.
    Failed {
        label: String,
        error: ApiError,
    },
}

/// What one request of the sending did, put in words when shown.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Added { variations: usize, renders: usize },
    Refused { renders: usize, error: ApiError },
}

impl Outcome {
    fn sentence(&self, locale: Locale) -> String {
        match self {
            Outcome::Added { variations, renders } => plural!(
                locale,
                *variations,
                studio.bulk_added_singular,
                studio.bulk_added_plural,
                count = variations,
                renders = renders
            ),
            Outcome::Refused { renders, error } => {
                let error = form_error(locale, error);
                plural!(
                    locale,
                    *renders,
                    studio.bulk_nothing_singular,
                    studio.bulk_nothing_plural,
                    count = renders,
                    error = error
                )
            }
        }
    }
}

#[component]
pub fn BulkVariations(
    /// The chosen renders: id and the name the person knows them by.
    chosen: Vec<(String, String)>,
    /// Called with the ids of the renders that got variations.
    #[prop(into)]
    on_added: Callback<Vec<String>>,
    #[prop(into)] on_close: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let reading = RwSignal::new(Reading::Pending);
    let draft = RwSignal::new(vec![(DRAFT_ID, ConfigDraft::default())]);
    let on_empty_rooms = RwSignal::new(false);
    let sending = RwSignal::new(false);
    let outcome = RwSignal::new(Vec::<Outcome>::new());
    // Read each render now: its variation count and empty room, as they are at this moment.
    let read = {
        let api = api.clone();
        move || {
            let (api, chosen) = (api.clone(), chosen.clone());
            reading.set(Reading::Pending);
            spawn_local(async move {
                let query = GetRender {
                    include_variations: Some(true),
                    variations_limit: Some(MAX_VARIATIONS_PER_RENDER as u32),
                    ..GetRender::default()
                };
                let mut targets = Vec::new();
                for (id, label) in chosen {
                    match api.get_render(&id, &query).await {
                        Ok(render) => {
                            let existing = render.variations.as_ref().and_then(|page| page.total_count);
                            let existing = existing.unwrap_or(render.variation_items().len() as u64);
                            targets.push(Target::of(&id, &label, existing, render.variation_items()));
                        }
                        Err(error) => {
                            let _ = reading.try_set(Reading::Failed { label, error });
                            return;
                        }
                    }
                }
                let _ = reading.try_set(Reading::Read(targets));
            });
        }
    };
    read();
    let chosen_plan = Memo::new(move |_| {
        let Reading::Read(targets) = reading.get() else { return None };
        let draft = draft.with(|list| list.first().map(|(_, d)| d.clone()).unwrap_or_default());
        Some(plan(locale.get(), &targets, &draft, on_empty_rooms.get()))
    });
    let send = move |_| {
        let Some(plan) = chosen_plan.get_untracked() else { return };
        if plan.send.is_empty() || sending.get_untracked() {
            return;
        }
        sending.set(true);
        outcome.set(Vec::new());
        let api = api.clone();
        spawn_local(async move {
            let mut added_to = Vec::new();
            let mut report = Vec::new();
            for part in plan.send.chunks(MAX_BULK_ENTRIES) {
                let request = BulkAddVariations {
                    wait_for_completion: None,
                    renders: part
                        .iter()
                        .map(|(render_id, draft)| BulkVariations {
                            render_id: render_id.clone(),
                            variation_count: draft.count,
                            config: draft.to_config(),
                        })
                        .collect(),
                };
                match api.bulk_add_variations(&request).await {
                    Ok(added) => {
                        report.push(Outcome::Added { variations: added.results.len(), renders: part.len() });
                        added_to.extend(part.iter().map(|(id, _)| id.clone()));
                    }
                    Err(error) => report.push(Outcome::Refused { renders: part.len(), error }),
                }
            }
            let _ = outcome.try_set(report);
            let _ = sending.try_set(false);
            if !added_to.is_empty() {
                on_added.run(added_to);
            }
        });
    };

    view! {
        <div class="vstage-dialog" role="dialog" aria-modal="true" aria-labelledby="vstage-bulk-title">
            <h2 id="vstage-bulk-title">{move || td_string!(locale.get(), studio.bulk_title)}</h2>
            <div class="vstage-tabs" role="radiogroup" aria-label=move || td_string!(locale.get(), studio.bulk_what)>
                <label class="vstage-tab" class:vstage-tab--chosen=move || !on_empty_rooms.get()>
                    <input type="radio" name="vstage-bulk-mode" prop:checked=move || !on_empty_rooms.get() on:change=move |_| on_empty_rooms.set(false) />
                    {move || td_string!(locale.get(), studio.bulk_same_settings)}
                </label>
                <label class="vstage-tab" class:vstage-tab--chosen=move || on_empty_rooms.get()>
                    <input type="radio" name="vstage-bulk-mode" prop:checked=move || on_empty_rooms.get() on:change=move |_| on_empty_rooms.set(true) />
                    {move || td_string!(locale.get(), studio.bulk_empty_rooms)}
                </label>
            </div>
            <Show when=move || on_empty_rooms.get()>
                <p class="vstage-hint">{move || td_string!(locale.get(), studio.bulk_empty_rooms_hint)}</p>
            </Show>
            <ConfigFields id=DRAFT_ID drafts=draft existing=Signal::stored(0) error=Signal::stored(None::<ValidationError>) />
            {move || match reading.get() {
                Reading::Pending => view! { <p class="vstage-muted" aria-busy="true">{move || td_string!(locale.get(), studio.bulk_reading)}</p> }.into_any(),
                Reading::Failed { label, error } => view! {
                    <p class="vstage-error" role="alert">
                        {move || {
                            let locale = locale.get();
                            td_string!(locale, studio.bulk_read_failed, label = &label, error = form_error(locale, &error))
                        }}
                    </p>
                }.into_any(),
                Reading::Read(_) => ().into_any(),
            }}
            {move || chosen_plan.get().filter(|plan| !plan.left_out.is_empty()).map(|plan| view! {
                <div class="vstage-panel" role="status">
                    <p>{move || td_string!(locale.get(), studio.bulk_left_out)}</p>
                    <ul class="vstage-bulk__left-out">
                        {plan.left_out.into_iter().map(|reason| view! { <li>{reason}</li> }).collect_view()}
                    </ul>
                </div>
            })}
            {move || {
                let locale = locale.get();
                outcome.get().into_iter().map(|line| view! { <p role="status">{line.sentence(locale)}</p> }).collect_view()
            }}
            <div class="vstage-form__actions">
                <button
                    type="button"
                    class="vstage-button"
                    part="primary-button"
                    disabled=move || sending.get() || chosen_plan.get().is_none_or(|plan| plan.send.is_empty())
                    on:click=send
                >
                    {move || {
                        let locale = locale.get();
                        match chosen_plan.get().map(|plan| plan.send.len()) {
                            _ if sending.get() => td_string!(locale, studio.adding).to_string(),
                            Some(n) => plural!(locale, n, studio.bulk_add_to_singular, studio.bulk_add_to_plural, count = n),
                            None => td_string!(locale, studio.add).to_string(),
                        }
                    }}
                </button>
                <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| on_close.run(())>
                    {move || td_string!(locale.get(), studio.close)}
                </button>
            </div>
        </div>
    }
}
