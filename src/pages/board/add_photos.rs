//! Adding photos to the board: several files chosen or dropped at once (each uploaded in parallel with its own
//! progress), several addresses pasted, or, in the sandbox, all its sample photos.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use super::model::{label_of, pasted_addresses};
use super::photos::{BoardPhotos, PhotoState};
use crate::account::use_account;
use crate::api::use_api;
use crate::upload::{Uploader, use_uploader};

#[component]
pub fn AddPhotos(photos: BoardPhotos) -> impl IntoView {
    let account = use_account();
    let api = use_api();
    let uploader = use_uploader();
    let pasted = RwSignal::new(String::new());
    let paste_errors = RwSignal::new(Vec::<String>::new());
    let samples_failure = RwSignal::new(None::<String>);
    let dragging = RwSignal::new(false);

    let send_files = move |files: Option<web_sys::FileList>| {
        let Some(files) = files else { return };
        for index in 0..files.length() {
            if let Some(file) = files.get(index) {
                upload(photos, uploader.clone(), file);
            }
        }
    };
    let send_chosen = send_files.clone();
    let on_choose = move |ev: leptos::ev::Event| {
        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
        if let Some(input) = input {
            send_chosen(input.files());
            // the same files may be chosen again later
            input.set_value("");
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        send_files(ev.data_transfer().and_then(|data| data.files()));
    };
    let add_pasted = move |_| {
        let (addresses, refused) = pasted_addresses(&pasted.get_untracked());
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
                Err(error) => samples_failure.set(Some(error.to_string())),
            }
        });
    };

    view! {
        <fieldset class="vstage-board__add">
            <legend>"Add photos"</legend>
            <Show when=move || account.offers_uploads()>
                <div
                    class="vstage-drop"
                    class:vstage-drop--over=move || dragging.get()
                    on:dragover=move |ev: leptos::ev::DragEvent| {
                        ev.prevent_default();
                        dragging.set(true);
                    }
                    on:dragleave=move |_| dragging.set(false)
                    on:drop=on_drop.clone()
                >
                    <label for="vstage-board-files">"Drop the listing's photos here, or choose them"</label>
                    <input
                        id="vstage-board-files"
                        type="file"
                        multiple
                        accept="image/jpeg,image/png,image/webp"
                        on:change=on_choose.clone()
                    />
                </div>
            </Show>
            <div class="vstage-field">
                <label for="vstage-board-addresses">"Photo addresses, one a line"</label>
                <textarea
                    id="vstage-board-addresses"
                    rows="3"
                    placeholder="https://…/kitchen.jpg"
                    prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))
                ></textarea>
                {move || paste_errors.get().into_iter().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> }).collect_view()}
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-button--secondary" on:click=add_pasted>
                        "Add these addresses"
                    </button>
                    <Show when=move || account.is_sandbox()>
                        <button type="button" class="vstage-button vstage-button--secondary" on:click=add_samples.clone()>
                            "Add the sample photos"
                        </button>
                    </Show>
                </div>
                {move || samples_failure.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
            </div>
        </fieldset>
    }
}

/// Uploads one file as a waiting photo, its progress shown on its own row.
fn upload(photos: BoardPhotos, uploader: Uploader, file: web_sys::File) {
    let name = file.name();
    if !file.type_().starts_with("image/") {
        let message = format!("{name} is not an image; choose JPEG, PNG or WebP photos.");
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
