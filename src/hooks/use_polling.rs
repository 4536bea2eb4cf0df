//! Polling that respects the person's tab: `PollTimer` holds one scheduled check at a time, counts the checks that
//! fired, and when one falls due while the tab is hidden it waits and checks as soon as the tab shows again.
//! `use_polling` drives it for what no event announces (a v1 render): 1 s after each read while active, then 2 s,
//! 4 s … up to 30 s while nothing moves; progress starts again at 1 s. `follow_render` drives it by etas.

use std::sync::Arc;
use std::time::Duration;

use leptos::prelude::*;

use crate::clock::now_ms;

/// Never more than one request a second per render.
pub const MIN_POLL_MS: u32 = 1000;
/// The longest wait between two checks of a late variation.
pub const MAX_POLL_MS: u32 = 30_000;

/// When to look again at a render whose unfinished variations expect to finish at `pending_etas` (epoch ms; `None`
/// when the service gave none), after `late_checks` checks that found them still unfinished past their eta.
/// `None` when nothing is pending: polling stops.
///
/// The first check is at the earliest eta; after it, the wait doubles (1 s, 2 s, 4 s, …) up to 30 s.
pub fn next_poll_delay(now_ms: i64, pending_etas: &[Option<i64>], late_checks: u32) -> Option<u32> {
    if pending_etas.is_empty() {
        return None;
    }
    let earliest = pending_etas.iter().flatten().min().copied();
    let delay = match earliest {
        Some(eta) if eta > now_ms => (eta - now_ms).min(i64::from(MAX_POLL_MS)) as u32,
        _ => MIN_POLL_MS.saturating_mul(1u32 << late_checks.min(5)),
    };
    Some(delay.clamp(MIN_POLL_MS, MAX_POLL_MS))
}

/// One scheduled check at a time; its timer and its tab listener go with the owner that made it.
#[derive(Clone, Copy)]
pub struct PollTimer {
    timer: StoredValue<Option<TimeoutHandle>>,
    /// Checks that fired since the count was last reset (the back-off's exponent).
    fired: StoredValue<u32>,
    waiting_for_visible: StoredValue<bool>,
    poll: StoredValue<Arc<dyn Fn() + Send + Sync>>,
}

impl PollTimer {
    pub fn new(poll: impl Fn() + Send + Sync + 'static) -> Self {
        let timer = PollTimer {
            timer: StoredValue::new(None),
            fired: StoredValue::new(0),
            waiting_for_visible: StoredValue::new(false),
            poll: StoredValue::new(Arc::new(poll)),
        };
        let listener = window_event_listener_untyped("visibilitychange", move |_| {
            if !document_hidden() && timer.waiting_for_visible.get_value() {
                timer.waiting_for_visible.set_value(false);
                (timer.poll.get_value())();
            }
        });
        on_cleanup(move || {
            listener.remove();
            timer.cancel();
        });
        timer
    }

    /// Checks in `delay_ms`, instead of any check scheduled before.
    pub fn schedule(&self, delay_ms: u32) {
        self.cancel();
        let this = *self;
        let handle = set_timeout_with_handle(
            move || {
                this.fired.update_value(|n| *n += 1);
                if document_hidden() {
                    this.waiting_for_visible.set_value(true);
                } else {
                    (this.poll.get_value())();
                }
            },
            Duration::from_millis(u64::from(delay_ms)),
        );
        self.timer.set_value(handle.ok());
    }

    pub fn cancel(&self) {
        if let Some(handle) = self.timer.try_get_value().flatten() {
            handle.clear();
            self.timer.set_value(None);
        }
    }

    /// Checks fired since `reset_count`.
    pub fn fired(&self) -> u32 {
        self.fired.get_value()
    }

    pub fn reset_count(&self) {
        self.fired.set_value(0);
    }
}

/// `reads` counts the reads done (each schedules the next); `progress` changes when something moved.
pub fn use_polling(
    active: Signal<bool>,
    reads: Signal<u64>,
    progress: Signal<String>,
    poll: impl Fn() + Send + Sync + 'static,
) {
    let timer = PollTimer::new(poll);
    Effect::new(move |previous: Option<String>| {
        reads.track();
        let progress = progress.get();
        if previous.as_ref() != Some(&progress) {
            timer.reset_count();
        }
        match active.get() {
            // No eta: the wait doubles with each check that found nothing new.
            true => timer.schedule(next_poll_delay(now_ms(), &[None], timer.fired()).unwrap_or_default()),
            false => timer.cancel(),
        }
        progress
    });
}

/// Whether the page is in a hidden tab (polling waits until it shows).
pub fn document_hidden() -> bool {
    web_sys::window().and_then(|window| window.document()).is_some_and(|document| document.hidden())
}
