//! An ETA countdown: a bar that fills from the variation's creation to its `eta`, with the time left in words.
//! Past the eta it says the result is due any moment rather than counting below zero.

use leptos::prelude::*;

/// How far along (0 to 100) and how long is left (ms, never below zero) at `now`, for work from `start` to `eta`.
pub fn eta_progress(now: i64, start: i64, eta: i64) -> (f64, i64) {
    let remaining = (eta - now).max(0);
    let span = (eta - start).max(1) as f64;
    let percent = ((now - start) as f64 / span * 100.0).clamp(0.0, 100.0);
    (percent, remaining)
}

/// "About 12 s left", "About 3 min left", or "Any moment now".
pub fn eta_words(remaining_ms: i64) -> String {
    let seconds = (remaining_ms + 999) / 1000;
    match seconds {
        0 => "Any moment now".into(),
        1..=59 => format!("About {seconds} s left"),
        _ => format!("About {} min left", (seconds + 59) / 60),
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
    let progress = move || eta_progress(now.get(), start, eta);
    view! {
        <div class="vstage-eta">
            <div
                class="vstage-eta__track"
                role="progressbar"
                aria-label="Estimated progress"
                aria-valuemin="0"
                aria-valuemax="100"
                aria-valuenow=move || format!("{:.0}", progress().0)
                aria-valuetext=move || eta_words(progress().1)
            >
                <div class="vstage-eta__fill" style:width=move || format!("{:.1}%", progress().0)></div>
            </div>
            <span class="vstage-eta__text">{move || eta_words(progress().1)}</span>
        </div>
    }
}
