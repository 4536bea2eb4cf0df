//! The new render form's advanced options: where the service sends its webhook (only without a widget token, whose
//! deliveries go to the server's own receiver) and whether to wait for the result.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::NewRenderForm;
use crate::api::use_token;
use crate::locale::errors::invalid;
use crate::locale::use_locale;

#[component]
pub fn AdvancedOptions(form: NewRenderForm) -> impl IntoView {
    let locale = use_locale();
    let token = use_token();
    let chooses_webhook = move || token.as_ref().is_none_or(|token| token.get().is_none());
    let webhook_error = move || form.error_on("webhook_url").map(|error| invalid(locale.get(), &error));
    view! {
        <details class="vstage-advanced">
            <summary>{move || td_string!(locale.get(), studio.new_advanced)}</summary>
            // With a widget token the server sends deliveries to its own receiver: nothing to choose.
            <Show when=move || chooses_webhook()>
            <div class="vstage-field">
                <label for="vstage-webhook">{move || td_string!(locale.get(), studio.new_webhook)}</label>
                <input
                    id="vstage-webhook"
                    type="url"
                    placeholder=move || td_string!(locale.get(), studio.new_webhook_placeholder)
                    prop:value=move || form.webhook_url.get()
                    on:input=move |ev| form.webhook_url.set(event_target_value(&ev))
                    aria-invalid=move || webhook_error().is_some().to_string()
                />
                <p class="vstage-hint">{move || td_string!(locale.get(), studio.new_webhook_hint)}</p>
                {move || webhook_error().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
            </div>
            </Show>
            <label class="vstage-check">
                <input type="checkbox" prop:checked=move || form.wait.get() on:change=move |ev| form.wait.set(event_target_checked(&ev)) />
                {move || td_string!(locale.get(), studio.new_wait)}
            </label>
        </details>
    }
}
