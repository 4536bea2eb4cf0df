//! An ETA countdown: a bar that fills from the variation's creation to its `eta`, with the time left in words.
//! Past the eta it says the result is due any moment rather than counting below zero.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::{Locale, use_locale};

/// How far along (0 to 100) and how long is left (ms, never below zero) at `now`, for work from `start` to `eta`.
pub fn eta_progress(now: i64, start: i64, eta: i64) -> (f64, i64) {
    let remaining = (eta - now).max(0);
    let span = (eta - start).max(1) as f64;
    let percent = ((now - start) as f64 / span * 100.0).clamp(0.0, 100.0);
    (percent, remaining)
}

/// "About 12 s left", "About 3 min left", or "Any moment now".
pub fn eta_words(locale: Locale, remaining_ms: i64) -> String {
    let seconds = (remaining_ms + 999) / 1000;
    match seconds {
        0 => td_string!(locale, common.eta_any_moment).to_string(),
        1..=59 => td_string!(locale, common.eta_seconds, seconds = seconds),
        _ => td_string!(locale, common.eta_minutes, minutes = (seconds + 59) / 60),
    }
}

#[component]
pub fn EtaBar(
    /// When the work started (epoch ms).
    start: i64,
    /// When it is expected to be done (epoch ms).
    eta: i64,
    #[prop(into)] now: Signal<i64>,
) -> impl IntoView {
    let locale = use_locale();
    let progress = move || eta_progress(now.get(), start, eta);
    let words = move || eta_words(locale.get(), progress().1);
    view! {
        <div class="vstage-eta">
            <div
                class="vstage-eta__track"
                role="progressbar"
                aria-label=move || td_string!(locale.get(), common.eta_label)
                aria-valuemin="0"
                aria-valuemax="100"
                aria-valuenow=move || format!("{:.0}", progress().0)
                aria-valuetext=words
            >
                <div class="vstage-eta__fill" style:width=move || format!("{:.1}%", progress().0)></div>
            </div>
            <span class="vstage-eta__text">{words}</span>
        </div>
    }
}
