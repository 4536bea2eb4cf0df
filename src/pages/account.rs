//! The account screen: who is signed in to the service and this period's usage, kind by kind.
//! Loading, failure (with retry) and success each have their own view.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::account::use_account;
use crate::components::screen_heading::ScreenHeading;
use crate::components::usage_meter::UsageMeter;
use crate::locale::errors::form_error;
use crate::locale::{format, use_locale};

#[component]
pub fn AccountPage() -> impl IntoView {
    let account = use_account();
    let locale = use_locale();
    move || {
        match account.user.get() {
        None => {
            view! { <section class="vstage-panel vstage-skeleton" aria-busy="true">{move || td_string!(locale.get(), studio.account_loading)}</section> }
                .into_any()
        }
        Some(Ok(user)) => {
            let (staging_used, staging_limit) = user.staging_usage();
            let (editing_used, editing_limit) = user.image_editing_usage();
            view! {
                <section class="vstage-panel" aria-labelledby="vstage-account-title">
                    <ScreenHeading id="vstage-account-title">{move || td_string!(locale.get(), studio.account_title)}</ScreenHeading>
                    // A widget token's holder is shown usage only (the server keeps the operator's identity).
                    {user.user.clone().map(|identity| view! {
                        <dl class="vstage-facts">
                            <dt>{move || td_string!(locale.get(), studio.account_email)}</dt>
                            <dd>{identity.email}</dd>
                            <dt>{move || td_string!(locale.get(), studio.account_id)}</dt>
                            <dd>{identity.uid}</dd>
                        </dl>
                    })}
                    <section class="vstage-usage" aria-label=move || td_string!(locale.get(), common.usage_label)>
                        <UsageMeter label=td_string!(locale.get(), common.usage_staging) used=staging_used limit=staging_limit.clone() />
                        <UsageMeter label=td_string!(locale.get(), common.usage_editing) used=editing_used limit=editing_limit.clone() />
                        // An agent's own allowance says when it renews; the account's figures do not.
                        {user.renews_at.map(|at| view! {
                            <p class="vstage-usage__renews">{move || td_string!(locale.get(), common.usage_renews, date = format::day(locale.get(), at))}</p>
                        })}
                    </section>
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
