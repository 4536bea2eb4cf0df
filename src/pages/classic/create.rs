//! A new classic (v1) render: the photo by address or as a file (sent as the form's `file` with the other
//! arguments in the query, with upload progress), one of the three modes of use explained in words, room type and
//! style from `GET /v1/options`, a hand-drawn declutter mask, resolution, the watermark, and waiting or not.

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_api::{ApiError, Message, v1};

use super::model::{Choices, Mode, create_request, refusal};
use super::{ClassicOptions, OptionSelect};
use crate::account::use_account;
use crate::api::use_api;
use crate::components::drop_zone::DropZone;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::route::{Route, use_navigator};
use crate::upload::use_uploader;

#[component]
pub fn ClassicNew() -> impl IntoView {
    let api = use_api();
    let account = use_account();
    let uploader = use_uploader();
    let navigator = use_navigator();
    let options = ClassicOptions::load();
    let address = RwSignal::new(String::new());
    let file = RwSignal::new_local(None::<web_sys::File>);
    let mode = RwSignal::new(Mode::StagingOnly);
    let room_type = RwSignal::new(String::new());
    let style = RwSignal::new(String::new());
    let resolution = RwSignal::new(String::new());
    let watermark = RwSignal::new(false);
    let wait = RwSignal::new(false);
    let mask_url = RwSignal::new(None::<String>);
    let masking = RwSignal::new(false);
    let progress = RwSignal::new(None::<f64>);
    let sending = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);

    // The chosen file as this browser shows it, for the mask editor to draw over.
    let file_address = RwSignal::new(None::<String>);
    let on_files = Callback::new(move |files: web_sys::FileList| {
        if let Some(chosen) = files.get(0) {
            if let Some(previous) = file_address.get_untracked() {
                let _ = web_sys::Url::revoke_object_url(&previous);
            }
            file_address.set(web_sys::Url::create_object_url_with_blob(&chosen).ok());
            file.set(Some(chosen));
            address.set(String::new());
        }
    });
    let photo_for_mask = move || match file.with(Option::is_some) {
        true => file_address.get(),
        false => Some(address.get().trim().to_string()).filter(|a| !a.is_empty()),
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let choices = Choices {
            mode: mode.get_untracked(),
            room_type: room_type.get_untracked(),
            style: style.get_untracked(),
            resolution: resolution.get_untracked(),
            watermark: watermark.get_untracked(),
            wait: wait.get_untracked(),
            mask_url: mask_url.get_untracked(),
        };
        let chosen_file = file.get_untracked();
        let request = create_request(chosen_file.is_none().then(|| address.get_untracked()), &choices);
        if let Err(invalid) = request.validate(chosen_file.is_some()) {
            failure.set(Some(invalid.message));
            return;
        }
        failure.set(None);
        sending.set(true);
        let (api, uploader) = (api.clone(), uploader.clone());
        spawn_local(async move {
            let created = match chosen_file {
                None => api.v1_create_render(&request).await.map_err(|error| refusal(&error)),
                Some(photo) => {
                    let path = format!("/v1/render/create{}", request.query());
                    let on_progress = move |done: f64| {
                        let _ = progress.try_set(Some(done));
                    };
                    match uploader.send_form(&path, &photo, &photo.name(), on_progress).await {
                        Ok(answer) => created_from(answer.status, &answer.body),
                        Err(message) => Err(message),
                    }
                }
            };
            let _ = progress.try_set(None);
            let _ = sending.try_set(false);
            match created {
                Ok(created) => {
                    account.refresh();
                    navigator.go(Route::ClassicRender { id: created.render_id });
                }
                Err(message) => {
                    let _ = failure.try_set(Some(message));
                }
            }
        });
    };

    view! {
        <section class="vstage-page" aria-labelledby="vstage-classic-new-title">
            <h1 id="vstage-classic-new-title">"New classic render (v1 API)"</h1>
            <form class="vstage-form" on:submit=submit novalidate>
                <fieldset class="vstage-picker">
                    <legend>"Photo"</legend>
                    <div class="vstage-field">
                        <label for="vstage-classic-address">"Photo address"</label>
                        <input
                            id="vstage-classic-address"
                            type="url"
                            placeholder="https://…/living-room.jpg"
                            prop:value=move || address.get()
                            on:input=move |ev| {
                                address.set(event_target_value(&ev));
                                file.set(None);
                            }
                        />
                    </div>
                    <Show when=move || account.offers_uploads()>
                        <DropZone id="vstage-classic-file" label="Or drop a photo here, or choose one" on_files>
                            {move || file.get().map(|file| view! { <p class="vstage-upload" role="status">{format!("{} will be sent with the render.", file.name())}</p> })}
                            {move || progress.get().map(|done| view! {
                                <div class="vstage-upload" role="status">
                                    <span>{format!("Uploading… {:.0} %", done * 100.0)}</span>
                                    <progress max="1" value=done.to_string()></progress>
                                </div>
                            })}
                        </DropZone>
                    </Show>
                </fieldset>
                <fieldset class="vstage-config">
                    <legend>"What to do"</legend>
                    <div class="vstage-kinds" role="radiogroup" aria-label="Mode of use">
                        {Mode::ALL.into_iter().map(|choice| view! {
                            <label class="vstage-kind" class:vstage-kind--chosen=move || mode.get() == choice>
                                <input type="radio" name="vstage-classic-mode" prop:checked=move || mode.get() == choice on:change=move |_| mode.set(choice) />
                                <span class="vstage-kind__name">{choice.label()}</span>
                                <span class="vstage-kind__hint">{choice.explained()}</span>
                            </label>
                        }).collect_view()}
                    </div>
                    <Show when=move || mode.get().stages()>
                        {options.view(move |options: v1::Options| view! {
                            <OptionSelect id="vstage-classic-room" label="Room type" values=options.room_types chosen=room_type />
                            <OptionSelect id="vstage-classic-style" label="Style" values=options.styles chosen=style />
                        })}
                    </Show>
                    <Show when=move || mode.get().declutters()>
                        <div class="vstage-field">
                            <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| {
                                if photo_for_mask().is_some() { masking.set(true) } else { failure.set(Some("Choose the photo first: the mask is drawn over it.".into())) }
                            }>
                                {move || if mask_url.get().is_some() { "Change the declutter mask…" } else { "Draw the declutter mask…" }}
                            </button>
                            <p class="vstage-hint">{move || if mask_url.get().is_some() { "Your mask replaces the automatic one." } else { "Without one, the service finds the furniture itself." }}</p>
                        </div>
                    </Show>
                    <div class="vstage-field">
                        <label for="vstage-classic-resolution">"Resolution"</label>
                        <select id="vstage-classic-resolution" on:change=move |ev| resolution.set(event_target_value(&ev))>
                            <option value="">"The service's default"</option>
                            <option value="4k">"4K"</option>
                            <option value="full-hd">"Full HD"</option>
                        </select>
                    </div>
                    <label class="vstage-check">
                        <input type="checkbox" prop:checked=move || watermark.get() on:change=move |ev| watermark.set(event_target_checked(&ev)) />
                        "Add the “Virtually staged” mark"
                    </label>
                    <label class="vstage-check">
                        <input type="checkbox" prop:checked=move || wait.get() on:change=move |ev| wait.set(event_target_checked(&ev)) />
                        "Wait until it is done before showing the render"
                    </label>
                </fieldset>
                {move || failure.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
                <div class="vstage-form__actions">
                    <button type="submit" class="vstage-button" part="primary-button" disabled=move || sending.get() aria-busy=move || sending.get().to_string()>
                        {move || if sending.get() { if wait.get() { "Rendering…" } else { "Sending…" } } else { "Create classic render" }}
                    </button>
                </div>
            </form>
            {move || masking.get().then(photo_for_mask).flatten().map(|photo| view! {
                <div class="vstage-dialog" role="dialog" aria-modal="true" aria-label="Declutter mask">
                    <h2>"Declutter mask"</h2>
                    <p class="vstage-hint">"Paint over what should be removed; erase what should stay."</p>
                    <LazyMaskEditor
                        image_url=photo
                        on_done=move |url: String| {
                            mask_url.set(Some(url));
                            masking.set(false);
                        }
                        on_cancel=move |()| masking.set(false)
                    />
                </div>
            })}
        </section>
    }
}

/// The answer to a multipart create: the render, or the service's refusal as a sentence.
fn created_from(status: u16, body: &[u8]) -> Result<v1::Created, String> {
    if (200..300).contains(&status) {
        return serde_json::from_slice(body).map_err(|_| "The server's answer could not be read; try again.".into());
    }
    let message = serde_json::from_slice::<Message>(body).ok().map(|body| body.message);
    Err(refusal(&ApiError::Http { status, message }))
}
