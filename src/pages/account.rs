//! The account screen: who is signed in to the service and what this period's usage leaves.
//! Loading, failure (with retry) and success each have their own view.

use leptos::prelude::*;

use crate::account::use_account;

#[component]
pub fn AccountPage() -> impl IntoView {
    let account = use_account();
    move || match account.user.get() {
        None => {
            view! { <section class="vstage-panel vstage-skeleton" aria-busy="true">"Loading your account…"</section> }
                .into_any()
        }
        Some(Ok(user)) => {
            let (staging_used, staging_limit) = user.staging_usage();
            let (editing_used, editing_limit) = user.image_editing_usage();
            view! {
                <section class="vstage-panel" aria-labelledby="vstage-account-title">
                    <h1 id="vstage-account-title">"Your account"</h1>
                    // A widget token's holder is shown usage only (the server keeps the operator's identity).
                    {user.user.clone().map(|identity| view! {
                        <dl class="vstage-facts">
                            <dt>"Email"</dt>
                            <dd>{identity.email}</dd>
                            <dt>"Account id"</dt>
                            <dd>{identity.uid}</dd>
                        </dl>
                    })}
                    <p>
                        {format!(
                            "This period you have used {staging_used} of {staging_limit} staging photos and {editing_used} of {editing_limit} image-editing photos."
                        )}
                    </p>
                </section>
            }
            .into_any()
        }
        Some(Err(error)) => view! {
            <section class="vstage-panel vstage-panel--error" role="alert">
                <h1>"Your account could not be loaded"</h1>
                <p>{error.to_string()}</p>
                <button class="vstage-button" on:click=move |_| account.refresh()>
                    "Try again"
                </button>
            </section>
        }
        .into_any(),
    }
}
