//! What stands where the cards go while there are none: skeleton cards while the first page is read, why the list
//! could not be read with "Try again", or a call to action on an account with no render yet.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::{Placeholder, placeholder};
use super::state::RendersList;
use crate::components::link::Link;
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn CardsPlaceholder(
    list: RendersList,
    /// Reads the first page again.
    #[prop(into)]
    on_retry: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    move || {
        match placeholder(list.loading.get(), list.renders.with(Vec::is_empty)) {
        Some(Placeholder::Skeleton) => view! {
            <ul class="vstage-cards" aria-busy="true" aria-label=move || td_string!(locale.get(), studio.renders_loading)>
                {(0..6).map(|_| view! { <li class="vstage-card vstage-card--skeleton vstage-skeleton"></li> }).collect_view()}
            </ul>
        }
        .into_any(),
        Some(Placeholder::Failed(error)) => view! {
            <div class="vstage-panel vstage-panel--error" role="alert">
                <h2>{move || td_string!(locale.get(), studio.renders_load_failed)}</h2>
                <p>{move || api_error(locale.get(), &error)}</p>
                <button class="vstage-button" on:click=move |_| on_retry.run(())>{move || td_string!(locale.get(), common.try_again)}</button>
            </div>
        }
        .into_any(),
        Some(Placeholder::NoRenders) => view! {
            <div class="vstage-empty">
                <h2>{move || td_string!(locale.get(), studio.renders_empty_title)}</h2>
                <p>{move || td_string!(locale.get(), studio.renders_empty_text)}</p>
                <Link to=Route::NewRender class="vstage-button">{move || td_string!(locale.get(), studio.renders_create_first)}</Link>
            </div>
        }
        .into_any(),
        None => ().into_any(),
    }
    }
}
