//! The new render form's other photos of the same room, for multi-view staging (the service's beta): their
//! addresses, a line each, and a check that they can be staged with the first photo. With them the render stages
//! every photo with the same furniture, and each result shows one image per photo.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::multi_view::{CheckViews, ViewsCompatibility};
use vstage_api::validate::Problem;
use vstage_api::{ApiError, ValidationError};

use super::state::NewRenderForm;
use crate::api::use_api;
use crate::components::photo_address::PhotoAddress;
use crate::locale::errors::{form_error, invalid};
use crate::locale::use_locale;

#[component]
pub fn MoreViews(form: NewRenderForm) -> impl IntoView {
    let locale = use_locale();
    let api = use_api();
    let verdict = RwSignal::new(None::<Result<ViewsCompatibility, ApiError>>);
    let errors = Signal::derive(move || {
        form.error
            .get()
            .filter(about_the_views)
            .map(|error| invalid(locale.get(), &error))
            .into_iter()
            .collect::<Vec<_>>()
    });
    let check = move |_| {
        let api = api.clone();
        let request = CheckViews { image_urls: form.photos() };
        verdict.set(None);
        spawn_local(async move {
            let _ = verdict.try_set(Some(api.check_views(&request).await));
        });
    };
    let said = move || {
        let locale = locale.get();
        verdict.get().map(|answer| match answer {
            Ok(ViewsCompatibility { compatible: true, .. }) => {
                view! { <p class="vstage-note" role="status">{td_string!(locale, studio.new_views_fit)}</p> }.into_any()
            }
            Ok(ViewsCompatibility { message, .. }) => {
                let why = message.unwrap_or_else(|| td_string!(locale, studio.new_views_unfit).to_string());
                view! { <p class="vstage-error" role="alert">{why}</p> }.into_any()
            }
            Err(error) => view! { <p class="vstage-error" role="alert">{form_error(locale, &error)}</p> }.into_any(),
        })
    };
    view! {
        <details class="vstage-advanced">
            <summary>{move || td_string!(locale.get(), studio.new_views)}</summary>
            <p class="vstage-hint">{move || td_string!(locale.get(), studio.new_views_hint)}</p>
            <PhotoAddress
                id="vstage-views"
                label=move || td_string!(locale.get(), studio.new_views_label)
                placeholder="https://example.com/same-room-from-the-door.jpg"
                value=form.views
                on_input=move |text: String| {
                    form.views.set(text);
                    verdict.set(None);
                }
                several=true
                invalid=Signal::derive(move || !errors.get().is_empty())
                errors
            >
                <button type="button" class="vstage-button vstage-button--secondary" on:click=check>
                    {move || td_string!(locale.get(), studio.new_views_check)}
                </button>
                {said}
            </PhotoAddress>
        </details>
    }
}

/// Whether a refusal is about the other photos: their number or addresses, or a configuration the beta does not
/// stage over several photos.
fn about_the_views(error: &ValidationError) -> bool {
    error.field.starts_with("image_urls") || error.problem == Problem::MultiViewConfig
}
