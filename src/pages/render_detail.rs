//! One render: its source photo and its variations grouped by type, kept live until they finish; the full image,
//! a before/after comparison, and "add variations" (also "stage this empty room" on a removal variation).

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_api::host_events::{ResultChosen, VariationDone};
use vstage_api::{
    AddVariations, ApiError, GetRender, MAX_VARIATIONS_PER_RENDER, Render, ValidationError, Variation, VariationStatus,
    VariationType, WebhookEvent,
};

use crate::account::use_account;
use crate::api::use_api;
use crate::clock::use_now;
use crate::components::before_after::BeforeAfter;
use crate::components::config_list::ConfigList;
use crate::components::image_viewer::ImageViewer;
use crate::components::link::Link;
use crate::components::variation_card::VariationCard;
use crate::config_draft::{ConfigDraft, total};
use crate::describe;
use crate::host::{RESULT_CHOSEN, VARIATION_DONE, use_host};
use crate::live::follow_render;
use crate::route::{History, Route, use_navigator};

const VARIATIONS_PAGE: u32 = 20;

/// The order groups are shown in; unknown kinds come last.
fn group_rank(kind: Option<&VariationType>) -> u8 {
    match kind {
        Some(VariationType::Staging) => 0,
        Some(VariationType::Removal) => 1,
        Some(VariationType::DayToDusk) => 2,
        Some(VariationType::Enhancement) => 3,
        _ => 4,
    }
}

/// Variations grouped by type, each group in creation order.
pub fn grouped(variations: &[Variation]) -> Vec<(String, Vec<Variation>)> {
    let mut groups: Vec<(u8, String, Vec<Variation>)> = Vec::new();
    for variation in variations {
        let name = describe::variation_type(variation.kind.as_ref());
        match groups.iter_mut().find(|(_, group, _)| *group == name) {
            Some((_, _, members)) => members.push(variation.clone()),
            None => groups.push((group_rank(variation.kind.as_ref()), name, vec![variation.clone()])),
        }
    }
    groups.sort_by_key(|(rank, _, _)| *rank);
    groups.into_iter().map(|(_, name, members)| (name, members)).collect()
}

/// "Staged on removal variation N" for a variation made on a removal base.
pub fn lineage(variation: &Variation, all: &[Variation]) -> Option<String> {
    let base = variation.base_variation_id.as_deref()?;
    let removals: Vec<&Variation> = all.iter().filter(|v| v.kind == Some(VariationType::Removal)).collect();
    Some(match removals.iter().position(|v| v.id == base) {
        Some(index) => format!("Staged on removal variation {}", index + 1),
        None => format!("Staged on removal variation {base}"),
    })
}

/// Updates the variation an event is about from the event alone (no request); `false` when the event is not
/// one this can apply (an unknown variation or event type), so the render must be read again.
pub fn apply_event(variations: &mut [Variation], event: &WebhookEvent) -> bool {
    let id = match event {
        WebhookEvent::Done(done) => &done.variation_id,
        WebhookEvent::Error(failed) => &failed.variation_id,
        WebhookEvent::Update(update) => &update.variation_id,
        _ => return false,
    };
    let Some(variation) = variations.iter_mut().find(|v| v.id == *id) else { return false };
    match event {
        WebhookEvent::Done(done) => {
            variation.status = VariationStatus::Done;
            variation.result = Some(done.result.clone());
            variation.eta = None;
            if done.base_variation_id.is_some() {
                variation.base_variation_id.clone_from(&done.base_variation_id);
            }
        }
        WebhookEvent::Error(failed) => {
            variation.status = VariationStatus::Error;
            variation.eta = None;
            variation.error_message.clone_from(&failed.error_message);
        }
        WebhookEvent::Update(update) => {
            if let Some(status) = &update.status {
                variation.status = status.clone();
            }
            if update.eta.is_some() {
                variation.eta.clone_from(&update.eta);
            }
        }
        _ => {}
    }
    true
}

/// Keeps the newest copy of each variation, in the order first seen, adding new ones at the end.
fn merge(existing: &mut Vec<Variation>, fresh: Vec<Variation>) {
    for variation in fresh {
        match existing.iter_mut().find(|v| v.id == variation.id) {
            Some(old) => *old = variation,
            None => existing.push(variation),
        }
    }
}

#[component]
pub fn RenderDetail(
    /// The render shown; it changes when the host asks for another.
    #[prop(into)]
    render_id: Signal<String>,
) -> impl IntoView {
    let api = use_api();
    let account = use_account();
    let now = use_now();
    let render = RwSignal::new(None::<Render>);
    let variations = RwSignal::new(Vec::<Variation>::new());
    let more_cursor = RwSignal::new(None::<String>);
    let failure = RwSignal::new(None::<String>);
    let version = RwSignal::new(0u64);
    let viewer = RwSignal::new(None::<(String, String)>);
    let compare = RwSignal::new(None::<String>);
    let compare_with_base = RwSignal::new(false);
    let adding = RwSignal::new(false);
    let add_drafts = RwSignal::new(vec![(0u32, ConfigDraft::default())]);
    let add_error = RwSignal::new(None::<ValidationError>);
    let add_failure = RwSignal::new(None::<String>);
    let add_sending = RwSignal::new(false);
    let announcement = RwSignal::new(String::new());
    let host = use_host();
    // "Use in listing" where a listing embeds the studio (the standalone page has none).
    let on_use = host.clone().filter(|_| use_navigator().history() == History::Memory).map(|host| {
        Callback::new(move |variation_id: String| {
            let original = render.with_untracked(|r| r.as_ref().and_then(|r| r.image_url.clone()));
            let chosen = variations.with_untracked(|list| {
                list.iter().find(|v| v.id == variation_id).and_then(|v| ResultChosen::of(v, original.as_deref()))
            });
            if let Some(chosen) = chosen {
                host.emit(RESULT_CHOSEN, &chosen);
                announcement.set("Sent to the listing, with its disclosure caption.".into());
            }
        })
    });

    let reload = {
        let api = api.clone();
        move || {
            let api = api.clone();
            let id = render_id.get_untracked();
            spawn_local(async move {
                let query = GetRender {
                    include_variations: Some(true),
                    variations_limit: Some(VARIATIONS_PAGE),
                    ..Default::default()
                };
                match api.get_render(&id, &query).await {
                    Ok(fresh) => {
                        variations.update(|list| merge(list, fresh.variation_items().to_vec()));
                        if more_cursor.get_untracked().is_none() && render.get_untracked().is_none() {
                            more_cursor.set(fresh.variations.as_ref().and_then(|page| page.next_cursor.clone()));
                        }
                        render.set(Some(fresh));
                        failure.set(None);
                    }
                    Err(error) => failure.set(Some(error.to_string())),
                }
                version.update(|v| *v += 1);
            });
        }
    };
    let first = reload.clone();
    Effect::new(move |_| {
        render_id.track();
        render.set(None);
        variations.set(Vec::new());
        more_cursor.set(None);
        first();
    });
    // Say when a variation finishes, however the news came (an event or a read).
    Effect::new(move |previous: Option<Vec<(String, bool)>>| {
        let current: Vec<(String, bool)> =
            variations.with(|list| list.iter().map(|v| (v.id.clone(), v.status.is_final())).collect());
        if let Some(previous) = previous {
            let finished: Vec<Variation> = variations.with_untracked(|list| {
                list.iter()
                    .filter(|v| v.status.is_final() && previous.iter().any(|(id, was)| *id == v.id && !was))
                    .cloned()
                    .collect()
            });
            if !finished.is_empty() {
                let words: Vec<String> = finished
                    .iter()
                    .map(|v| {
                        let kind = describe::variation_type(v.kind.as_ref());
                        format!("{kind} is {}.", describe::status(&v.status).to_lowercase())
                    })
                    .collect();
                announcement.set(words.join(" "));
            }
            if let Some(host) = &host {
                for done in finished.iter().filter(|v| v.status == VariationStatus::Done) {
                    host.emit(VARIATION_DONE, &VariationDone::of(done));
                }
            }
        }
        current
    });
    let pending_etas = Signal::derive(move || {
        version.track();
        variations.with(|list| {
            list.iter().filter(|v| !v.status.is_final()).map(|v| v.eta.as_ref().map(|e| e.millis())).collect()
        })
    });
    follow_render(render_id, pending_etas, reload.clone(), move |event| {
        let mut applied = false;
        variations.update(|list| applied = apply_event(list, event));
        if applied {
            version.update(|v| *v += 1);
        }
        applied
    });

    let load_more = {
        let api = api.clone();
        Callback::new(move |()| {
            let api = api.clone();
            let id = render_id.get_untracked();
            let cursor = more_cursor.get_untracked();
            spawn_local(async move {
                let query = GetRender {
                    include_variations: Some(true),
                    variations_limit: Some(VARIATIONS_PAGE),
                    variations_cursor: cursor,
                    ..Default::default()
                };
                match api.get_render(&id, &query).await {
                    Ok(page) => {
                        variations.update(|list| merge(list, page.variation_items().to_vec()));
                        more_cursor.set(page.variations.and_then(|page| page.next_cursor));
                    }
                    Err(error) => failure.set(Some(error.to_string())),
                }
            });
        })
    };

    let existing = Signal::derive(move || {
        render
            .with(|r| r.as_ref().and_then(|r| r.variations.as_ref()?.total_count))
            .unwrap_or_else(|| variations.with(Vec::len) as u64)
    });
    let submit_add = {
        let api = api.clone();
        let reload = reload.clone();
        Callback::new(move |()| {
            let Some((_, draft)) = add_drafts.get_untracked().first().cloned() else { return };
            let request =
                AddVariations { config: draft.to_config(), variation_count: draft.count, wait_for_completion: None };
            let existing = existing.get_untracked();
            if let Err(invalid) = request.validate(Some(existing)) {
                add_error.set(Some(invalid));
                return;
            }
            add_error.set(None);
            add_failure.set(None);
            add_sending.set(true);
            let api = api.clone();
            let reload = reload.clone();
            let id = render_id.get_untracked();
            spawn_local(async move {
                match api.add_variations(&id, &request, Some(existing)).await {
                    Ok(added) => {
                        account.refresh();
                        variations.update(|list| merge(list, added.variations));
                        adding.set(false);
                        reload();
                    }
                    Err(ApiError::Invalid(invalid)) => add_error.set(Some(invalid)),
                    Err(other) => add_failure.set(Some(other.to_string())),
                }
                add_sending.set(false);
            });
        })
    };
    let open_add = Callback::new(move |draft: ConfigDraft| {
        add_error.set(None);
        add_failure.set(None);
        add_drafts.set(vec![(0, draft)]);
        adding.set(true);
    });
    let left = move || MAX_VARIATIONS_PER_RENDER.saturating_sub(existing.get());

    // what the comparison shows: the chosen (or newest finished) result against the source or its removal base
    // computed once per change, read by the slider's four inputs
    let compared = Memo::new(move |_| {
        let list = variations.get();
        let source = render.with(|r| r.as_ref().and_then(|r| r.image_url.clone()));
        let chosen = compare.get().and_then(|id| list.iter().find(|v| v.id == id).cloned()).or_else(|| {
            list.iter()
                .rfind(|v| v.status == VariationStatus::Done && v.kind != Some(VariationType::Removal))
                .cloned()
                .or_else(|| list.iter().rfind(|v| v.status == VariationStatus::Done).cloned())
        })?;
        let after = chosen.result.as_ref()?.primary()?.url.clone();
        let base =
            chosen.base_variation_id.as_ref().and_then(|base| list.iter().find(|v| v.id == *base)).and_then(|base| {
                Some((base.result.as_ref()?.primary()?.url.clone(), lineage(&chosen, &list).unwrap_or_default()))
            });
        let (before, before_label) = match (&base, compare_with_base.get(), source) {
            (Some((url, label)), true, _) | (Some((url, label)), false, None) => {
                (url.clone(), format!("the empty room ({})", label.to_lowercase()))
            }
            (_, _, Some(source)) => (source, "the original photo".to_string()),
            (None, _, None) => return None,
        };
        Some((
            before,
            after,
            before_label,
            format!("{} result", describe::variation_type(chosen.kind.as_ref()).to_lowercase()),
            base.is_some(),
        ))
    });

    view! {
        <section class="vstage-page" aria-labelledby="vstage-render-title">
            <p><Link to=Route::Renders>"← All renders"</Link></p>
            <div class="vstage-visually-hidden" role="status" aria-live="polite">{move || announcement.get()}</div>
            {move || match (render.get(), failure.get()) {
                (None, None) => view! {
                    <div aria-busy="true">
                        <h1 id="vstage-render-title" class="vstage-skeleton">"Loading the render…"</h1>
                        <div class="vstage-variations">
                            {(0..3).map(|_| view! { <div class="vstage-variation vstage-variation--skeleton vstage-skeleton"></div> }).collect_view()}
                        </div>
                    </div>
                }.into_any(),
                (None, Some(message)) => {
                    let retry = reload.clone();
                    view! {
                        <div class="vstage-panel vstage-panel--error" role="alert">
                            <h1 id="vstage-render-title">"This render could not be loaded"</h1>
                            <p>{message}</p>
                            <button class="vstage-button" on:click=move |_| retry()>"Try again"</button>
                        </div>
                    }.into_any()
                }
                (Some(loaded), failure) => {
                    let created = loaded.created_at.millis();
                    let retry = reload.clone();
                    view! {
                        <div class="vstage-page__head">
                            <h1 id="vstage-render-title">"Render"</h1>
                            <p class="vstage-muted">
                                {move || format!("Created {} · {} of {} variations", describe::relative_time(now.get(), created), existing.get(), MAX_VARIATIONS_PER_RENDER)}
                            </p>
                        </div>
                        {failure.map(|message| view! {
                            <p class="vstage-error" role="alert">{message} " " <button class="vstage-link" on:click=move |_| retry()>"Try again"</button></p>
                        })}
                        {loaded.image_url.clone().map(|source| {
                            let full = source.clone();
                            view! {
                                <figure class="vstage-source">
                                    <button class="vstage-source__image" on:click=move |_| viewer.set(Some((full.clone(), "The original photo".into())))>
                                        <img src=source alt="The original photo" />
                                    </button>
                                    <figcaption>"The original photo"</figcaption>
                                </figure>
                            }
                        })}
                    }.into_any()
                }
            }}
            <Show when=move || compared.get().is_some()>
                <section class="vstage-section" aria-labelledby="vstage-compare-title">
                    <h2 id="vstage-compare-title">"Before and after"</h2>
                    <Show when=move || compared.get().is_some_and(|c| c.4)>
                        <label class="vstage-check">
                            <input type="checkbox" prop:checked=move || compare_with_base.get() on:change=move |ev| compare_with_base.set(event_target_checked(&ev)) />
                            "Compare with the empty room it was staged on"
                        </label>
                    </Show>
                    <BeforeAfter
                        before=Signal::derive(move || compared.get().map(|c| c.0).unwrap_or_default())
                        after=Signal::derive(move || compared.get().map(|c| c.1).unwrap_or_default())
                        before_label=Signal::derive(move || compared.get().map(|c| c.2).unwrap_or_default())
                        after_label=Signal::derive(move || compared.get().map(|c| c.3).unwrap_or_default())
                    />
                </section>
            </Show>
            <Show when=move || render.with(Option::is_some)>
                {move || {
                    let list = variations.get();
                    grouped(&list).into_iter().map(|(name, members)| {
                        let heading = format!("{name} ({})", members.len());
                        let list = list.clone();
                        view! {
                            <section class="vstage-section">
                                <h2>{heading}</h2>
                                <div class="vstage-variations">
                                    {members.into_iter().enumerate().map(|(index, variation)| {
                                        let title = format!("{} {}", describe::variation_type(variation.kind.as_ref()), index + 1);
                                        let lineage = lineage(&variation, &list);
                                        view! {
                                            <VariationCard
                                                variation
                                                title
                                                lineage
                                                now
                                                on_open=move |image| viewer.set(Some(image))
                                                on_compare=move |id| compare.set(Some(id))
                                                on_stage=Callback::new(move |base: String| open_add.run(ConfigDraft::staging_on(&base)))
                                                on_use
                                            />
                                        }
                                    }).collect_view()}
                                </div>
                            </section>
                        }
                    }).collect_view()
                }}
                <Show when=move || more_cursor.get().is_some()>
                    <button class="vstage-button vstage-button--secondary" on:click=move |_| load_more.run(())>"Show more variations"</button>
                </Show>
                <section class="vstage-section" aria-labelledby="vstage-add-title">
                    <h2 id="vstage-add-title">"Add variations"</h2>
                    {move || if !adding.get() {
                        view! {
                            <p class="vstage-muted">{move || format!("{} more can be added to this render.", left())}</p>
                            <button class="vstage-button" disabled=move || left() == 0 on:click=move |_| open_add.run(ConfigDraft::default())>
                                "Add variations"
                            </button>
                        }.into_any()
                    } else {
                            view! {
                                <form class="vstage-form" on:submit=move |ev: leptos::ev::SubmitEvent| {
                                    ev.prevent_default();
                                    submit_add.run(());
                                } novalidate>
                                    <p class="vstage-muted">{move || format!("{} of {} left on this render.", left(), MAX_VARIATIONS_PER_RENDER)}</p>
                                    <ConfigList drafts=add_drafts existing error=add_error />
                                    {move || add_failure.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
                                    <div class="vstage-form__actions">
                                        <button type="submit" class="vstage-button" disabled=move || add_sending.get() || total(&add_drafts.get().into_iter().map(|(_, d)| d).collect::<Vec<_>>(), 0) == 0>
                                            {move || if add_sending.get() { "Adding…" } else { "Add" }}
                                        </button>
                                        <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| adding.set(false)>"Cancel"</button>
                                    </div>
                                </form>
                            }.into_any()
                    }}
                </section>
            </Show>
            <ImageViewer open=viewer />
        </section>
    }
}
