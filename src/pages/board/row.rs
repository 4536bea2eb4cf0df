//! One render on the board: its photo, each variation's status with its ETA, kept live until all are final; a
//! failed variation says why and offers "Try again" (the same settings added again) while the others go on.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::board::BoardRender;
use vstage_api::{AddVariations, ApiError, GetRender, MAX_VARIATIONS_PER_RENDER, Variation, VariationStatus};

use super::model::{done_by_kind, what_it_is};
use super::state::Row;
use crate::api::use_api;
use crate::clock::use_now;
use crate::components::eta_bar::EtaBar;
use crate::components::link::Link;
use crate::describe;
use crate::live::follow_render;
use crate::locale::errors::api_error;
use crate::locale::{Locale, use_locale};
use crate::plural;
use crate::route::Route;

#[component]
pub fn BoardRow(
    entry: BoardRender,
    row: Row,
    /// Called when the person takes the render off the board.
    #[prop(into)]
    on_remove: Callback<String>,
) -> impl IntoView {
    let api = use_api();
    let now = use_now();
    let locale = use_locale();
    let state = row.state;
    let render_id = Signal::stored(entry.render_id.clone());
    let reload = {
        let api = api.clone();
        move || {
            let api = api.clone();
            spawn_local(async move {
                let query = GetRender {
                    include_variations: Some(true),
                    variations_limit: Some(MAX_VARIATIONS_PER_RENDER as u32),
                    ..GetRender::default()
                };
                match api.get_render(&render_id.get_untracked(), &query).await {
                    Ok(fresh) => state.read(fresh),
                    Err(error) => state.failed(api_error(locale.get_untracked(), &error)),
                }
            });
        }
    };
    let read = reload.clone();
    Effect::new(move |_| {
        row.refresh.track();
        read();
    });
    follow_render(render_id, Signal::derive(move || state.pending_etas()), reload.clone(), move |event| {
        state.apply(event)
    });

    let retrying = RwSignal::new(None::<Retry>);
    // The failed variations' settings added again, each as many times as it failed.
    let try_again = {
        let reload = reload.clone();
        move |_| {
            let failed: Vec<Variation> = state
                .variations
                .with_untracked(|list| list.iter().filter(|v| v.status == VariationStatus::Error).cloned().collect());
            let api = api.clone();
            let reload = reload.clone();
            retrying.set(Some(Retry::Sending));
            spawn_local(async move {
                let mut message = None;
                for config in failed.iter().filter_map(|variation| variation.config.clone()) {
                    let request = AddVariations { config, variation_count: 1, wait_for_completion: None };
                    let existing = Some(state.existing());
                    match api.add_variations(&render_id.get_untracked(), &request, existing).await {
                        Ok(added) => state.added(added.variations),
                        Err(error) => message = Some(Retry::Failed(error)),
                    }
                }
                let _ = retrying.try_set(message);
                reload();
            });
        }
    };
    let shown_label = if entry.label.is_empty() { entry.render_id.clone() } else { entry.label.clone() };
    let thumbnail = move || {
        let source = state.render.with(|r| r.as_ref().and_then(|r| r.image_url.clone()));
        state.variations.with(|list| describe::newest_thumbnail(list)).or(source)
    };
    let has_failed = move || state.variations.with(|list| list.iter().any(|v| v.status == VariationStatus::Error));
    let id_for_remove = entry.render_id.clone();
    let render_page = Route::Render { id: entry.render_id.clone() };

    view! {
        <li class="vstage-board__row" data-render-id=entry.render_id.clone()>
            <label class="vstage-board__select">
                <input type="checkbox" prop:checked=move || row.selected.get() on:change=move |ev| row.selected.set(event_target_checked(&ev)) />
                <span class="vstage-visually-hidden">
                    {let label = shown_label.clone(); move || td_string!(locale.get(), board.row_select, label = &label)}
                </span>
            </label>
            {move || match thumbnail() {
                Some(src) => view! { <img class="vstage-board__thumb" src=src alt="" loading="lazy" /> }.into_any(),
                None => view! { <div class="vstage-board__thumb vstage-board__thumb--empty" aria-hidden="true"></div> }.into_any(),
            }}
            <div class="vstage-board__body">
                <Link to=render_page class="vstage-board__label">
                    {shown_label.clone()}
                </Link>
                {move || state.failure.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
                <ul class="vstage-board__variations">
                    {move || {
                        let locale = locale.get();
                        state.variations.with(|list| done_by_kind(locale, list)).into_iter().map(|(what, count)| view! {
                            <li class="vstage-board__variation" data-status="done">
                                <span>{td_string!(locale, board.row_what, what = what)}</span>
                                <strong>{plural!(locale, count, board.row_done_singular, board.row_done_plural, count = count)}</strong>
                            </li>
                        }).collect_view()
                    }}
                    <For
                        each=move || state.variations.with(|list| list.iter().filter(|v| v.status != VariationStatus::Done).cloned().collect::<Vec<_>>())
                        key=|v| (v.id.clone(), v.status.clone(), v.eta.as_ref().map(|eta| eta.millis()))
                        let:variation
                    >
                        <VariationStatusLine variation now />
                    </For>
                </ul>
                <Show when=has_failed>
                    <div class="vstage-board__failure">
                        <button type="button" class="vstage-button vstage-button--small" on:click=try_again.clone()>
                            {move || td_string!(locale.get(), common.try_again)}
                        </button>
                        {move || retrying.get().map(|retry| view! { <span class="vstage-hint" role="status">{move || retry.words(locale.get())}</span> })}
                    </div>
                </Show>
            </div>
            <button type="button" class="vstage-button vstage-button--small vstage-button--secondary"
                on:click=move |_| on_remove.run(id_for_remove.clone())>
                {move || td_string!(locale.get(), board.row_remove)}
            </button>
        </li>
    }
}

/// One unfinished or failed variation: what it is, its status, its ETA while it works, or why it failed.
#[component]
fn VariationStatusLine(variation: Variation, #[prop(into)] now: Signal<i64>) -> impl IntoView {
    let locale = use_locale();
    let status = variation.status.clone();
    let pending = matches!(status, VariationStatus::Queued | VariationStatus::Processing);
    let eta = variation.eta.as_ref().map(|eta| eta.millis()).filter(|_| pending);
    let start = variation.created_at.millis();
    view! {
        <li class="vstage-board__variation" data-status=status.as_str().to_string()>
            <span>{
                let variation = variation.clone();
                move || td_string!(locale.get(), board.row_what, what = what_it_is(locale.get(), &variation))
            }</span>
            <strong>{let status = status.clone(); move || describe::status(locale.get(), &status)}</strong>
            {eta.map(|eta| view! { <EtaBar start eta now /> })}
            {variation.error_message.clone().filter(|_| status == VariationStatus::Error).map(|message| view! { <span class="vstage-error">{message}</span> })}
        </li>
    }
}

/// A "Try again" under way, or why it failed.
#[derive(Debug, Clone, PartialEq)]
enum Retry {
    Sending,
    Failed(ApiError),
}

impl Retry {
    fn words(&self, locale: Locale) -> String {
        match self {
            Retry::Sending => td_string!(locale, board.row_sending_again).to_string(),
            Retry::Failed(error) => api_error(locale, error),
        }
    }
}
