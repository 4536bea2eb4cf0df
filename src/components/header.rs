//! The studio's header: the brand, the mode (sandbox or live) and whether changes come by polling, the service's
//! status and this period's usage, the agent's own allowance where it has one (and the host told when it runs low
//! or out).
//! It reads the shared account state; a failed load shows the reason and a way to retry. The parts a host hides
//! (`parts.rs`) are hidden by the screens' styles, which read the element's `hide` and `show`.

use leptos::prelude::*;
use vstage_api::usage::UsageLevel;

use crate::account::use_account;
use crate::allowance_events;
use crate::components::link::Link;
use crate::components::mode_badge::ModeBadge;
use crate::components::polling_note::PollingNote;
use crate::components::status_badge::StatusBadge;
use crate::components::usage_meters::UsageMeters;
use crate::i18n::*;
use crate::live::use_live;
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn Header() -> impl IntoView {
    let account = use_account();
    let live = use_live();
    let locale = use_locale();
    let told = StoredValue::new([UsageLevel::Normal; 2]);
    let usage = move || {
        match account.allowance() {
        None => view! { <p class="vstage-usage vstage-skeleton" aria-busy="true">{move || td_string!(locale.get(), common.loading_usage)}</p> }.into_any(),
        Some(Ok(allowance)) => {
            let locale = locale.get();
            // An agent's own allowance (it says when it renews): the host hears when it runs low or out.
            if allowance.renews_at.is_some() {
                allowance_events::tell_the_host(allowance.clone(), told);
            }
            let label = td_string!(locale, common.usage_label).to_string();
            view! { <UsageMeters label allowance /> }.into_any()
        }
        Some(Err(error)) => {
            view! { <p class="vstage-usage vstage-usage--error" role="alert">{move || td_string!(locale.get(), common.usage_unavailable, reason = api_error(locale.get(), &error))}</p> }
                .into_any()
        }
    }
    };
    view! {
        <header class="vstage-header" part="header">
            <Link to=Route::Renders class="vstage-brand">
                "vstage"
            </Link>
            <nav class="vstage-nav" aria-label=move || td_string!(locale.get(), common.nav_label)>
                <Link to=Route::Renders>{move || td_string!(locale.get(), common.nav_renders)}</Link>
                <Link to=Route::NewRender>{move || td_string!(locale.get(), common.nav_new_render)}</Link>
                <Link to=Route::Board class="vstage-nav__board">{move || td_string!(locale.get(), common.nav_board)}</Link>
                <Link to=Route::RemoveFurniture>{move || td_string!(locale.get(), common.nav_remove_furniture)}</Link>
                <Link to=Route::Classic class="vstage-nav__classic">{move || td_string!(locale.get(), common.nav_classic)}</Link>
                <Link to=Route::Account class="vstage-nav__account">{move || td_string!(locale.get(), common.nav_account)}</Link>
            </nav>
            <ModeBadge mode=Signal::derive(move || account.mode()) />
            <PollingNote channel=live.channel />
            <StatusBadge state=Signal::derive(move || account.service_state()) on_retry=move |()| account.refresh() />
            {usage}
        </header>
    }
}
