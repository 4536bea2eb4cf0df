//! A form's submit button, in the form's actions row: its words, and busy (disabled) while the form is sent.

use leptos::prelude::*;

#[component]
pub fn SubmitButton(#[prop(into)] busy: Signal<bool>, #[prop(into)] words: Signal<String>) -> impl IntoView {
    view! {
        <div class="vstage-form__actions">
            <button type="submit" class="vstage-button" part="primary-button" disabled=busy aria-busy=move || busy.get().to_string()>
                {words}
            </button>
        </div>
    }
}
