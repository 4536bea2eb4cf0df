//! One render on the board: its photo and name (a link to its page, whose "back" returns here), whether it is
//! selected, its variations (`variations`) kept live until all are final, its finished results to choose the best
//! of for the listing (`choices`), "Try again" for the failed ones (`try_again`), and taking it off the board.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::board::BoardRender;

use super::choices::RowChoices;
use super::model::{row_label, row_thumbnail};
use super::state::{Row, read_render};
use super::try_again::TryAgain;
use super::variations::RowVariations;
use crate::api::use_api;
use crate::components::link::Link;
use crate::live::{follow_render, use_live};
use crate::locale::use_locale;
use crate::route::{Back, Route};

#[component]
pub fn BoardRow(
    entry: BoardRender,
    row: Row,
    /// Called when the person takes the render off the board.
    #[prop(into)]
    on_remove: Callback<String>,
) -> impl IntoView {
    let locale = use_locale();
    let state = row.state;
    let render_id = Signal::stored(entry.render_id.clone());
    keep_live(render_id, row);
    let label = row_label(&entry);
    let choices_of = label.clone();
    let thumbnail = move || {
        let source = state.render.with(|r| r.as_ref().and_then(|r| r.image_url.clone()));
        state.variations.with(|list| row_thumbnail(list, source))
    };
    let id_for_remove = entry.render_id.clone();
    let render_page = Route::Render { id: entry.render_id.clone(), back: Back::Board };

    view! {
        <li class="vstage-board__row" data-render-id=entry.render_id.clone()>
            <label class="vstage-board__select">
                <input type="checkbox" prop:checked=move || row.selected.get() on:change=move |ev| row.selected.set(event_target_checked(&ev)) />
                <span class="vstage-visually-hidden">
                    {let label = label.clone(); move || td_string!(locale.get(), board.row_select, label = &label)}
                </span>
            </label>
            {move || match thumbnail() {
                Some(src) => view! { <img class="vstage-board__thumb" src=src alt="" loading="lazy" /> }.into_any(),
                None => view! { <div class="vstage-board__thumb vstage-board__thumb--empty" aria-hidden="true"></div> }.into_any(),
            }}
            <div class="vstage-board__body">
                <Link to=render_page class="vstage-board__label">
                    {label.clone()}
                </Link>
                {move || state.failure.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
                <RowVariations variations=state.variations />
                <RowChoices render_id state label=choices_of />
                <TryAgain render_id state />
            </div>
            <button type="button" class="vstage-button vstage-button--small vstage-button--secondary"
                on:click=move |_| on_remove.run(id_for_remove.clone())>
                {move || td_string!(locale.get(), board.row_remove)}
            </button>
        </li>
    }
}

/// Reads the render into the row's state now and whenever the row's `refresh` is bumped, and keeps it live (events,
/// else polling) until its variations are final.
fn keep_live(render_id: Signal<String>, row: Row) {
    let (api, locale) = (use_api(), use_locale());
    let state = row.state;
    let (live, read_followed) = (use_live(), StoredValue::new(false));
    let reload = move || {
        let api = api.clone();
        read_followed.set_value(live.follows_reads_now());
        spawn_local(async move { read_render(&api, &render_id.get_untracked(), state, locale).await });
    };
    let read = reload.clone();
    Effect::new(move |_| {
        row.refresh.track();
        read();
    });
    let pending = Signal::derive(move || state.pending_etas());
    follow_render(render_id, pending, read_followed, reload, move |event| state.apply(event));
}
