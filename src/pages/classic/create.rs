//! A new classic (v1) render: the photo by address or as a file (sent as the form's `file` with the other
//! arguments in the query, with upload progress), one of the three modes of use explained in words, room type and
//! style from `GET /v1/options`, a hand-drawn declutter mask, resolution, the watermark, and waiting or not.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::{ApiError, Message, v1};

use super::model::{Choices, CreateFailure, Mode, create_request};
use super::{ClassicOptions, RoomAndStyle};
use crate::account::use_account;
use crate::api::use_api;
use crate::components::drop_zone::DropZone;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::components::photo_address::PhotoAddress;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::use_locale;
use crate::route::{Route, use_navigator};
use crate::upload::use_uploader;

#[component]
pub fn ClassicNew() -> impl IntoView {
    let api = use_api();
    let account = use_account();
    let uploader = use_uploader();
    let navigator = use_navigator();
    let locale = use_locale();
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
    let failure = RwSignal::new(None::<CreateFailure>);

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
            failure.set(Some(CreateFailure::Refused(ApiError::Invalid(invalid))));
            return;
        }
        failure.set(None);
        sending.set(true);
        let (api, uploader) = (api.clone(), uploader.clone());
        spawn_local(async move {
            let created = match chosen_file {
                None => api.v1_create_render(&request).await.map_err(CreateFailure::Refused),
                Some(photo) => {
                    let path = format!("/v1/render/create{}", request.query());
                    let on_progress = move |done: f64| {
                        let _ = progress.try_set(Some(done));
                    };
                    match uploader.send_form(&path, &photo, &photo.name(), on_progress).await {
                        Ok(answer) => created_from(answer.status, &answer.body),
                        Err(message) => Err(CreateFailure::Said(message)),
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
                Err(why) => {
                    let _ = failure.try_set(Some(why));
                }
            }
        });
    };

    view! {
        <section class="vstage-page" aria-labelledby="vstage-classic-new-title">
            <ScreenHeading id="vstage-classic-new-title">{move || td_string!(locale.get(), classic.new_title)}</ScreenHeading>
            <form class="vstage-form" on:submit=submit novalidate>
                <fieldset class="vstage-picker">
                    <legend>{move || td_string!(locale.get(), classic.new_photo)}</legend>
                    <PhotoAddress
                        id="vstage-classic-address"
                        label=move || td_string!(locale.get(), classic.new_address)
                        placeholder="https://…/living-room.jpg"
                        value=address
                        on_input=move |typed| {
                            address.set(typed);
                            file.set(None);
                        }
                    />
                    <Show when=move || account.offers_uploads()>
                        <DropZone id="vstage-classic-file" label=move || td_string!(locale.get(), classic.new_drop) on_files>
                            {move || file.get().map(|file| view! {
                                <p class="vstage-upload" role="status">
                                    {move || td_string!(locale.get(), classic.new_file_chosen, name = file.name())}
                                </p>
                            })}
                            {move || progress.get().map(|done| view! {
                                <div class="vstage-upload" role="status">
                                    <span>{move || {
                                        td_string!(locale.get(), classic.new_uploading, percent = format!("{:.0}", done * 100.0))
                                    }}</span>
                                    <progress max="1" value=done.to_string()></progress>
                                </div>
                            })}
                        </DropZone>
                    </Show>
                </fieldset>
                <fieldset class="vstage-config">
                    <legend>{move || td_string!(locale.get(), classic.new_what)}</legend>
                    <div class="vstage-kinds" role="radiogroup" aria-label=move || td_string!(locale.get(), classic.new_mode_label)>
                        {Mode::ALL.into_iter().map(|choice| view! {
                            <label class="vstage-kind" class:vstage-kind--chosen=move || mode.get() == choice>
                                <input type="radio" name="vstage-classic-mode" prop:checked=move || mode.get() == choice on:change=move |_| mode.set(choice) />
                                <span class="vstage-kind__name">{move || choice.label(locale.get())}</span>
                                <span class="vstage-kind__hint">{move || choice.explained(locale.get())}</span>
                            </label>
                        }).collect_view()}
                    </div>
                    <Show when=move || mode.get().stages()>
                        {options.view(move |options: v1::Options| view! {
                            <RoomAndStyle
                                id="vstage-classic"
                                room_types=options.room_types
                                styles=options.styles
                                room_type
                                style
                            />
                        })}
                    </Show>
                    <Show when=move || mode.get().declutters()>
                        <div class="vstage-field">
                            <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| {
                                if photo_for_mask().is_some() { masking.set(true) } else { failure.set(Some(CreateFailure::PhotoFirst)) }
                            }>
                                {move || if mask_url.get().is_some() {
                                    td_string!(locale.get(), classic.new_mask_change)
                                } else {
                                    td_string!(locale.get(), classic.new_mask_draw)
                                }}
                            </button>
                            <p class="vstage-hint">{move || if mask_url.get().is_some() {
                                td_string!(locale.get(), classic.new_mask_custom)
                            } else {
                                td_string!(locale.get(), classic.new_mask_auto)
                            }}</p>
                        </div>
                    </Show>
                    <div class="vstage-field">
                        <label for="vstage-classic-resolution">{move || td_string!(locale.get(), classic.new_resolution)}</label>
                        <select id="vstage-classic-resolution" on:change=move |ev| resolution.set(event_target_value(&ev))>
                            <option value="">{move || td_string!(locale.get(), classic.new_resolution_default)}</option>
                            <option value="4k">"4K"</option>
                            <option value="full-hd">"Full HD"</option>
                        </select>
                    </div>
                    <label class="vstage-check">
                        <input type="checkbox" prop:checked=move || watermark.get() on:change=move |ev| watermark.set(event_target_checked(&ev)) />
                        {move || td_string!(locale.get(), classic.watermark)}
                    </label>
                    <label class="vstage-check">
                        <input type="checkbox" prop:checked=move || wait.get() on:change=move |ev| wait.set(event_target_checked(&ev)) />
                        {move || td_string!(locale.get(), classic.new_wait)}
                    </label>
                </fieldset>
                {move || failure.get().map(|why| view! { <p class="vstage-error" role="alert">{move || why.words(locale.get())}</p> })}
                <div class="vstage-form__actions">
                    <button type="submit" class="vstage-button" part="primary-button" disabled=move || sending.get() aria-busy=move || sending.get().to_string()>
                        {move || match (sending.get(), wait.get()) {
                            (true, true) => td_string!(locale.get(), classic.new_rendering),
                            (true, false) => td_string!(locale.get(), classic.sending),
                            (false, _) => td_string!(locale.get(), classic.new_submit),
                        }}
                    </button>
                </div>
            </form>
            {move || masking.get().then(photo_for_mask).flatten().map(|photo| view! {
                <div class="vstage-dialog" role="dialog" aria-modal="true" aria-label=move || td_string!(locale.get(), classic.mask_title)>
                    <h2>{move || td_string!(locale.get(), classic.mask_title)}</h2>
                    <p class="vstage-hint">{move || td_string!(locale.get(), classic.mask_hint)}</p>
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

/// The answer to a multipart create: the render, or why not (the service's refusal, put in words when shown).
fn created_from(status: u16, body: &[u8]) -> Result<v1::Created, CreateFailure> {
    if (200..300).contains(&status) {
        return serde_json::from_slice(body).map_err(|_| CreateFailure::Unreadable);
    }
    let message = serde_json::from_slice::<Message>(body).ok().map(|body| body.message);
    Err(CreateFailure::Refused(ApiError::Http { status, message }))
}
