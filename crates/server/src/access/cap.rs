//! A cap on how many of something each subject holds at once (calls under way, live-event streams), per key: a
//! place is taken on entry and given back when its `Slot` drops; beyond the cap, 429 with `Retry-After`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::error::ServerError;

#[derive(Debug)]
pub struct Cap {
    counts: Mutex<HashMap<String, usize>>,
    max: usize,
    /// What a refusal tells the caller to wait.
    retry_after_s: u64,
}

/// One place under a key's cap, given back when dropped (a call answered, or ended without its browser; a stream
/// closed).
#[derive(Debug)]
pub struct Slot {
    owner: Arc<Cap>,
    key: String,
}

impl Cap {
    /// At most `max` places per key; a refusal asks to come back after `retry_after_s`.
    pub fn new(max: usize, retry_after_s: u64) -> Arc<Self> {
        Arc::new(Cap { counts: Mutex::default(), max, retry_after_s })
    }

    /// A place for one more of `key`'s, or 429 when it holds `max`.
    pub fn enter(self: &Arc<Self>, key: &str) -> Result<Slot, ServerError> {
        let mut counts = self.counts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let count = counts.entry(key.to_string()).or_default();
        if *count >= self.max {
            if *count == 0 {
                counts.remove(key);
            }
            return Err(ServerError::TooManyRequests { retry_after_s: self.retry_after_s });
        }
        *count += 1;
        Ok(Slot { owner: self.clone(), key: key.to_string() })
    }

    /// As many more places of `key`'s as are free, up to `wanted`; none refused.
    pub fn enter_up_to(self: &Arc<Self>, key: &str, wanted: usize) -> Vec<Slot> {
        std::iter::from_fn(|| self.enter(key).ok()).take(wanted).collect()
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.owner.counts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(count) = counts.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_holds_at_most_max_places_and_gets_them_back() {
        let cap = Cap::new(2, 1);
        let first = cap.enter("a").unwrap();
        let _second = cap.enter("a").unwrap();
        assert!(matches!(cap.enter("a"), Err(ServerError::TooManyRequests { retry_after_s: 1 })));
        assert!(cap.enter("b").is_ok(), "another caller is not held up");
        drop(first);
        assert!(cap.enter("a").is_ok());
    }

    /// Per server by design, and atomic: 32 threads entering at once under a cap of 5 hold exactly 5 places.
    #[test]
    fn places_taken_at_once_from_many_threads_never_pass_the_cap() {
        let cap = Cap::new(5, 1);
        let start = std::sync::Barrier::new(32);
        let held: Vec<Slot> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..32)
                .map(|_| {
                    scope.spawn(|| {
                        start.wait();
                        cap.enter("a").ok()
                    })
                })
                .collect();
            threads.into_iter().filter_map(|thread| thread.join().unwrap()).collect()
        });
        assert_eq!(held.len(), 5);
        drop(held);
        assert!(cap.counts.lock().unwrap().is_empty(), "every place given back");
    }

    #[test]
    fn keys_with_nothing_held_are_forgotten() {
        let cap = Cap::new(1, 30);
        drop(cap.enter("a").unwrap());
        assert!(Cap::new(0, 30).enter("b").is_err(), "a cap of none refuses all");
        assert!(cap.counts.lock().unwrap().is_empty());
    }

    #[test]
    fn more_places_are_taken_as_far_as_they_are_free() {
        let cap = Cap::new(4, 1);
        let _arrival = cap.enter("a").unwrap();
        let more = cap.enter_up_to("a", 5);
        assert_eq!(more.len(), 3, "the cap's four places, one taken on arrival");
        assert!(cap.enter_up_to("a", 5).is_empty());
        drop(more);
        assert_eq!(cap.enter_up_to("a", 2).len(), 2);
    }
}
