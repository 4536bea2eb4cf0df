//! One usage meter: photos used of the period's limit, as a labelled bar that warns near the limit.
//! The level thresholds are plain functions so they are tested apart from the view.

use leptos::prelude::*;

/// From this share of the limit on, the meter warns.
pub const NEAR_LIMIT: f64 = 0.8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageLevel {
    Normal,
    /// At or above `NEAR_LIMIT` of the limit.
    Near,
    /// Nothing left this period.
    Reached,
}

impl UsageLevel {
    pub fn of(used: u64, limit: u64) -> Self {
        if used >= limit {
            UsageLevel::Reached
        } else if used as f64 >= limit as f64 * NEAR_LIMIT {
            UsageLevel::Near
        } else {
            UsageLevel::Normal
        }
    }
}

/// The filled share of the bar, 0 to 100.
pub fn filled_percent(used: u64, limit: u64) -> f64 {
    if limit == 0 { 100.0 } else { (used as f64 / limit as f64 * 100.0).min(100.0) }
}

#[component]
pub fn UsageMeter(
    /// What is counted, e.g. "Staging".
    #[prop(into)]
    label: String,
    used: u64,
    limit: u64,
) -> impl IntoView {
    let level = UsageLevel::of(used, limit);
    let left = limit.saturating_sub(used);
    let spoken = match level {
        UsageLevel::Reached => {
            format!("{used} of {limit} photos used; the limit is reached for this period")
        }
        _ => format!("{used} of {limit} photos used; {left} left this period"),
    };
    view! {
        <div
            class="vstage-meter"
            class:vstage-meter--near=level == UsageLevel::Near
            class:vstage-meter--reached=level == UsageLevel::Reached
        >
            <span class="vstage-meter__label">{label.clone()}</span>
            <span class="vstage-meter__value">{format!("{used} of {limit}")}</span>
            <div
                class="vstage-meter__track"
                role="meter"
                aria-label=label
                aria-valuemin="0"
                aria-valuemax=limit.to_string()
                aria-valuenow=used.min(limit).to_string()
                aria-valuetext=spoken.clone()
                title=spoken
            >
                <div class="vstage-meter__fill" style:width=format!("{:.1}%", filled_percent(used, limit))></div>
            </div>
        </div>
    }
}
