//! Polling with a back-off, for what no event announces (a v1 render): `poll` runs 1 s after each read while
//! `active`, then 2 s, 4 s … up to 30 s while nothing moves; progress starts again at 1 s. Never faster than once a
//! second; while the tab is hidden it waits, and polls at once when the tab shows again.

use std::time::Duration;

use leptos::prelude::*;

use crate::describe::now_ms;
use crate::live::{document_hidden, next_poll_delay};

/// `reads` counts the reads done (each schedules the next); `progress` changes when something moved.
pub fn use_polling(
    active: Signal<bool>,
    reads: Signal<u64>,
    progress: Signal<String>,
    poll: impl Fn() + Clone + Send + Sync + 'static,
) {
    let quiet_reads = StoredValue::new(0u32);
    let timer = StoredValue::new(None::<TimeoutHandle>);
    let waiting_for_visible = StoredValue::new(false);
    let scheduled = poll.clone();
    Effect::new(move |previous: Option<String>| {
        reads.track();
        let progress = progress.get();
        if let Some(handle) = timer.get_value() {
            handle.clear();
            timer.set_value(None);
        }
        if previous.as_ref() != Some(&progress) {
            quiet_reads.set_value(0);
        }
        if active.get() {
            // No eta: the wait doubles with each read that found nothing new.
            let delay = next_poll_delay(now_ms(), &[None], quiet_reads.get_value()).unwrap_or_default();
            let poll = scheduled.clone();
            let handle = set_timeout_with_handle(
                move || {
                    quiet_reads.update_value(|n| *n += 1);
                    if document_hidden() {
                        waiting_for_visible.set_value(true);
                    } else {
                        poll();
                    }
                },
                Duration::from_millis(u64::from(delay)),
            );
            timer.set_value(handle.ok());
        }
        progress
    });
    let listener = window_event_listener_untyped("visibilitychange", move |_| {
        if !document_hidden() && waiting_for_visible.get_value() {
            waiting_for_visible.set_value(false);
            poll();
        }
    });
    on_cleanup(move || {
        listener.remove();
        if let Some(handle) = timer.get_value() {
            handle.clear();
        }
    });
}
