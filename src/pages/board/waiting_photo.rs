//! One waiting photo as a card of the board's grid: the photo itself once it has an address (then its furniture is
//! asked of the service's analysis, once), its name, the room, style and furniture it is staged with
//! (`waiting_photo_room`) or the settings it is rendered with, taking it away, where it is (`photo_status`: waiting
//! for the allowance too) and its own settings (`own_settings`).

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;

use super::model::settings_words;
use super::own_settings::OwnSettings;
use super::photo_status::PhotoStatus;
use super::photos::BoardPhotos;
use super::waiting_photo_room::WaitingPhotoRoom;
use crate::api::use_api;
use crate::furnishing::{self, Furnishing};
use crate::locale::use_locale;

#[component]
pub fn WaitingPhoto(
    photos: BoardPhotos,
    key: u32,
    send: Callback<Option<Vec<u32>>>,
    /// When the allowance it waits for renews, while it cannot cover the photo.
    waits_until: Signal<Option<i64>>,
) -> impl IntoView {
    let locale = use_locale();
    let photo = Memo::new(move |_| photos.photos.with(|list| list.iter().find(|p| p.key == key).cloned()));
    let label = move || photo.with(|p| p.as_ref().map(|p| p.label.clone()).unwrap_or_default());
    let settings = move || photo.with(|p| settings_words(locale.get(), p.as_ref().and_then(|p| p.own.as_ref())));
    let room_on_the_photo =
        move || photo.with(|p| p.as_ref().is_some_and(|p| p.stages_with_board_settings(&photos.shared_draft())));
    // The photo itself, once it has an address: the agent sees which room it is before anything is made.
    let address = move || photo.with(|p| p.as_ref().and_then(|p| p.state.address().map(str::to_string)));
    analyse_once(photos, key, Signal::derive(address));
    view! {
        <li class="vstage-board__photo">
            <div class="vstage-board__picture">
                {move || address().map(|src| view! { <img class="vstage-board__thumb" src=src alt="" loading="lazy" /> })}
            </div>
            <div class="vstage-board__photo-head">
                <strong class="vstage-board__label">{label}</strong>
                <button type="button" class="vstage-button vstage-button--small vstage-button--secondary"
                    aria-label=move || td_string!(locale.get(), board.waiting_remove_named, label = label())
                    on:click=move |_| photos.remove(key)>
                    {move || td_string!(locale.get(), board.waiting_remove)}
                </button>
            </div>
            <PhotoStatus
                state=Signal::derive(move || photo.get().map(|p| p.state))
                waits_until
                on_retry=move |()| send.run(Some(vec![key]))
            />
            <Show when=room_on_the_photo fallback=move || view! { <span class="vstage-hint">{settings}</span> }>
                <WaitingPhotoRoom photos key />
            </Show>
            <OwnSettings photos key />
        </li>
    }
}

/// Asks the service's analysis whether the photo is furnished, once it has an address and only once: the answer is
/// kept with the photo, which outlives the board screen.
fn analyse_once(photos: BoardPhotos, key: u32, address: Signal<Option<String>>) {
    let api = use_api();
    Effect::new(move |_| {
        let Some(address) = address.get() else { return };
        let asked = photos.photos.with_untracked(|list| list.iter().any(|p| p.key == key && p.furnishing.is_some()));
        if asked {
            return;
        }
        photos.change(key, |photo| photo.furnishing = Some(Furnishing::Checking));
        let api = api.clone();
        spawn_local(async move {
            let found = furnishing::check(&api, &address).await;
            photos.change(key, |photo| photo.furnishing = Some(found));
        });
    });
}
