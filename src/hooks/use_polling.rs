//! Polling that respects the person's tab: `PollTimer` holds one scheduled check at a time, counts the checks that
//! fired, and when one falls due while the tab is hidden it waits and checks as soon as the tab shows again.
//! `use_polling` drives it for what no event announces (a v1 render): 1 s after each read while active, then 2 s,
//! 4 s … up to 30 s while nothing moves; progress starts again at 1 s. `follow_render` drives it by etas.

use std::sync::Arc;
use std::time::Duration;

use leptos::prelude::*;

use crate::describe::now_ms;
use crate::live::{document_hidden, next_poll_delay};

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
