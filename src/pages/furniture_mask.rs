//! Furniture removal with a hand-corrected mask: choose a photo, run the service's analysis and see its mask over
//! the photo, correct it in the mask editor, then create a render that removes exactly what the mask marks.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::{Analysis, Analyze, ApiError, RemovalMode, RoomType, Style, ValidationError};

use crate::api::use_api;
use crate::components::choice_field::ChoiceField;
use crate::components::config_fields::{ROOM_TYPES, STYLES};
use crate::components::image_picker::ImagePicker;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::components::screen_heading::ScreenHeading;
use crate::config_draft::{ConfigDraft, Kind};
use crate::describe;
use crate::locale::errors::{form_error, invalid};
use crate::locale::{Locale, use_locale};
use crate::pages::new_render::model::build_request;
use crate::pages::use_render_created;

/// Where the page is.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// Choosing the photo.
    Photo,
    /// The analysis is shown over the photo.
    Analysed(Analysis),
    /// The editor is open, from the analysis or from an empty mask.
    Editing { start_from: Option<String> },
    /// The mask is uploaded: ready to remove.
    Masked { mask_url: String },
}

#[component]
pub fn FurnitureMask() -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let created = use_render_created();
    let image_url = RwSignal::new(String::new());
    let step = RwSignal::new(Step::Photo);
    let failure = RwSignal::new(None::<ApiError>);
    let photo_error = RwSignal::new(None::<ValidationError>);
    let working = RwSignal::new(false);
    let stage = RwSignal::new(false);
    let room_type = RwSignal::new(RoomType::Living);
    let style = RwSignal::new(Style::Modern);
    // a new photo starts over
    Effect::new(move |_| {
        image_url.track();
        step.set(Step::Photo);
    });

    let analyze = {
        let api = api.clone();
        move |_| {
            let request = Analyze { image_url: image_url.get_untracked().trim().to_string(), webhook_url: None };
            if let Err(invalid) = request.validate() {
                photo_error.set(Some(invalid));
                return;
            }
            photo_error.set(None);
            failure.set(None);
            working.set(true);
            let api = api.clone();
            spawn_local(async move {
                match api.analyze(&request).await {
                    Ok(analysis) => step.set(Step::Analysed(analysis)),
                    Err(error) => failure.set(Some(error)),
                }
                working.set(false);
            });
        }
    };

    let remove = move |mask_url: String| {
        let draft = if stage.get_untracked() {
            ConfigDraft {
                kind: Kind::Staging,
                removal: RemovalMode::On,
                room_type: room_type.get_untracked(),
                style: style.get_untracked(),
                mask_url: Some(mask_url),
                ..ConfigDraft::default()
            }
        } else {
            ConfigDraft { kind: Kind::Declutter, mask_url: Some(mask_url), ..ConfigDraft::default() }
        };
        let request = build_request(&image_url.get_untracked(), &[draft], "", false);
        failure.set(None);
        working.set(true);
        let api = api.clone();
        let created = created.clone();
        spawn_local(async move {
            match api.create_render(&request).await {
                Ok(render) => created(render.id),
                Err(error) => failure.set(Some(error)),
            }
            let _ = working.try_set(false);
        });
    };

    let analysed = move |analysis: Analysis| {
        let percentage = analysis.percentage_masked;
        let share = move || {
            let locale = locale.get();
            match percentage {
                Some(share) => td_string!(locale, studio.mask_share, share = one_decimal(locale, share)),
                None => td_string!(locale, studio.mask_share_unknown).to_string(),
            }
        };
        let result_url = analysis.result_url.clone();
        view! {
            <figure class="vstage-analysis">
                <div class="vstage-analysis__images">
                    <img src=image_url.get_untracked() alt=move || td_string!(locale.get(), studio.mask_photo_alt) />
                    <img class="vstage-analysis__mask" src=analysis.result_url.clone() alt=move || td_string!(locale.get(), studio.mask_found_alt) />
                </div>
                <figcaption class="vstage-analysis-share">{share}</figcaption>
            </figure>
            <div class="vstage-form__actions">
                <button type="button" class="vstage-button vstage-button--secondary"
                    on:click=move |_| step.set(Step::Editing { start_from: None })>{move || td_string!(locale.get(), studio.mask_start_empty)}</button>
                <button type="button" class="vstage-button vstage-edit-mask"
                    on:click=move |_| step.set(Step::Editing { start_from: Some(result_url.clone()) })>{move || td_string!(locale.get(), studio.mask_edit)}</button>
            </div>
        }
    };

    let masked = move |mask_url: String| {
        let remove = remove.clone();
        let again = mask_url.clone();
        view! {
            <section class="vstage-masked" aria-label=move || td_string!(locale.get(), studio.mask_remove_with)>
                <p>
                    {move || td_string!(locale.get(), studio.mask_ready)}
                    " "
                    <a href=mask_url.clone() target="_blank" rel="noopener">{move || td_string!(locale.get(), studio.mask_see)}</a>
                </p>
                <label class="vstage-check">
                    <input type="checkbox" prop:checked=move || stage.get() on:change=move |ev| stage.set(event_target_checked(&ev)) />
                    {move || td_string!(locale.get(), studio.mask_stage_too)}
                </label>
                <Show when=move || stage.get()>
                    // drawn again in the new words when the language changes (the choices live in signals)
                    {move || {
                        let locale = locale.get();
                        view! {
                            <ChoiceField
                                id="vstage-mask-room".to_string()
                                label=td_string!(locale, studio.mask_room_type)
                                options=ROOM_TYPES.iter().map(|room| (room.as_str().to_string(), describe::room_type(locale, room))).collect()
                                current=Signal::derive(move || room_type.get().as_str().to_string())
                                on_pick=move |value: String| room_type.set(RoomType::from(value.as_str()))
                            />
                            <ChoiceField
                                id="vstage-mask-style".to_string()
                                label=td_string!(locale, studio.mask_style)
                                options=STYLES.iter().map(|s| (s.as_str().to_string(), describe::style(locale, s))).collect()
                                current=Signal::derive(move || style.get().as_str().to_string())
                                on_pick=move |value: String| style.set(Style::from(value.as_str()))
                            />
                        }
                    }}
                </Show>
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-button--secondary"
                        on:click=move |_| step.set(Step::Editing { start_from: Some(again.clone()) })>{move || td_string!(locale.get(), studio.mask_edit_again)}</button>
                    <button type="button" class="vstage-button vstage-remove-with-mask" disabled=move || working.get()
                        on:click={
                            let url = mask_url.clone();
                            move |_| remove(url.clone())
                        }>
                        {move || td_string!(locale.get(), studio.mask_remove_with)}
                    </button>
                </div>
            </section>
        }
    };

    view! {
        <section class="vstage-page" aria-labelledby="vstage-mask-title">
            <ScreenHeading id="vstage-mask-title">{move || td_string!(locale.get(), studio.mask_title)}</ScreenHeading>
            <p class="vstage-hint">{move || td_string!(locale.get(), studio.mask_hint)}</p>
            <ImagePicker image_url error=Signal::derive(move || photo_error.get().map(|error| invalid(locale.get(), &error))) />
            <Show when=move || matches!(step.get(), Step::Photo)>
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-analyze" disabled=move || working.get() on:click=analyze.clone()>
                        {move || if working.get() { td_string!(locale.get(), studio.mask_analysing) } else { td_string!(locale.get(), studio.mask_find) }}
                    </button>
                </div>
            </Show>
            {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{form_error(locale.get(), &error)}</p> })}
            {move || match step.get() {
                Step::Photo => ().into_any(),
                Step::Analysed(analysis) => analysed(analysis).into_any(),
                Step::Editing { start_from } => view! {
                    <LazyMaskEditor
                        image_url=image_url.get_untracked()
                        start_from=start_from
                        on_done=move |mask_url: String| step.set(Step::Masked { mask_url })
                        on_cancel=move |()| step.set(Step::Photo)
                    />
                }.into_any(),
                Step::Masked { mask_url } => masked(mask_url).into_any(),
            }}
        </section>
    }
}

/// A share with one decimal, as the studio's language writes it: `12.5` in English, `12,5` in German, Spanish and
/// French (the English text stays as it was).
fn one_decimal(locale: Locale, share: f64) -> String {
    let text = format!("{share:.1}");
    match locale {
        Locale::en => text,
        _ => text.replace('.', ","),
    }
}
