//! The account screen: who is signed in to the service and this period's usage, kind by kind: the agent's own
//! allowance where it has one, with when it renews, and beside it the whole account's to whoever may see it (the
//! operator, on open access; a widget token's holder is never shown the account).
//! Loading, failure (with retry) and success each have their own view.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::account::use_account;
use crate::allowance::Allowance;
use crate::components::screen_heading::ScreenHeading;
use crate::components::usage_meters::UsageMeters;
use crate::locale::errors::form_error;
use crate::locale::{format, use_locale};

#[component]
pub fn AccountPage() -> impl IntoView {
    let account = use_account();
    let locale = use_locale();
    move || {
        match account.allowance() {
        None => {
            view! { <section class="vstage-panel vstage-skeleton" aria-busy="true">{move || td_string!(locale.get(), studio.account_loading)}</section> }
                .into_any()
        }
        Some(Ok(allowance)) => {
            let user = account.user.get().and_then(Result::ok);
            // A widget token's holder is shown usage only (the server keeps the operator's identity).
            let identity = user.as_ref().and_then(|user| user.user.clone());
            let has_own = allowance.staging.own || allowance.image_editing.own;
            // The operator sees the account's figures beside the studio's own allowance.
            let whole = user.filter(|_| has_own && identity.is_some()).and_then(|user| Allowance::read(None, Some(&user)));
            let own_label = Signal::derive(move || match has_own {
                true => td_string!(locale.get(), studio.account_own).to_string(),
                false => td_string!(locale.get(), common.usage_label).to_string(),
            });
            view! {
                <section class="vstage-panel" aria-labelledby="vstage-account-title">
                    <ScreenHeading id="vstage-account-title">{move || td_string!(locale.get(), studio.account_title)}</ScreenHeading>
                    {identity.map(|identity| view! {
                        <dl class="vstage-facts">
                            <dt>{move || td_string!(locale.get(), studio.account_email)}</dt>
                            <dd>{identity.email}</dd>
                            <dt>{move || td_string!(locale.get(), studio.account_id)}</dt>
                            <dd>{identity.uid}</dd>
                        </dl>
                    })}
                    <UsageMeters label=own_label allowance=allowance.clone() />
                    {allowance.renews_at.map(|at| view! {
                        <p class="vstage-usage__renews">{move || td_string!(locale.get(), common.usage_renews, date = format::day(locale.get(), at))}</p>
                    })}
                    {whole.map(|whole| view! {
                        <UsageMeters label=Signal::derive(move || td_string!(locale.get(), studio.account_whole).to_string()) allowance=whole />
                    })}
                </section>
            }
            .into_any()
        }
        Some(Err(error)) => view! {
            <section class="vstage-panel vstage-panel--error" role="alert">
                <ScreenHeading id="vstage-screen-title">{move || td_string!(locale.get(), studio.account_load_failed)}</ScreenHeading>
                <p>{move || form_error(locale.get(), &error)}</p>
                <button class="vstage-button" on:click=move |_| account.refresh()>
                    {move || td_string!(locale.get(), common.try_again)}
                </button>
            </section>
        }
        .into_any(),
    }
    }
}
