//! Furniture removal with a hand-corrected mask: choose a photo, run the service's analysis and see its mask over
//! the photo, correct it in the mask editor, then create a render that removes exactly what the mask marks.

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_api::{Analysis, Analyze, RemovalMode, RoomType, Style};

use crate::api::use_api;
use crate::components::choice_field::ChoiceField;
use crate::components::config_fields::{ROOM_TYPES, STYLES};
use crate::components::image_picker::ImagePicker;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::config_draft::{ConfigDraft, Kind};
use crate::describe;
use crate::pages::new_render::build_request;
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
    let created = use_render_created();
    let image_url = RwSignal::new(String::new());
    let step = RwSignal::new(Step::Photo);
    let failure = RwSignal::new(None::<String>);
    let photo_error = RwSignal::new(None::<String>);
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
                photo_error.set(Some(invalid.message));
                return;
            }
            photo_error.set(None);
            failure.set(None);
            working.set(true);
            let api = api.clone();
            spawn_local(async move {
                match api.analyze(&request).await {
                    Ok(analysis) => step.set(Step::Analysed(analysis)),
                    Err(error) => failure.set(Some(error.to_string())),
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
                Err(error) => failure.set(Some(error.to_string())),
            }
            let _ = working.try_set(false);
        });
    };

    let analysed = move |analysis: Analysis| {
        let share = analysis
            .percentage_masked
            .map(|share| format!("Furniture covers {share:.1} % of the photo."))
            .unwrap_or_else(|| "The service did not say how much of the photo is furniture.".into());
        let result_url = analysis.result_url.clone();
        view! {
            <figure class="vstage-analysis">
                <div class="vstage-analysis__images">
                    <img src=image_url.get_untracked() alt="The photo" />
                    <img class="vstage-analysis__mask" src=analysis.result_url.clone() alt="The furniture found, in white" />
                </div>
                <figcaption class="vstage-analysis-share">{share}</figcaption>
            </figure>
            <div class="vstage-form__actions">
                <button type="button" class="vstage-button vstage-button--secondary"
                    on:click=move |_| step.set(Step::Editing { start_from: None })>"Start from an empty mask"</button>
                <button type="button" class="vstage-button vstage-edit-mask"
                    on:click=move |_| step.set(Step::Editing { start_from: Some(result_url.clone()) })>"Edit mask"</button>
            </div>
        }
    };

    let masked = move |mask_url: String| {
        let remove = remove.clone();
        let again = mask_url.clone();
        view! {
            <section class="vstage-masked" aria-label="Remove furniture with this mask">
                <p>"Your mask is ready. " <a href=mask_url.clone() target="_blank" rel="noopener">"See the mask"</a></p>
                <label class="vstage-check">
                    <input type="checkbox" prop:checked=move || stage.get() on:change=move |ev| stage.set(event_target_checked(&ev)) />
                    "Stage the empty room too"
                </label>
                <Show when=move || stage.get()>
                    <ChoiceField
                        id="vstage-mask-room".to_string()
                        label="Room type"
                        options=ROOM_TYPES.iter().map(|room| (room.as_str().to_string(), describe::room_type(room))).collect()
                        current=Signal::derive(move || room_type.get().as_str().to_string())
                        on_pick=move |value: String| room_type.set(RoomType::from(value.as_str()))
                    />
                    <ChoiceField
                        id="vstage-mask-style".to_string()
                        label="Style"
                        options=STYLES.iter().map(|s| (s.as_str().to_string(), describe::style(s))).collect()
                        current=Signal::derive(move || style.get().as_str().to_string())
                        on_pick=move |value: String| style.set(Style::from(value.as_str()))
                    />
                </Show>
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-button--secondary"
                        on:click=move |_| step.set(Step::Editing { start_from: Some(again.clone()) })>"Edit the mask again"</button>
                    <button type="button" class="vstage-button vstage-remove-with-mask" disabled=move || working.get()
                        on:click={
                            let url = mask_url.clone();
                            move |_| remove(url.clone())
                        }>
                        "Remove furniture with this mask"
                    </button>
                </div>
            </section>
        }
    };

    view! {
        <section class="vstage-page" aria-labelledby="vstage-mask-title">
            <h1 id="vstage-mask-title">"Remove furniture"</h1>
            <p class="vstage-hint">"The service finds the furniture; you correct what it found; exactly that is removed."</p>
            <ImagePicker image_url error=Signal::derive(move || photo_error.get()) />
            <Show when=move || matches!(step.get(), Step::Photo)>
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-analyze" disabled=move || working.get() on:click=analyze.clone()>
                        {move || if working.get() { "Analysing…" } else { "Find the furniture" }}
                    </button>
                </div>
            </Show>
            {move || failure.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
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
