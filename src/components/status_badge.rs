//! The service's status as a badge: checking, online, or unreachable with the reason and a retry button.
//! Changes are announced to screen readers (a polite live region).

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::account::ServiceState;
use crate::locale::use_locale;

#[component]
pub fn StatusBadge(
    #[prop(into)] state: Signal<ServiceState>,
    /// Called when the person asks to check again.
    #[prop(into)]
    on_retry: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-status" role="status" aria-live="polite">
            {move || match state.get() {
                ServiceState::Checking => {
                    view! {
                        <span class="vstage-status__dot vstage-status__dot--checking" aria-hidden="true"></span>
                        <span class="vstage-status__label">{move || td_string!(locale.get(), common.status_checking)}</span>
                    }
                        .into_any()
                }
                ServiceState::Online => {
                    view! {
                        <span class="vstage-status__dot vstage-status__dot--online" aria-hidden="true"></span>
                        <span class="vstage-status__label">{move || td_string!(locale.get(), common.status_online)}</span>
                    }
                        .into_any()
                }
                ServiceState::Unreachable { reason } => {
                    view! {
                        <span class="vstage-status__dot vstage-status__dot--down" aria-hidden="true"></span>
                        <span class="vstage-status__label" title=reason.clone()>
                            {move || td_string!(locale.get(), common.status_unreachable)}
                        </span>
                        <span class="vstage-visually-hidden">{reason}</span>
                        <button class="vstage-button vstage-button--small" on:click=move |_| on_retry.run(())>
                            {move || td_string!(locale.get(), common.retry)}
                        </button>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
