//! The listing board: a whole listing staged at once. Photos are added many at a time (`add_photos`,
//! `pasted_addresses`), wait with their settings (`waiting`, `photos`), become renders in bulk, and each render is
//! a row kept live (`row`) under one overall bar. The server remembers the board's renders for the subject;
//! selected rows get more variations.

mod add_photos;
pub mod model;
mod pasted_addresses;
pub mod photos;
mod row;
mod waiting;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::ApiError;
use vstage_api::board::{Board as SavedBoard, BoardRender};

use self::add_photos::AddPhotos;
use self::model::Progress;
use self::photos::use_board_photos;
use self::row::{BoardRow, Row};
use self::waiting::WaitingPhotos;
use crate::account::use_account;
use crate::api::{Token, use_api, use_token, with_access_token};
use crate::components::bulk_variations::BulkVariations;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::errors::api_error;
use crate::locale::use_locale;

#[derive(Debug, Clone, PartialEq)]
enum Loading {
    Reading,
    Ready,
    Failed(ApiError),
}

#[component]
pub fn Board() -> impl IntoView {
    let api = use_api();
    let account = use_account();
    let locale = use_locale();
    let photos = use_board_photos();
    let owner = StoredValue::new(Owner::current().expect("a component runs under an owner"));
    let entries = RwSignal::new(Vec::<BoardRender>::new());
    // Each render's state, kept for the board's life (rows come and go; their state stays readable).
    let rows = StoredValue::new(std::collections::HashMap::<String, Row>::new());
    let row_of = move |id: &str| -> Row {
        if let Some(row) = rows.with_value(|rows| rows.get(id).copied()) {
            return row;
        }
        let row = owner.with_value(|owner| owner.with(Row::new));
        rows.update_value(|rows| {
            rows.insert(id.to_string(), row);
        });
        row
    };
    let loading = RwSignal::new(Loading::Reading);
    let failure = RwSignal::new(None::<ApiError>);
    let bulk_open = RwSignal::new(None::<Vec<(String, String)>>);
    let remembered = move || account.offers_board();

    let take = move |board: SavedBoard| entries.set(board.renders);
    let load = {
        let api = api.clone();
        move || {
            let api = api.clone();
            loading.set(Loading::Reading);
            spawn_local(async move {
                match api.board().await {
                    Ok(board) => {
                        take(board);
                        let _ = loading.try_set(Loading::Ready);
                    }
                    Err(error) if error.status() == Some(404) => {
                        let _ = loading.try_set(Loading::Ready);
                    }
                    Err(error) => {
                        let _ = loading.try_set(Loading::Failed(error));
                    }
                }
            });
        }
    };
    load();
    // A change to the board, kept by the server when it offers boards, else on this screen only.
    let change = {
        let api = api.clone();
        move |change: BoardChange| {
            let api = api.clone();
            if !remembered() {
                entries.update(|list| change.apply_locally(list));
                return;
            }
            spawn_local(async move {
                let answer = match change {
                    BoardChange::Add(renders) => api.add_to_board(renders).await,
                    BoardChange::Remove(id) => api.remove_from_board(&id).await,
                    BoardChange::Clear => api.clear_board().await,
                };
                match answer {
                    Ok(board) => {
                        take(board);
                        let _ = failure.try_set(None);
                    }
                    Err(error) => {
                        let _ = failure.try_set(Some(error));
                    }
                }
            });
        }
    };
    let on_created = {
        let change = change.clone();
        Callback::new(move |created: Vec<BoardRender>| {
            account.refresh();
            change(BoardChange::Add(created));
        })
    };
    let on_remove = {
        let change = change.clone();
        Callback::new(move |id: String| change(BoardChange::Remove(id)))
    };
    let clear = move |_| change(BoardChange::Clear);

    let progress = Memo::new(move |_| {
        entries.with(|list| {
            list.iter().fold(Progress::default(), |sum, entry| {
                sum + row_of(&entry.render_id).state.variations.with(|variations| Progress::of(variations))
            })
        })
    });
    let selected = Memo::new(move |_| -> Vec<(String, String)> {
        entries.with(|list| {
            list.iter()
                .filter(|entry| row_of(&entry.render_id).selected.get())
                .map(|entry| (entry.render_id.clone(), entry.label.clone()))
                .collect()
        })
    });
    let on_added = Callback::new(move |ids: Vec<String>| {
        account.refresh();
        // The rows read again: their new variations show, and polling or events take them from there.
        for id in ids {
            row_of(&id).refresh.update(|n| *n += 1);
        }
    });
    let download = {
        let base = api.base_url().to_string();
        let token = use_token();
        Signal::derive(move || {
            with_access_token(format!("{base}/board/results.zip"), token.as_ref().and_then(Token::get).as_deref())
        })
    };
    let retry = load.clone();

    view! {
        <section class="vstage-page vstage-board" aria-labelledby="vstage-board-title">
            <div class="vstage-page__head">
                <ScreenHeading id="vstage-board-title">{move || td_string!(locale.get(), board.title)}</ScreenHeading>
                <p class="vstage-muted">{move || td_string!(locale.get(), board.intro)}</p>
            </div>
            <AddPhotos photos />
            <WaitingPhotos photos on_created />
            {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{api_error(locale.get(), &error)}</p> })}
            {move || match loading.get() {
                Loading::Reading => view! {
                    <p class="vstage-muted vstage-skeleton" aria-busy="true">{move || td_string!(locale.get(), board.loading)}</p>
                }.into_any(),
                Loading::Failed(error) => {
                    let retry = retry.clone();
                    view! {
                        <div class="vstage-panel vstage-panel--error" role="alert">
                            <h2>{move || td_string!(locale.get(), board.load_failed)}</h2>
                            <p>{move || api_error(locale.get(), &error)}</p>
                            <button class="vstage-button" on:click=move |_| retry()>{move || td_string!(locale.get(), common.try_again)}</button>
                        </div>
                    }.into_any()
                }
                Loading::Ready => ().into_any(),
            }}
            <Show when=move || !remembered() && loading.get() == Loading::Ready>
                <p class="vstage-hint">{move || td_string!(locale.get(), board.not_remembered)}</p>
            </Show>
            <Show when=move || !entries.with(Vec::is_empty)>
                <section class="vstage-board__renders" aria-labelledby="vstage-board-renders">
                    <div class="vstage-page__head">
                        <h2 id="vstage-board-renders">{move || td_string!(locale.get(), board.renders_title)}</h2>
                        <div class="vstage-page__tools">
                            <button type="button" class="vstage-button vstage-button--secondary"
                                disabled=move || selected.with(Vec::is_empty)
                                on:click=move |_| bulk_open.set(Some(selected.get()))>
                                {move || td_string!(locale.get(), board.add_to_selected, count = selected.with(Vec::len))}
                            </button>
                            <Show when=move || { progress.get().done > 0 }>
                                <a class="vstage-button vstage-button--secondary vstage-download" href=download download>
                                    {move || td_string!(locale.get(), board.download_all)}
                                </a>
                            </Show>
                            <button type="button" class="vstage-button vstage-button--secondary" on:click=clear.clone()>
                                {move || td_string!(locale.get(), board.start_new)}
                            </button>
                        </div>
                    </div>
                    <div class="vstage-board__overall" role="status" aria-live="polite">
                        <progress
                            max=move || progress.get().total.max(1).to_string()
                            value=move || { let p = progress.get(); (p.done + p.failed).to_string() }
                            aria-label=move || td_string!(locale.get(), board.overall_label)
                        ></progress>
                        <span class="vstage-board__overall-words">{move || progress.with(|progress| progress.words(locale.get()))}</span>
                    </div>
                    <ul class="vstage-board__rows">
                        <For each=move || entries.get() key=|entry| entry.render_id.clone() let:entry>
                            <BoardRow row=row_of(&entry.render_id) entry on_remove />
                        </For>
                    </ul>
                </section>
            </Show>
            {move || bulk_open.get().map(|chosen| view! {
                <BulkVariations chosen on_added on_close=move |()| bulk_open.set(None) />
            })}
        </section>
    }
}

/// What the person did to the board's list.
enum BoardChange {
    Add(Vec<BoardRender>),
    Remove(String),
    Clear,
}

impl BoardChange {
    /// The same change on a list no server keeps.
    fn apply_locally(self, list: &mut Vec<BoardRender>) {
        match self {
            BoardChange::Add(renders) => {
                for render in renders {
                    if list.iter().all(|entry| entry.render_id != render.render_id) {
                        list.push(render);
                    }
                }
            }
            BoardChange::Remove(id) => list.retain(|entry| entry.render_id != id),
            BoardChange::Clear => list.clear(),
        }
    }
}
