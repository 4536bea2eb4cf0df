//! The bulk dialog's note on the reading of the chosen renders: under way, or which one could not be read and why.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::Reading;
use crate::locale::errors::form_error;
use crate::locale::use_locale;

#[component]
pub fn ReadingNote(reading: RwSignal<Reading>) -> impl IntoView {
    let locale = use_locale();
    move || {
        match reading.get() {
        Reading::Pending => view! { <p class="vstage-muted" aria-busy="true">{move || td_string!(locale.get(), studio.bulk_reading)}</p> }.into_any(),
        Reading::Failed { label, error } => view! {
            <p class="vstage-error" role="alert">
                {move || {
                    let locale = locale.get();
                    td_string!(locale, studio.bulk_read_failed, label = &label, error = form_error(locale, &error))
                }}
            </p>
        }
        .into_any(),
        Reading::Read(_) => ().into_any(),
    }
    }
}
