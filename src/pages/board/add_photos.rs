//! Adding photos to the board: several files chosen or dropped at once (each uploaded in parallel with its own
//! progress), several addresses pasted, or, in the sandbox, all its sample photos.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::ApiError;

use super::model::{label_of, pasted_addresses};
use super::photos::{BoardPhotos, PhotoState};
use crate::account::use_account;
use crate::api::use_api;
use crate::components::drop_zone::DropZone;
use crate::components::photo_address::PhotoAddress;
use crate::locale::errors::api_error;
use crate::locale::{Locale, use_locale};
use crate::upload::{Uploader, use_uploader};

#[component]
pub fn AddPhotos(photos: BoardPhotos) -> impl IntoView {
    let account = use_account();
    let api = use_api();
    let locale = use_locale();
    let uploader = use_uploader();
    let pasted = RwSignal::new(String::new());
    let paste_errors = RwSignal::new(Vec::<String>::new());
    let samples_failure = RwSignal::new(None::<ApiError>);

    let on_files = Callback::new(move |files: web_sys::FileList| {
        for index in 0..files.length() {
            if let Some(file) = files.get(index) {
                upload(locale.get_untracked(), photos, uploader.clone(), file);
            }
        }
    });
    let add_pasted = move |_| {
        let (addresses, refused) = pasted_addresses(locale.get_untracked(), &pasted.get_untracked());
        for address in addresses {
            photos.add(label_of(&address), PhotoState::Ready(address));
        }
        if refused.is_empty() {
            pasted.set(String::new());
        }
        paste_errors.set(refused);
    };
    let add_samples = move |_| {
        let api = api.clone();
        samples_failure.set(None);
        spawn_local(async move {
            match api.samples().await {
                Ok(samples) => {
                    for sample in samples {
                        photos.add(sample.name, PhotoState::Ready(sample.url));
                    }
                }
                Err(error) => samples_failure.set(Some(error)),
            }
        });
    };

    view! {
        <fieldset class="vstage-board__add">
            <legend>{move || td_string!(locale.get(), board.add_legend)}</legend>
            <Show when=move || account.offers_uploads()>
                <DropZone
                    id="vstage-board-files"
                    label=move || td_string!(locale.get(), board.add_drop)
                    multiple=true
                    on_files
                />
            </Show>
            <PhotoAddress
                id="vstage-board-addresses"
                label=move || td_string!(locale.get(), board.add_addresses)
                placeholder="https://…/kitchen.jpg"
                several=true
                value=pasted
                on_input=move |typed| pasted.set(typed)
                errors=paste_errors
            >
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-button--secondary" on:click=add_pasted>
                        {move || td_string!(locale.get(), board.add_these)}
                    </button>
                    <Show when=move || account.is_sandbox()>
                        <button type="button" class="vstage-button vstage-button--secondary" on:click=add_samples.clone()>
                            {move || td_string!(locale.get(), board.add_samples)}
                        </button>
                    </Show>
                </div>
                {move || samples_failure.get().map(|error| view! { <p class="vstage-error" role="alert">{move || api_error(locale.get(), &error)}</p> })}
            </PhotoAddress>
        </fieldset>
    }
}

/// Uploads one file as a waiting photo, its progress shown on its own row; a refusal is worded in `locale`.
fn upload(locale: Locale, photos: BoardPhotos, uploader: Uploader, file: web_sys::File) {
    let name = file.name();
    if !file.type_().starts_with("image/") {
        let message = td_string!(locale, board.add_not_image, name = &name);
        photos.add(name, PhotoState::Refused(message));
        return;
    }
    let key = photos.add(name, PhotoState::Uploading(0.0));
    spawn_local(async move {
        let progress = move |done: f64| photos.change(key, |photo| photo.state = PhotoState::Uploading(done));
        let state = match uploader.send(&file, progress).await {
            Ok(uploaded) => PhotoState::Ready(uploaded.url),
            Err(message) => PhotoState::Refused(message),
        };
        photos.change(key, |photo| photo.state = state);
    });
}
