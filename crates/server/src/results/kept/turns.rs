//! Steps taken one at a time per key, while other keys' go on: a subject's copies one after another (so its
//! quota check sees every copy before it, and a copy waiting on a slow photo or result address holds back only
//! that subject's, never another's), and one variation's kept files changed a step at a time (kept, a file
//! added, removed).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::OwnedMutexGuard;

/// The keys with a step under way or waiting, each with its own lock; a lock goes when its last step ends.
#[derive(Debug, Default)]
pub(super) struct Turns {
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// A key's turn, until dropped.
pub(super) struct Turn<'a> {
    turns: &'a Turns,
    key: String,
    lock: Arc<tokio::sync::Mutex<()>>,
    held: Option<OwnedMutexGuard<()>>,
}

impl Turns {
    /// `key`'s turn, once the step before it has ended.
    pub(super) async fn of(&self, key: String) -> Turn<'_> {
        let lock = self.locks.lock().unwrap_or_else(|p| p.into_inner()).entry(key.clone()).or_default().clone();
        let held = Some(lock.clone().lock_owned().await);
        Turn { turns: self, key, lock, held }
    }

    #[cfg(test)]
    fn waiting_or_under_way(&self) -> usize {
        self.locks.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.held.take();
        let mut locks = self.turns.locks.lock().unwrap_or_else(|p| p.into_inner());
        // Held by the map and by this turn only: no step waits for it (one that does holds a clone, taken under
        // the map's lock, which is held here).
        if Arc::strong_count(&self.lock) == 2 {
            locks.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use futures_util::FutureExt;

    use super::*;

    #[tokio::test]
    async fn a_key_waits_only_for_its_own_steps() {
        let turns = Turns::default();
        let first = turns.of("alice".into()).await;
        // another key goes on while the first is held
        let beside = turns.of("bob".into()).now_or_never().expect("another key is not held back");
        drop(beside);
        // the same key waits for the step under way, and goes once it ends
        let mut second = Box::pin(turns.of("alice".into()));
        assert!((&mut second).now_or_never().is_none(), "a second step of one key waits");
        drop(first);
        let second = second.now_or_never().expect("the second step goes once the first ended");
        assert_eq!(turns.waiting_or_under_way(), 1);
        drop(second);
        assert_eq!(turns.waiting_or_under_way(), 0, "no lock is kept for a key with no step");
    }
}
