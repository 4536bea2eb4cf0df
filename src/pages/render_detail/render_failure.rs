//! The render page when the service failed every variation: why, in the studio's words around the service's own,
//! and the two ways forward: try the same again on this render (its photo was given back, so trying again costs one,
//! said before the click), or choose another photo.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::usage;
use vstage_api::{AddVariations, ApiError, Variation};

use super::model;
use crate::account::use_account;
use crate::api::use_api;
use crate::components::cost_note::{CostNote, covered};
use crate::components::link::Link;
use crate::locale::errors::form_error;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn RenderFailure(
    #[prop(into)] render_id: Signal<String>,
    #[prop(into)] variations: Signal<Vec<Variation>>,
    /// Called with the variations the service added on "Try again".
    on_added: Callback<Vec<Variation>>,
) -> impl IntoView {
    let locale = use_locale();
    let (api, account) = (use_api(), use_account());
    let sending = RwSignal::new(false);
    let refused = RwSignal::new(None::<ApiError>);
    let try_again = move |request: AddVariations| {
        if !covered(variations.with_untracked(|list| usage::of_adding_to(list, &request.config))) {
            return;
        }
        let (api, id, existing) = (api.clone(), render_id.get_untracked(), variations.with_untracked(Vec::len));
        sending.set(true);
        refused.set(None);
        spawn_local(async move {
            match api.add_variations(&id, &request, Some(existing as u64)).await {
                Ok(added) => {
                    account.refresh();
                    on_added.run(added.variations);
                }
                Err(error) => refused.set(Some(error)),
            }
            sending.set(false);
        });
    };
    move || {
        let model::Failure { why, again } = variations.with(|list| model::failure(list))?;
        let locale = locale.get();
        let why = match why {
            Some(reason) => td_string!(locale, studio.failed_why, reason = reason),
            None => td_string!(locale, studio.failed_why_unknown).to_string(),
        };
        let try_again = try_again.clone();
        let cost = again.as_ref().map(|request| variations.with(|list| usage::of_adding_to(list, &request.config)));
        Some(view! {
            <section class="vstage-panel vstage-panel--error" role="alert" aria-labelledby="vstage-failure-title">
                <h2 id="vstage-failure-title">{td_string!(locale, studio.failed_title)}</h2>
                <p>{why}</p>
                <CostNote cost=Signal::stored(cost) />
                <div class="vstage-form__actions">
                    {again.map(|request| view! {
                        <button class="vstage-button" disabled=move || sending.get() on:click=move |_| try_again(request.clone())>
                            {td_string!(locale, common.try_again)}
                        </button>
                    })}
                    <Link to=Route::NewRender class="vstage-button vstage-button--secondary">{td_string!(locale, studio.failed_choose_another)}</Link>
                </div>
                {move || refused.get().map(|error| view! { <p class="vstage-error">{form_error(locale, &error)}</p> })}
            </section>
        })
    }
}
