//! Why the classic renders could not be read, with "Try again".

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::ApiError;

use crate::locale::errors::api_error;
use crate::locale::use_locale;

#[component]
pub fn ListFailure(
    /// Why the last read failed, if it did.
    failure: RwSignal<Option<ApiError>>,
    /// Reads the first page again.
    #[prop(into)]
    on_retry: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    move || {
        failure.get().map(|error| {
            view! {
                <div class="vstage-panel vstage-panel--error" role="alert">
                    <p>{move || td_string!(locale.get(), classic.list_failed, reason = api_error(locale.get(), &error))}</p>
                    <button class="vstage-button" on:click=move |_| on_retry.run(())>
                        {move || td_string!(locale.get(), common.try_again)}
                    </button>
                </div>
            }
        })
    }
}
