//! One ticking clock for the whole studio (ETA countdowns, relative times): a signal of "now" in epoch
//! milliseconds, updated every second, so views never start timers of their own.

use std::time::Duration;

use leptos::prelude::*;

/// Milliseconds since the epoch, from the browser's clock.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

#[derive(Clone, Copy)]
pub struct Clock(pub RwSignal<i64>);

pub fn provide_clock() {
    let now = RwSignal::new(now_ms());
    if let Ok(handle) = set_interval_with_handle(move || now.set(now_ms()), Duration::from_secs(1)) {
        on_cleanup(move || handle.clear());
    }
    provide_context(Clock(now));
}

/// The clock's signal; a fixed "now" when no clock is provided (components mounted alone in tests).
pub fn use_now() -> Signal<i64> {
    match use_context::<Clock>() {
        Some(Clock(now)) => now.into(),
        None => Signal::stored(now_ms()),
    }
}
