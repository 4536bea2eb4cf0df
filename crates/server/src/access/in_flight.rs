//! Calls under way per subject (per client address in open access), capped so that one caller cannot hold every
//! upstream connection and worker: a call beyond `--max-in-flight` is answered 429 at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::error::ServerError;

#[derive(Debug)]
pub struct InFlight {
    counts: Mutex<HashMap<String, usize>>,
    max: usize,
}

/// One call's place under its caller's cap, given back when the call is answered (or, for a creation that runs
/// on without its browser, when it ends).
#[derive(Debug)]
pub struct Slot {
    owner: Arc<InFlight>,
    key: String,
}

impl InFlight {
    /// `max` calls at once per key; 0 turns the cap off.
    pub fn new(max: usize) -> Option<Arc<Self>> {
        (max > 0).then(|| Arc::new(InFlight { counts: Mutex::default(), max }))
    }

    /// A place for one more call of `key`, or 429 when it has `max` under way.
    pub fn enter(self: &Arc<Self>, key: &str) -> Result<Slot, ServerError> {
        let mut counts = self.counts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let count = counts.entry(key.to_string()).or_default();
        if *count >= self.max {
            return Err(ServerError::TooManyRequests { retry_after_s: 1 });
        }
        *count += 1;
        Ok(Slot { owner: self.clone(), key: key.to_string() })
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
        let in_flight = InFlight::new(2).unwrap();
        let first = in_flight.enter("a").unwrap();
        let _second = in_flight.enter("a").unwrap();
        assert!(matches!(in_flight.enter("a"), Err(ServerError::TooManyRequests { retry_after_s: 1 })));
        assert!(in_flight.enter("b").is_ok(), "another caller is not held up");
        drop(first);
        assert!(in_flight.enter("a").is_ok());
        assert!(InFlight::new(0).is_none());
    }

    #[test]
    fn keys_with_nothing_under_way_are_forgotten() {
        let in_flight = InFlight::new(1).unwrap();
        drop(in_flight.enter("a").unwrap());
        assert!(in_flight.counts.lock().unwrap().is_empty());
    }
}
