//! One usage meter: photos used of the period's limit, as a labelled bar that warns near the limit; a plan without
//! a number (`"UNLIMITED"`, or a word vstage does not know) shows what was used and the plan's word, with no bar.
//! The level thresholds are plain functions so they are tested apart from the view.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Limit;
use vstage_api::usage::UsageLevel;

use crate::locale::{format, use_locale};

/// The bar's filled width as CSS, `"0.0%"` to `"100.0%"` to a tenth, rounded down. Worked out in whole tenths: a
/// float's formatting would bring about 5 KiB of code into the first load for this one number.
pub fn filled_width(used: u64, limit: u64) -> String {
    let tenths = if limit == 0 { 1000 } else { (u128::from(used) * 1000 / u128::from(limit)).min(1000) };
    format!("{}.{}%", tenths / 10, tenths % 10)
}

#[component]
pub fn UsageMeter(
    /// What is counted, e.g. "Staging".
    #[prop(into)]
    label: String,
    used: u64,
    limit: Limit,
) -> impl IntoView {
    match limit {
        Limit::Photos(limit) => view! { <CountedMeter label used limit /> }.into_any(),
        unbounded => view! { <UnboundedMeter label used limit=unbounded /> }.into_any(),
    }
}

/// Photos used of a plan without a number: what was used and the plan's word.
#[component]
fn UnboundedMeter(label: String, used: u64, limit: Limit) -> impl IntoView {
    let locale = use_locale();
    let value = move || {
        let locale = locale.get();
        let used = format::number(locale, used as f64);
        match &limit {
            Limit::Other(word) => td_string!(locale, common.meter_other, used = used, limit = word),
            _ => td_string!(locale, common.meter_unlimited, used = used),
        }
    };
    view! {
        <div class="vstage-meter vstage-meter--unbounded">
            <span class="vstage-meter__label">{label}</span>
            <span class="vstage-meter__value">{value}</span>
        </div>
    }
}

/// Photos used of a number allowed, as a bar.
#[component]
fn CountedMeter(label: String, used: u64, limit: u64) -> impl IntoView {
    let locale = use_locale();
    let level = UsageLevel::of(used, limit);
    let left = limit.saturating_sub(used);
    // "1,250 of 2,000" / "1.250 von 2.000"
    let counts = move || {
        let locale = locale.get();
        let number = |n: u64| format::number(locale, n as f64);
        (locale, number(used), number(limit), number(left))
    };
    let spoken = move || match (level, counts()) {
        (UsageLevel::Reached, (locale, used, limit, _)) => {
            td_string!(locale, common.meter_reached, used = used, limit = limit)
        }
        (_, (locale, used, limit, left)) => {
            td_string!(locale, common.meter_left, used = used, limit = limit, left = left)
        }
    };
    view! {
        <div
            class="vstage-meter"
            class:vstage-meter--near=level == UsageLevel::Near
            class:vstage-meter--reached=level == UsageLevel::Reached
        >
            <span class="vstage-meter__label">{label.clone()}</span>
            <span class="vstage-meter__value">{move || {
                let (locale, used, limit, _) = counts();
                td_string!(locale, common.meter_value, used = used, limit = limit)
            }}</span>
            <div
                class="vstage-meter__track"
                role="meter"
                aria-label=label
                aria-valuemin="0"
                aria-valuemax=limit.to_string()
                aria-valuenow=used.min(limit).to_string()
                aria-valuetext=spoken
                title=spoken
            >
                <div class="vstage-meter__fill" style:width=filled_width(used, limit)></div>
            </div>
        </div>
    }
}
