//! The board's one bar: how many of all its variations have ended, as a bar and in words.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::Progress;
use crate::locale::use_locale;

#[component]
pub fn OverallProgress(#[prop(into)] progress: Signal<Progress>) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-board__overall" role="status" aria-live="polite">
            <progress
                max=move || progress.get().total.max(1).to_string()
                value=move || { let p = progress.get(); (p.done + p.failed).to_string() }
                aria-label=move || td_string!(locale.get(), board.overall_label)
            ></progress>
            <span class="vstage-board__overall-words">{move || progress.with(|progress| progress.words(locale.get()))}</span>
        </div>
    }
}
