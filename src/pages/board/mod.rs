//! The listing board: a whole listing staged at once. Photos are added many at a time (`add_photos`,
//! `pasted_addresses`), wait with their settings (`waiting`, `photos`), become renders in bulk, and each render is
//! a row kept live (`row`) under one overall bar (`renders`), whose finished results are chosen for the listing
//! there (`choices`). What the agent's allowance cannot cover waits, the
//! photos that fit offered on their own (`split`, `split_note`). The server remembers the board's renders for the
//! subject; selected rows get more variations. `state` and `photos` hold what is shown, `model` works it out, and
//! the sections are components of their own.

mod add_photos;
mod ask_first;
mod choices;
mod create;
mod loading;
pub mod model;
mod overall;
mod own_settings;
mod pasted_addresses;
mod photo_status;
pub mod photos;
mod renders;
mod room_guess;
mod row;
mod split;
mod split_note;
mod state;
mod tools;
mod try_again;
mod variation_line;
mod variations;
mod waiting;
mod waiting_photo;
mod waiting_photo_room;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::board::BoardRender;

use self::add_photos::AddPhotos;
use self::loading::BoardLoading;
use self::model::BoardChange;
use self::photos::{BoardPhotos, use_board_photos};
use self::renders::BoardRenders;
use self::state::{BoardState, Loading};
use self::waiting::WaitingPhotos;
use crate::account::use_account;
use crate::api::use_api;
use crate::chunks::{chunk, screen};
use crate::components::bulk_variations::lazy_dialog;
use crate::components::screen_heading::ScreenHeading;
use crate::draft_defaults::{Defaults, keep_defaults, listing_mark};
use crate::locale::errors::api_error;
use crate::locale::use_locale;

#[component]
pub fn Board() -> impl IntoView {
    crate::host_reference::send_with_creations();
    let account = use_account();
    let locale = use_locale();
    let photos = use_board_photos();
    // the board's settings take the mark the listing's rules ask for (each photo's furniture is its own)
    let mark = listing_mark();
    keep_defaults(photos.shared, Signal::derive(move || Defaults { mark: mark.get(), ..Defaults::default() }));
    let state = BoardState::new();
    let BoardState { loading, failure, .. } = state;
    let bulk_open = RwSignal::new(None::<Vec<(String, String)>>);
    // The renders just created, until the board lists them (and shows them with their progress).
    let awaited = RwSignal::new(Vec::<String>::new());
    let load = loader(state);
    let change = changer(state);
    let on_created = Callback::new(move |created: Vec<BoardRender>| {
        account.refresh();
        awaited.set(created.iter().map(|render| render.render_id.clone()).collect());
        change.run(BoardChange::Add(created));
    });
    let on_add_to_selected = Callback::new(move |chosen| bulk_open.set(Some(chosen)));
    let on_clear = Callback::new(move |()| change.run(BoardChange::Clear));
    let on_remove = Callback::new(move |id: String| change.run(BoardChange::Remove(id)));
    let on_added = Callback::new(move |ids: Vec<String>| {
        account.refresh();
        state.refresh(ids);
    });
    let on_close_bulk = Callback::new(move |()| bulk_open.set(None));

    view! {
        <section class="vstage-page vstage-board" aria-labelledby="vstage-board-title">
            <div class="vstage-page__head">
                <ScreenHeading id="vstage-board-title">{move || td_string!(locale.get(), board.title)}</ScreenHeading>
                <p class="vstage-muted">{move || td_string!(locale.get(), board.intro)}</p>
            </div>
            <AddPhotos photos />
            // The waiting photos and the board's renders are drawn once there are any, their code fetched then.
            <Show when=move || !photos.photos.with(Vec::is_empty)>
                {screen(move || Box::pin(waiting_photos(photos, on_created)))}
            </Show>
            {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{api_error(locale.get(), &error)}</p> })}
            <BoardLoading loading on_retry=load />
            <Show when=move || !account.offers_board() && loading.get() == Loading::Ready>
                <p class="vstage-hint">{move || td_string!(locale.get(), board.not_remembered)}</p>
            </Show>
            <Show when=move || !state.entries.with(Vec::is_empty)>
                {screen(move || Box::pin(board_renders(state, awaited, on_add_to_selected, on_clear, on_remove)))}
            </Show>
            {move || bulk_open.get().map(|chosen| lazy_dialog(chosen, on_added, on_close_bulk))}
        </section>
    }
}

chunk! {
    fn waiting_photos(photos: BoardPhotos, on_created: Callback<Vec<BoardRender>>) -> AnyView {
        view! { <WaitingPhotos photos on_created /> }.into_any()
    }
}

chunk! {
    fn board_renders(
        state: BoardState,
        awaited: RwSignal<Vec<String>>,
        on_add_to_selected: Callback<Vec<(String, String)>>,
        on_clear: Callback<()>,
        on_remove: Callback<String>,
    ) -> AnyView {
        view! { <BoardRenders state awaited on_add_to_selected on_clear on_remove /> }.into_any()
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
