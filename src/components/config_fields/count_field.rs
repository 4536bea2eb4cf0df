//! How many variations a draft makes, as typed, with a line saying the limit (or, at once, that the count asks for
//! more than is left: the form will not send it) and the form's error about it.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::ValidationError;

use super::draft::DraftFields;
use crate::locale::use_locale;

#[component]
pub fn CountField(fields: DraftFields, #[prop(into)] error: Signal<Option<ValidationError>>) -> impl IntoView {
    let locale = use_locale();
    let count_error = move || fields.error_about(error.get(), "variation_count", locale.get());
    view! {
        <div class="vstage-field">
            <label for=fields.dom("count")>{move || td_string!(locale.get(), forms.config_count)}</label>
            <input
                id=fields.dom("count")
                class="vstage-count"
                type="number"
                min="1"
                max=move || fields.limit().max(1).to_string()
                inputmode="numeric"
                prop:value=move || fields.draft().count.to_string()
                on:input=move |ev| fields.set_count(&event_target_value(&ev))
                aria-invalid=move || count_error().is_some().to_string()
                aria-describedby=fields.dom("count-note")
            />
            <p id=fields.dom("count-note") class="vstage-hint" class:vstage-hint--warning=move || fields.over().is_some() aria-live="polite">
                {move || match fields.over() {
                    Some(limit) => td_string!(locale.get(), forms.config_count_over, limit = limit),
                    None => td_string!(locale.get(), forms.config_count_limit, limit = fields.limit()),
                }}
            </p>
            {move || count_error().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
        </div>
    }
}
