//! The board's list while it is read, or why it could not be, with "Try again".

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::Loading;
use crate::locale::errors::api_error;
use crate::locale::use_locale;

#[component]
pub fn BoardLoading(
    #[prop(into)] loading: Signal<Loading>,
    /// Called to read the board again.
    #[prop(into)]
    on_retry: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    move || {
        match loading.get() {
        Loading::Reading => view! {
            <p class="vstage-muted vstage-skeleton" aria-busy="true">{move || td_string!(locale.get(), board.loading)}</p>
        }
        .into_any(),
        Loading::Failed(error) => view! {
            <div class="vstage-panel vstage-panel--error" role="alert">
                <h2>{move || td_string!(locale.get(), board.load_failed)}</h2>
                <p>{move || api_error(locale.get(), &error)}</p>
                <button class="vstage-button" on:click=move |_| on_retry.run(())>{move || td_string!(locale.get(), common.try_again)}</button>
            </div>
        }
        .into_any(),
        Loading::Ready => ().into_any(),
    }
    }
}
