//! The photos waiting to be rendered: the board's settings, each photo (`waiting_photo`), and "Create renders"
//! (`create`), which sends them with `POST /v2/renders/bulk` in requests of at most 25, after a question
//! (`ask_first`) when they use many photos. When the agent's allowance cannot cover them all, the cost note says
//! so, the photos that fit are offered on their own (`split_note`) and the others are marked as waiting. Photos
//! whose request failed stay here with the reason and can be sent again, when the allowance covers them.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::board::BoardRender;
use vstage_api::usage::{self, Cost};
use vstage_api::validate::MAX_BULK_ENTRIES;
use vstage_api::{BulkCreateRenders, ValidationError};

use super::ask_first::AskFirst;
use super::create::CreateRenders;
use super::model::{bulk_entries, photos_to_send};
use super::photos::{BoardPhotos, PhotoState, SHARED_DRAFT_ID};
use super::split::{AllowanceSplit, split};
use super::split_note::SplitNote;
use super::waiting_photo::WaitingPhoto;
use crate::account::use_account;
use crate::api::use_api;
use crate::components::config_fields::ConfigFields;
use crate::components::cost_note::{CostNote, covered, worth_asking};
use crate::locale::use_locale;

#[component]
pub fn WaitingPhotos(
    photos: BoardPhotos,
    /// Called with the renders just created, in the photos' order.
    #[prop(into)]
    on_created: Callback<Vec<BoardRender>>,
) -> impl IntoView {
    let locale = use_locale();
    let sending = RwSignal::new(false);
    let send = sender(photos, sending, on_created);
    let no_error = Signal::stored(None::<ValidationError>);
    let account = use_account();
    let asking = RwSignal::new(false);
    let cost = Signal::derive(move || cost_of(photos, None));
    let split = allowance_split(photos);
    let fitting_cost = Signal::derive(move || {
        split.with(|split| split.as_ref().map(|split| cost_of(photos, Some(&split.fit_keys())))).unwrap_or_default()
    });
    // A large request is asked about first; the question's "Create" sends it.
    let on_create = move |()| {
        if split.with_untracked(Option::is_some) {
            return;
        }
        if worth_asking(account.allowance_now().as_ref(), cost.get_untracked()) {
            asking.set(true);
        } else {
            send.run(None);
        }
    };
    let on_yes = move |()| {
        asking.set(false);
        send.run(None);
    };
    let waits_until = move |key: u32| {
        Signal::derive(move || {
            split.with(|split| split.as_ref().filter(|split| split.waits(key)).map(|split| split.renews_at))
        })
    };

    view! {
        <section class="vstage-board__waiting" aria-labelledby="vstage-board-waiting">
            <h2 id="vstage-board-waiting">{move || td_string!(locale.get(), board.waiting_title)}</h2>
            <div class="vstage-board__settings">
                <h3>{move || td_string!(locale.get(), board.waiting_shared)}</h3>
                <ConfigFields id=SHARED_DRAFT_ID drafts=photos.shared existing=Signal::stored(0) error=no_error />
            </div>
            <ul class="vstage-board__photos">
                <For each=move || photos.photos.get() key=|photo| photo.key let:photo>
                    <WaitingPhoto photos key=photo.key send waits_until=waits_until(photo.key) />
                </For>
            </ul>
            <CostNote cost=Signal::derive(move || Some(cost.get())) />
            <SplitNote split cost=fitting_cost sending photos on_create=move |keys| send.run(Some(keys)) />
            <CreateRenders photos sending held=Signal::derive(move || split.with(Option::is_some)) on_create />
            <AskFirst asking cost renders=Signal::derive(move || photos.ready()) on_yes />
        </section>
    }
}

/// How the agent's allowance splits the waiting photos, as it changes; `None` while it covers them all.
fn allowance_split(photos: BoardPhotos) -> Memo<Option<AllowanceSplit>> {
    let account = use_account();
    Memo::new(move |_| {
        let allowance = account.allowance().and_then(Result::ok)?;
        let shared = photos.shared_draft();
        photos.photos.with(|list| split(&photos_to_send(list, None, &shared), &allowance))
    })
}

/// What sending the photos (every one with an address, or only the keys given) would cost the allowance.
fn cost_of(photos: BoardPhotos, keys: Option<&[u32]>) -> Cost {
    let shared = photos.shared_draft();
    let chosen = photos.photos.with(|list| photos_to_send(list, keys, &shared));
    let renders = bulk_entries(chosen.iter().map(|photo| (photo.address.as_str(), &photo.draft)));
    usage::of_bulk_renders(&BulkCreateRenders { webhook_url: None, wait_for_completion: None, renders })
}

/// Sends photos to become renders: every one with an address, or only the keys given. Each photo made a render
/// leaves the waiting list, and `on_created` has the renders in the photos' order; the photos of a request that
/// failed stay with the reason.
fn sender(
    photos: BoardPhotos,
    sending: RwSignal<bool>,
    on_created: Callback<Vec<BoardRender>>,
) -> Callback<Option<Vec<u32>>> {
    let (api, account) = (use_api(), use_account());
    Callback::new(move |keys: Option<Vec<u32>>| {
        let shared = photos.shared_draft();
        let chosen = photos.photos.with_untracked(|list| photos_to_send(list, keys.as_deref(), &shared));
        // What the agent's allowance cannot cover is not sent; the cost note says why. Nor is anything before the
        // furniture of each photo is known (the buttons say so).
        let checking = untrack(|| photos.checking()) > 0;
        if chosen.is_empty()
            || checking
            || sending.get_untracked()
            || !covered(untrack(|| cost_of(photos, keys.as_deref())))
        {
            return;
        }
        sending.set(true);
        let api = api.clone();
        spawn_local(async move {
            let request = BulkCreateRenders {
                webhook_url: None,
                wait_for_completion: None,
                renders: bulk_entries(chosen.iter().map(|photo| (photo.address.as_str(), &photo.draft))),
            };
            let mut created = Vec::new();
            for chunk in api.bulk_create_renders_in_chunks(&request).await {
                let end = (chunk.first + MAX_BULK_ENTRIES).min(chosen.len());
                let photos_sent = &chosen[chunk.first..end];
                match chunk.outcome {
                    Ok(renders) => {
                        for (photo, render) in photos_sent.iter().zip(renders) {
                            created.push(BoardRender { render_id: render.id, label: photo.label.clone() });
                            photos.remove(photo.key);
                        }
                    }
                    Err(error) => {
                        for photo in photos_sent {
                            photos.change(photo.key, |waiting| {
                                waiting.state =
                                    PhotoState::NotCreated { address: photo.address.clone(), error: error.clone() }
                            });
                        }
                    }
                }
            }
            let _ = sending.try_set(false);
            // A refusal may be the allowance spent meanwhile (another tab, another device): read it again, so that
            // what cannot be covered waits for it rather than offering to try again.
            if photos
                .photos
                .with_untracked(|list| list.iter().any(|photo| matches!(photo.state, PhotoState::NotCreated { .. })))
            {
                account.refresh();
            }
            // The renders are on the server's board whether or not the board is still shown to be told.
            if !created.is_empty() {
                let _ = on_created.try_run(created);
            }
        });
    })
}
