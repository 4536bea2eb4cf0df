//! A new classic (v1) render: the photo by address or as a file (sent as the form's `file` with the other
//! arguments in the query, with upload progress), one of the three modes of use explained in words, room type and
//! style from `GET /v1/options`, a hand-drawn declutter mask, resolution, the watermark, and waiting or not.
//! `state` holds the form, `super::model` works out its words and request, and each section is a component.

mod mask_choice;
mod mode_choice;
mod output_choices;
mod photo;
mod settings;
mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::usage;

use self::photo::PhotoSection;
use self::settings::SettingsSection;
use self::state::NewClassicForm;
use super::model::{self, CreateFailure};
use crate::account::use_account;
use crate::api::use_api;
use crate::components::cost_note::{CostNote, covered};
use crate::components::mask_dialog::lazy_mask_dialog;
use crate::components::screen_heading::ScreenHeading;
use crate::components::submit_button::{SubmitButton, focus_the_first_refusal};
use crate::locale::use_locale;
use crate::route::{Route, use_navigator};
use crate::upload::use_uploader;

#[component]
pub fn ClassicNew() -> impl IntoView {
    crate::host_reference::send_with_creations();
    let locale = use_locale();
    let form = NewClassicForm::new();
    let submit = sender(form);
    view! {
        <section class="vstage-page" aria-labelledby="vstage-classic-new-title">
            <ScreenHeading id="vstage-classic-new-title">{move || td_string!(locale.get(), classic.new_title)}</ScreenHeading>
            <form class="vstage-form" on:submit=submit novalidate>
                <PhotoSection form />
                <SettingsSection form />
                <CostNote cost=Signal::stored(Some(usage::V1_RENDER)) />
                {move || form.failure.get().map(|why| view! { <p class="vstage-error" role="alert">{move || why.words(locale.get())}</p> })}
                <SubmitButton
                    busy=form.sending
                    words=Signal::derive(move || model::submit_words(locale.get(), form.sending.get(), form.wait.get()))
                />
            </form>
            {move || form.masking.get().then(|| form.photo_for_mask()).flatten().map(|photo| lazy_mask_dialog(
                Signal::derive(move || td_string!(locale.get(), classic.mask_title).to_string()),
                Signal::derive(move || td_string!(locale.get(), classic.mask_hint).to_string()),
                photo,
                Callback::new(move |url: String| form.take_mask(url)),
                Callback::new(move |()| form.masking.set(false)),
            ))}
        </section>
    }
}

/// Sends the form: the address in JSON, or the file as the multipart `file` with the other arguments in the
/// query (its upload's progress shown); on success, the render's page.
fn sender(form: NewClassicForm) -> impl Fn(leptos::ev::SubmitEvent) + Clone + 'static {
    let (api, account, uploader, navigator) = (use_api(), use_account(), use_uploader(), use_navigator());
    move |ev| {
        ev.prevent_default();
        // What the agent's allowance cannot cover is not sent; the cost note says why.
        if !covered(usage::V1_RENDER) {
            return;
        }
        let Some((request, file)) = form.start() else {
            focus_the_first_refusal(&ev);
            return;
        };
        let (api, uploader) = (api.clone(), uploader.clone());
        spawn_local(async move {
            let created = match file {
                None => api.v1_create_render(&request).await.map_err(CreateFailure::Refused),
                Some(photo) => {
                    let path = format!("/v1/render/create{}", request.query());
                    match uploader.send_form(&path, &photo, &photo.name(), move |done| form.uploaded(done)).await {
                        Ok(answer) => model::created_from(answer.status, &answer.body),
                        Err(message) => Err(CreateFailure::Said(message)),
                    }
                }
            };
            if let Some(created) = form.finish(created) {
                account.refresh();
                navigator.go(Route::ClassicRender { id: created.render_id });
            }
        });
    }
}
