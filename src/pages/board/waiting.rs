//! The photos waiting to be rendered: each with its upload's progress or why it cannot be used, the board's
//! settings or its own, and "Create renders", which sends them with `POST /v2/renders/bulk` in requests of at most
//! 25. Photos whose request failed stay here with the reason and can be sent again.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::board::BoardRender;
use vstage_api::validate::MAX_BULK_ENTRIES;
use vstage_api::{BulkCreateRenders, ValidationError};

use super::model::bulk_entries;
use super::photos::{BoardPhotos, OWN_DRAFT_IDS, Photo, PhotoState, SHARED_DRAFT_ID};
use crate::api::use_api;
use crate::components::config_fields::ConfigFields;
use crate::describe;
use crate::locale::errors::form_error;
use crate::locale::use_locale;
use crate::plural;
use crate::upload;

#[component]
pub fn WaitingPhotos(
    photos: BoardPhotos,
    /// Called with the renders just created, in the photos' order.
    #[prop(into)]
    on_created: Callback<Vec<BoardRender>>,
) -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let sending = RwSignal::new(false);
    let no_error = Signal::stored(None::<ValidationError>);
    let send = Callback::new(move |keys: Option<Vec<u32>>| {
        let shared = photos.shared_draft();
        // Every photo with an address (or only `keys`), with the settings it is rendered with.
        let chosen: Vec<(u32, String, String, _)> = photos.photos.with_untracked(|list| {
            list.iter()
                .filter(|photo| keys.as_ref().is_none_or(|keys| keys.contains(&photo.key)))
                .filter_map(|photo| {
                    let address = photo.state.address()?.to_string();
                    Some((photo.key, photo.label.clone(), address, photo.own.clone().unwrap_or_else(|| shared.clone())))
                })
                .collect()
        });
        if chosen.is_empty() || sending.get_untracked() {
            return;
        }
        sending.set(true);
        let api = api.clone();
        spawn_local(async move {
            let request = BulkCreateRenders {
                webhook_url: None,
                wait_for_completion: None,
                renders: bulk_entries(chosen.iter().map(|(_, _, address, draft)| (address.as_str(), draft))),
            };
            let mut created = Vec::new();
            for chunk in api.bulk_create_renders_in_chunks(&request).await {
                let end = (chunk.first + MAX_BULK_ENTRIES).min(chosen.len());
                let photos_sent = &chosen[chunk.first..end];
                match chunk.outcome {
                    Ok(renders) => {
                        for ((key, label, _, _), render) in photos_sent.iter().zip(renders) {
                            created.push(BoardRender { render_id: render.id, label: label.clone() });
                            photos.remove(*key);
                        }
                    }
                    Err(error) => {
                        for (key, _, address, _) in photos_sent {
                            photos.change(*key, |photo| {
                                photo.state = PhotoState::NotCreated { address: address.clone(), error: error.clone() }
                            });
                        }
                    }
                }
            }
            let _ = sending.try_set(false);
            if !created.is_empty() {
                on_created.run(created);
            }
        });
    });
    let ready = move || photos.photos.with(|list| list.iter().filter(|photo| photo.state.address().is_some()).count());
    let uploading =
        move || photos.photos.with(|list| list.iter().filter(|p| matches!(p.state, PhotoState::Uploading(_))).count());

    view! {
        <Show when=move || !photos.photos.with(Vec::is_empty)>
            <section class="vstage-board__waiting" aria-labelledby="vstage-board-waiting">
                <h2 id="vstage-board-waiting">{move || td_string!(locale.get(), board.waiting_title)}</h2>
                <div class="vstage-board__settings">
                    <h3>{move || td_string!(locale.get(), board.waiting_shared)}</h3>
                    <ConfigFields id=SHARED_DRAFT_ID drafts=photos.shared existing=Signal::stored(0) error=no_error />
                </div>
                <ul class="vstage-board__photos">
                    <For each=move || photos.photos.get() key=|photo| photo.key let:photo>
                        <WaitingPhoto photos key=photo.key send />
                    </For>
                </ul>
                <div class="vstage-form__actions">
                    <button
                        type="button"
                        class="vstage-button"
                        part="primary-button"
                        disabled=move || sending.get() || ready() == 0
                        aria-busy=move || sending.get().to_string()
                        on:click=move |_| send.run(None)
                    >
                        {move || match (sending.get(), ready()) {
                            (true, _) => td_string!(locale.get(), board.waiting_creating).to_string(),
                            (false, n) => {
                                plural!(locale.get(), n, board.waiting_create_singular, board.waiting_create_plural, count = n)
                            }
                        }}
                    </button>
                    {move || (uploading() > 0).then(|| view! {
                        <span class="vstage-hint">{move || {
                            let count = uploading();
                            plural!(
                                locale.get(),
                                count,
                                board.waiting_still_uploading_singular,
                                board.waiting_still_uploading_plural,
                                count = count
                            )
                        }}</span>
                    })}
                </div>
            </section>
        </Show>
    }
}

/// One waiting photo: its name, where it is, its settings, and taking it away.
#[component]
fn WaitingPhoto(photos: BoardPhotos, key: u32, send: Callback<Option<Vec<u32>>>) -> impl IntoView {
    let locale = use_locale();
    let photo = Memo::new(move |_| photos.photos.with(|list| list.iter().find(|p| p.key == key).cloned()));
    let field = move |read: fn(&Photo) -> String| move || photo.with(|p| p.as_ref().map(read).unwrap_or_default());
    // Its own settings, edited with the same fields as the board's; the photo keeps a copy.
    let own_id = OWN_DRAFT_IDS + key;
    let own = RwSignal::new(
        photo.with_untracked(|p| p.as_ref().and_then(|p| p.own.clone())).map(|d| vec![(own_id, d)]).unwrap_or_default(),
    );
    Effect::new(move |_| {
        let chosen = own.with(|list| list.first().map(|(_, draft)| draft.clone()));
        photos.change(key, |photo| photo.own = chosen);
    });
    let customise = move |_| own.set(vec![(own_id, photos.shared_draft())]);
    let settings = move || match photo.with(|p| p.as_ref().and_then(|p| p.own.clone())) {
        Some(own) => describe::config(locale.get(), &own.to_config()),
        None => td_string!(locale.get(), board.waiting_board_settings).to_string(),
    };
    view! {
        <li class="vstage-board__photo">
            <div class="vstage-board__photo-head">
                <strong class="vstage-board__label">{field(|p| p.label.clone())}</strong>
                <span class="vstage-hint">{settings}</span>
                <button type="button" class="vstage-button vstage-button--small vstage-button--secondary"
                    aria-label=move || td_string!(locale.get(), board.waiting_remove_named, label = field(|p| p.label.clone())())
                    on:click=move |_| photos.remove(key)>
                    {move || td_string!(locale.get(), board.waiting_remove)}
                </button>
            </div>
            {move || match photo.get().map(|p| p.state) {
                Some(PhotoState::Uploading(done)) => view! {
                    <div class="vstage-upload" role="status">
                        <span>{move || {
                            td_string!(locale.get(), board.waiting_uploading, percent = upload::percent(done))
                        }}</span>
                        <progress max="1" value=done.to_string()></progress>
                    </div>
                }.into_any(),
                Some(PhotoState::Refused(message)) => view! { <p class="vstage-error" role="alert">{message}</p> }.into_any(),
                Some(PhotoState::NotCreated { error, .. }) => view! {
                    <div class="vstage-board__failure" role="alert">
                        <p class="vstage-error">{move || form_error(locale.get(), &error)}</p>
                        <button type="button" class="vstage-button vstage-button--small" on:click=move |_| send.run(Some(vec![key]))>
                            {move || td_string!(locale.get(), common.try_again)}
                        </button>
                    </div>
                }.into_any(),
                Some(PhotoState::Ready(_)) | None => ().into_any(),
            }}
            <Show
                when=move || !own.with(Vec::is_empty)
                fallback=move || view! {
                    <button type="button" class="vstage-button vstage-button--small vstage-button--secondary" on:click=customise>
                        {move || td_string!(locale.get(), board.waiting_customise)}
                    </button>
                }
            >
                <div class="vstage-board__own">
                    <ConfigFields id=own_id drafts=own existing=Signal::stored(0) error=Signal::stored(None::<ValidationError>) />
                    <button type="button" class="vstage-button vstage-button--small vstage-button--secondary" on:click=move |_| own.set(Vec::new())>
                        {move || td_string!(locale.get(), board.waiting_use_shared)}
                    </button>
                </div>
            </Show>
        </li>
    }
}
