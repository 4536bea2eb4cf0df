//! The studio's header: the brand, the mode (sandbox or live), the service's status and this period's usage.
//! It reads the shared account state; a failed load shows the reason and a way to retry.

use leptos::prelude::*;

use crate::account::use_account;
use crate::components::link::Link;
use crate::components::mode_badge::ModeBadge;
use crate::components::status_badge::StatusBadge;
use crate::components::usage_meter::UsageMeter;
use crate::route::Route;

#[component]
pub fn Header() -> impl IntoView {
    let account = use_account();
    let usage = move || {
        match account.user.get() {
        None => view! { <p class="vstage-usage vstage-skeleton" aria-busy="true">"Loading usage…"</p> }.into_any(),
        Some(Ok(user)) => {
            let (staging_used, staging_limit) = user.staging_usage();
            let (editing_used, editing_limit) = user.image_editing_usage();
            view! {
                <section class="vstage-usage" aria-label="Photos used this period">
                    <UsageMeter label="Staging" used=staging_used limit=staging_limit />
                    <UsageMeter label="Image editing" used=editing_used limit=editing_limit />
                </section>
            }
            .into_any()
        }
        Some(Err(error)) => {
            view! { <p class="vstage-usage vstage-usage--error" role="alert">"Usage unavailable: " {error.to_string()}</p> }
                .into_any()
        }
    }
    };
    view! {
        <header class="vstage-header" part="header">
            <Link to=Route::Renders class="vstage-brand">
                "vstage"
            </Link>
            <nav class="vstage-nav" aria-label="Studio">
                <Link to=Route::Renders>"Renders"</Link>
                <Link to=Route::NewRender>"New render"</Link>
                <Link to=Route::Board>"Listing board"</Link>
                <Link to=Route::RemoveFurniture>"Remove furniture"</Link>
                <Link to=Route::Classic>"Classic (v1)"</Link>
                <Link to=Route::Account>"Account"</Link>
            </nav>
            <ModeBadge mode=Signal::derive(move || account.mode()) />
            <StatusBadge state=Signal::derive(move || account.service_state()) on_retry=move |()| account.refresh() />
            {usage}
        </header>
    }
}
