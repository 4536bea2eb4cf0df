//! The listing board: a whole listing staged at once. Photos are added many at a time (`add_photos`,
//! `pasted_addresses`), wait with their settings (`waiting`, `photos`), become renders in bulk, and each render is
//! a row kept live (`row`) under one overall bar. The server remembers the board's renders for the subject;
//! selected rows get more variations.

mod add_photos;
pub mod model;
mod pasted_addresses;
pub mod photos;
mod row;
mod state;
mod waiting;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::board::BoardRender;

use self::add_photos::AddPhotos;
use self::model::BoardChange;
use self::photos::use_board_photos;
use self::row::BoardRow;
use self::state::{BoardState, Loading};
use self::waiting::WaitingPhotos;
use crate::account::use_account;
use crate::api::{Token, use_api, use_token, with_access_token};
use crate::components::bulk_variations::BulkVariations;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::errors::api_error;
use crate::locale::use_locale;

#[component]
pub fn Board() -> impl IntoView {
    let api = use_api();
    let account = use_account();
    let locale = use_locale();
    let photos = use_board_photos();
    let state = BoardState::new();
    let BoardState { entries, loading, failure, .. } = state;
    let bulk_open = RwSignal::new(None::<Vec<(String, String)>>);
    let remembered = move || account.offers_board();
    let load = loader(state);
    let change = changer(state);
    let on_created = Callback::new(move |created: Vec<BoardRender>| {
        account.refresh();
        change.run(BoardChange::Add(created));
    });
    let on_remove = Callback::new(move |id: String| change.run(BoardChange::Remove(id)));
    let clear = move |_| change.run(BoardChange::Clear);

    let progress = Memo::new(move |_| state.progress());
    let selected = Memo::new(move |_| state.selected());
    let on_added = Callback::new(move |ids: Vec<String>| {
        account.refresh();
        state.refresh(ids);
    });
    let download = {
        let base = api.base_url().to_string();
        let token = use_token();
        Signal::derive(move || {
            with_access_token(format!("{base}/board/results.zip"), token.as_ref().and_then(Token::get).as_deref())
        })
    };

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
                Loading::Failed(error) => view! {
                    <div class="vstage-panel vstage-panel--error" role="alert">
                        <h2>{move || td_string!(locale.get(), board.load_failed)}</h2>
                        <p>{move || api_error(locale.get(), &error)}</p>
                        <button class="vstage-button" on:click=move |_| load.run(())>{move || td_string!(locale.get(), common.try_again)}</button>
                    </div>
                }.into_any(),
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
                            <button type="button" class="vstage-button vstage-button--secondary" on:click=clear>
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
                            <BoardRow row=state.row(&entry.render_id) entry on_remove />
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

/// Reads the board, now and whenever the callback is run.
fn loader(state: BoardState) -> Callback<()> {
    let api = use_api();
    let load = Callback::new(move |()| {
        let api = api.clone();
        state.loading.set(Loading::Reading);
        spawn_local(async move { state.loaded(api.board().await) });
    });
    load.run(());
    load
}

/// Makes a change to the board, kept by the server when it offers boards, else on this screen only.
fn changer(state: BoardState) -> Callback<BoardChange> {
    let (api, account) = (use_api(), use_account());
    Callback::new(move |change: BoardChange| {
        if !account.offers_board() {
            state.change_locally(change);
            return;
        }
        let api = api.clone();
        spawn_local(async move {
            let answer = match change {
                BoardChange::Add(renders) => api.add_to_board(renders).await,
                BoardChange::Remove(id) => api.remove_from_board(&id).await,
                BoardChange::Clear => api.clear_board().await,
            };
            state.changed(answer);
        });
    })
}
