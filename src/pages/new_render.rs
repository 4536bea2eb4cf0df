//! A new render: the photo, one or more configurations with their counts (20 variations at most in all), and the
//! advanced options. Everything is checked with `vstage-api`'s rules before sending; errors sit by their field.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::validate::Problem;
use vstage_api::{ApiError, ConfigEntry, CreateRender, RenderConfigs, ValidationError};

use crate::ListingPhoto;
use crate::api::{use_api, use_token};
use crate::components::config_fields::MaskRequest;
use crate::components::config_list::ConfigList;
use crate::components::image_picker::ImagePicker;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::components::screen_heading::ScreenHeading;
use crate::config_draft::{ConfigDraft, Kind};
use crate::locale::errors::{form_error, invalid};
use crate::locale::use_locale;
use crate::pages::use_render_created;

/// The request for these choices (single form for one configuration, multi form for several).
pub fn build_request(
    image_url: &str,
    drafts: &[ConfigDraft],
    webhook_url: &str,
    wait_for_completion: bool,
) -> CreateRender {
    let configs = match drafts {
        [only] => RenderConfigs::Single { config: only.to_config(), variation_count: only.count },
        many => RenderConfigs::Multi {
            configs: many
                .iter()
                .map(|draft| ConfigEntry { config: draft.to_config(), variation_count: draft.count })
                .collect(),
        },
    };
    CreateRender {
        image_url: image_url.trim().to_string(),
        configs,
        webhook_url: Some(webhook_url.trim().to_string()).filter(|url| !url.is_empty()),
        wait_for_completion: wait_for_completion.then_some(true),
    }
}

#[component]
pub fn NewRender() -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let created = use_render_created();
    // The listing's photo, when the host gives one (and whenever it gives another).
    let listing_photo = use_context::<ListingPhoto>().map(|ListingPhoto(photo)| photo);
    let image_url = RwSignal::new(listing_photo.and_then(|photo| photo.get_untracked()).unwrap_or_default());
    if let Some(photo) = listing_photo {
        Effect::new(move |first: Option<()>| {
            let photo = photo.get();
            if let (Some(()), Some(photo)) = (first, photo) {
                image_url.set(photo);
            }
        });
    }
    let drafts = RwSignal::new(vec![(0u32, ConfigDraft::default())]);
    let webhook_url = RwSignal::new(String::new());
    let token = use_token();
    let chooses_webhook = move || token.as_ref().is_none_or(|token| token.get().is_none());
    let wait = RwSignal::new(false);
    let error = RwSignal::new(None::<ValidationError>);
    let failure = RwSignal::new(None::<ApiError>);
    let sending = RwSignal::new(false);
    // the draft whose custom mask is being drawn
    let masking = RwSignal::new(None::<u32>);
    provide_context(MaskRequest(Callback::new(move |id: u32| {
        if image_url.get_untracked().trim().is_empty() {
            let sentence = td_string!(locale.get_untracked(), studio.new_photo_first).to_string();
            error.set(Some(ValidationError::new("image_url", vstage_api::Rule::Required, Problem::Other(sentence))));
        } else {
            masking.set(Some(id));
        }
    })));
    let use_mask = move |id: u32, mask_url: String| {
        drafts.update(|list| {
            if let Some((_, draft)) = list.iter_mut().find(|(i, _)| *i == id) {
                draft.mask_url = Some(mask_url.clone());
                if draft.kind == Kind::Staging {
                    // a custom mask is used when furniture is always removed
                    draft.removal = vstage_api::RemovalMode::On;
                }
            }
        });
        masking.set(None);
    };

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let plain: Vec<ConfigDraft> = drafts.get_untracked().into_iter().map(|(_, d)| d).collect();
        let request =
            build_request(&image_url.get_untracked(), &plain, &webhook_url.get_untracked(), wait.get_untracked());
        failure.set(None);
        if let Err(invalid) = request.validate() {
            error.set(Some(invalid));
            return;
        }
        error.set(None);
        sending.set(true);
        let api = api.clone();
        let created = created.clone();
        spawn_local(async move {
            match api.create_render(&request).await {
                Ok(render) => created(render.id),
                Err(ApiError::Invalid(invalid)) => error.set(Some(invalid)),
                Err(other) => failure.set(Some(other)),
            }
            sending.set(false);
        });
    };
    let photo_error =
        Signal::derive(move || error.get().filter(|e| e.field == "image_url").map(|e| invalid(locale.get(), &e)));
    let webhook_error = move || error.get().filter(|e| e.field == "webhook_url").map(|e| invalid(locale.get(), &e));

    view! {
        <section class="vstage-page" aria-labelledby="vstage-new-title">
            <ScreenHeading id="vstage-new-title">{move || td_string!(locale.get(), studio.new_render)}</ScreenHeading>
            <form class="vstage-form" on:submit=submit novalidate>
                <ImagePicker image_url error=photo_error />
                <ConfigList drafts existing=Signal::stored(0) error multiple=true />
                <details class="vstage-advanced">
                    <summary>{move || td_string!(locale.get(), studio.new_advanced)}</summary>
                    // With a widget token the server sends deliveries to its own receiver: nothing to choose.
                    <Show when=move || chooses_webhook()>
                    <div class="vstage-field">
                        <label for="vstage-webhook">{move || td_string!(locale.get(), studio.new_webhook)}</label>
                        <input
                            id="vstage-webhook"
                            type="url"
                            placeholder=move || td_string!(locale.get(), studio.new_webhook_placeholder)
                            prop:value=move || webhook_url.get()
                            on:input=move |ev| webhook_url.set(event_target_value(&ev))
                            aria-invalid=move || webhook_error().is_some().to_string()
                        />
                        <p class="vstage-hint">{move || td_string!(locale.get(), studio.new_webhook_hint)}</p>
                        {move || webhook_error().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
                    </div>
                    </Show>
                    <label class="vstage-check">
                        <input type="checkbox" prop:checked=move || wait.get() on:change=move |ev| wait.set(event_target_checked(&ev)) />
                        {move || td_string!(locale.get(), studio.new_wait)}
                    </label>
                </details>
                {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{form_error(locale.get(), &error)}</p> })}
                <div class="vstage-form__actions">
                    <button type="submit" class="vstage-button" part="primary-button" disabled=move || sending.get() aria-busy=move || sending.get().to_string()>
                        {move || {
                            let locale = locale.get();
                            match (sending.get(), wait.get()) {
                                (true, true) => td_string!(locale, studio.new_rendering),
                                (true, false) => td_string!(locale, studio.new_sending),
                                (false, _) => td_string!(locale, studio.new_create),
                            }
                        }}
                    </button>
                </div>
            </form>
            {move || masking.get().map(|id| view! {
                <div class="vstage-dialog" role="dialog" aria-modal="true" aria-label=move || td_string!(locale.get(), studio.new_custom_mask)>
                    <h2>{move || td_string!(locale.get(), studio.new_custom_mask)}</h2>
                    <p class="vstage-hint">{move || td_string!(locale.get(), studio.new_mask_hint)}</p>
                    <LazyMaskEditor
                        image_url=image_url.get_untracked()
                        on_done=move |url: String| use_mask(id, url)
                        on_cancel=move |()| masking.set(None)
                    />
                </div>
            })}
        </section>
    }
}
