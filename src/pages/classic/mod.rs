//! The classic studio: the legacy v1 API, clearly labelled as such, for accounts that still use its declutter
//! modes, its file upload and its variation flow. A list of the subject's v1 renders (`list`), the create form
//! (`create`), and a render followed by polling with its outputs and variations (`render`); `model` words it.

pub mod create;
pub mod list;
pub mod model;
pub mod render;

use leptos::prelude::*;
use vstage_api::v1;

use crate::api::use_api;

/// `GET /v1/options`, loaded by the screens that need it, with a retry.
#[derive(Clone, Copy)]
pub struct ClassicOptions(pub LocalResource<Result<v1::Options, String>>);

impl ClassicOptions {
    pub fn load() -> Self {
        let api = use_api();
        ClassicOptions(LocalResource::new(move || {
            let api = api.clone();
            async move { api.v1_options().await.map_err(|error| error.to_string()) }
        }))
    }

    /// The options, or the sentence and a "Try again" when they could not be read (nothing is guessed).
    pub fn view<V: IntoView + 'static>(self, body: impl Fn(v1::Options) -> V + Send + Sync + 'static) -> impl IntoView {
        move || {
            match self.0.get() {
            None => view! { <p class="vstage-muted vstage-skeleton" aria-busy="true">"Loading the room types and styles…"</p> }.into_any(),
            Some(Ok(options)) => body(options).into_any(),
            Some(Err(message)) => view! {
                <div class="vstage-panel vstage-panel--error" role="alert">
                    <p>"The room types and styles could not be loaded: " {message}</p>
                    <button type="button" class="vstage-button" on:click=move |_| self.0.refetch()>"Try again"</button>
                </div>
            }
            .into_any(),
        }
        }
    }
}

/// A labelled `<select>` of option strings, shown in words and sent as given.
#[component]
pub fn OptionSelect(
    #[prop(into)] id: String,
    #[prop(into)] label: String,
    values: Vec<String>,
    chosen: RwSignal<String>,
) -> impl IntoView {
    if chosen.get_untracked().is_empty() || !values.contains(&chosen.get_untracked()) {
        chosen.set(values.first().cloned().unwrap_or_default());
    }
    view! {
        <div class="vstage-field">
            <label for=id.clone()>{label}</label>
            <select id=id on:change=move |ev| chosen.set(event_target_value(&ev))>
                {values.into_iter().map(|value| {
                    let words = model::label(&value);
                    let this = value.clone();
                    view! { <option value=value selected=move || chosen.get() == this>{words}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}
