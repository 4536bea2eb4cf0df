//! The service's status as a badge: checking, online, or unreachable with the reason and a retry button.
//! Changes are announced to screen readers (a polite live region).

use leptos::prelude::*;

use crate::account::ServiceState;

#[component]
pub fn StatusBadge(
    #[prop(into)] state: Signal<ServiceState>,
    /// Called when the person asks to check again.
    #[prop(into)]
    on_retry: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="vstage-status" role="status" aria-live="polite">
            {move || match state.get() {
                ServiceState::Checking => {
                    view! {
                        <span class="vstage-status__dot vstage-status__dot--checking" aria-hidden="true"></span>
                        <span class="vstage-status__label">"Checking…"</span>
                    }
                        .into_any()
                }
                ServiceState::Online => {
                    view! {
                        <span class="vstage-status__dot vstage-status__dot--online" aria-hidden="true"></span>
                        <span class="vstage-status__label">"Online"</span>
                    }
                        .into_any()
                }
                ServiceState::Unreachable { reason } => {
                    view! {
                        <span class="vstage-status__dot vstage-status__dot--down" aria-hidden="true"></span>
                        <span class="vstage-status__label" title=reason.clone()>
                            "Unreachable"
                        </span>
                        <span class="vstage-visually-hidden">{reason}</span>
                        <button class="vstage-button vstage-button--small" on:click=move |_| on_retry.run(())>
                            "Retry"
                        </button>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
