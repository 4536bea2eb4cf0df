//! "Try again" on a board row with failed variations: their settings added again, each as many times as it failed,
//! while the others go on; beside it, that they are being sent, or why they could not be.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::{AddVariations, ApiError};

use super::model::{failed_configs, has_failed};
use super::state::read_render;
use crate::api::use_api;
use crate::locale::errors::api_error;
use crate::locale::{Locale, use_locale};
use crate::render_state::RenderState;

#[component]
pub fn TryAgain(render_id: Signal<String>, state: RenderState) -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let retrying = RwSignal::new(None::<Retry>);
    let try_again = move |_| {
        let configs = state.variations.with_untracked(|list| failed_configs(list));
        let api = api.clone();
        retrying.set(Some(Retry::Sending));
        spawn_local(async move {
            let mut message = None;
            for config in configs {
                let request = AddVariations { config, variation_count: 1, wait_for_completion: None };
                let existing = Some(state.existing());
                match api.add_variations(&render_id.get_untracked(), &request, existing).await {
                    Ok(added) => state.added(added.variations),
                    Err(error) => message = Some(Retry::Failed(error)),
                }
            }
            let _ = retrying.try_set(message);
            read_render(&api, &render_id.get_untracked(), state, locale).await;
        });
    };
    view! {
        <Show when=move || state.variations.with(|list| has_failed(list))>
            <div class="vstage-board__failure">
                <button type="button" class="vstage-button vstage-button--small" on:click=try_again.clone()>
                    {move || td_string!(locale.get(), common.try_again)}
                </button>
                {move || retrying.get().map(|retry| view! { <span class="vstage-hint" role="status">{move || retry.words(locale.get())}</span> })}
            </div>
        </Show>
    }
}

/// A "Try again" under way, or why it failed.
#[derive(Debug, Clone, PartialEq)]
enum Retry {
    Sending,
    Failed(ApiError),
}

impl Retry {
    fn words(&self, locale: Locale) -> String {
        match self {
            Retry::Sending => td_string!(locale, board.row_sending_again).to_string(),
            Retry::Failed(error) => api_error(locale, error),
        }
    }
}
