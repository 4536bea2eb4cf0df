//! The classic studio: the legacy v1 API, clearly labelled as such, for accounts that still use its declutter
//! modes, its file upload and its variation flow. A list of the subject's v1 renders (`list`), the create form
//! (`create`), and a render followed by polling with its outputs and variations (`render`); `model` words it.

pub mod create;
pub mod list;
pub mod model;
pub mod render;

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{ApiError, v1};

use crate::api::use_api;
use crate::locale::errors::api_error;
use crate::locale::use_locale;

/// `GET /v1/options`, loaded by the screens that need it, with a retry.
#[derive(Clone, Copy)]
pub struct ClassicOptions(pub LocalResource<Result<v1::Options, ApiError>>);

impl ClassicOptions {
    pub fn load() -> Self {
        let api = use_api();
        ClassicOptions(LocalResource::new(move || {
            let api = api.clone();
            async move { api.v1_options().await }
        }))
    }

    /// The options, or the sentence and a "Try again" when they could not be read (nothing is guessed).
    pub fn view<V: IntoView + 'static>(self, body: impl Fn(v1::Options) -> V + Send + Sync + 'static) -> impl IntoView {
        let locale = use_locale();
        move || {
            match self.0.get() {
            None => view! {
                <p class="vstage-muted vstage-skeleton" aria-busy="true">{move || td_string!(locale.get(), classic.options_loading)}</p>
            }.into_any(),
            Some(Ok(options)) => body(options).into_any(),
            Some(Err(error)) => view! {
                <div class="vstage-panel vstage-panel--error" role="alert">
                    <p>{move || td_string!(locale.get(), classic.options_failed, reason = api_error(locale.get(), &error))}</p>
                    <button type="button" class="vstage-button" on:click=move |_| self.0.refetch()>
                        {move || td_string!(locale.get(), common.try_again)}
                    </button>
                </div>
            }
            .into_any(),
        }
        }
    }
}

/// A labelled `<select>` of option strings, shown in words in the studio's language (`label` is read in it too)
/// and sent exactly as given.
#[component]
fn OptionSelect(
    #[prop(into)] id: String,
    #[prop(into)] label: TextProp,
    values: Vec<String>,
    chosen: RwSignal<String>,
) -> impl IntoView {
    let locale = use_locale();
    if chosen.get_untracked().is_empty() || !values.contains(&chosen.get_untracked()) {
        chosen.set(values.first().cloned().unwrap_or_default());
    }
    view! {
        <div class="vstage-field">
            <label for=id.clone()>{move || label.get().to_string()}</label>
            <select id=id on:change=move |ev| chosen.set(event_target_value(&ev))>
                {values.into_iter().map(|value| {
                    let (this, shown) = (value.clone(), value.clone());
                    let words = move || model::label(locale.get(), &shown);
                    view! { <option value=value selected=move || chosen.get() == this>{words}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}

/// The room type and style pickers of a v1 request, with ids starting `{id}-` (`vstage-classic-room`, ...).
#[component]
pub fn RoomAndStyle(
    id: &'static str,
    room_types: Vec<String>,
    styles: Vec<String>,
    room_type: RwSignal<String>,
    style: RwSignal<String>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <OptionSelect
            id=format!("{id}-room")
            label=move || td_string!(locale.get(), classic.field_room_type)
            values=room_types
            chosen=room_type
        />
        <OptionSelect
            id=format!("{id}-style")
            label=move || td_string!(locale.get(), classic.field_style)
            values=styles
            chosen=style
        />
    }
}
