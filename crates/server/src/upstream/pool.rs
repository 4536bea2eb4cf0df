//! The idle connections a client keeps for its next calls, by origin: the most recently used taken first, none
//! idle longer than `idle_timeout`, at most `per_origin` to one origin and `total` to all of them together. A
//! client that calls addresses its callers name (result images, photos) meets as many origins as they like, each
//! free to keep a connection open for ever: past these bounds the oldest idle connection is closed.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A connection that can tell it was closed by its other end.
pub trait Reusable {
    fn is_closed(&self) -> bool;
}

impl<B> Reusable for hyper::client::conn::http1::SendRequest<B> {
    fn is_closed(&self) -> bool {
        hyper::client::conn::http1::SendRequest::is_closed(self)
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// How long a connection may sit idle before it is closed instead of used: under nginx's 60 s
    /// `keepalive_timeout`, so it is given up before a service like it closes its end.
    pub idle_timeout: Duration,
    pub per_origin: usize,
    pub total: usize,
}

impl Limits {
    /// For the service and the addresses callers name alike.
    pub const CLIENT: Limits = Limits { idle_timeout: Duration::from_secs(50), per_origin: 64, total: 256 };
}

pub struct Pool<K, C> {
    limits: Limits,
    origins: Mutex<Vec<Origin<K, C>>>,
}

/// One origin's idle connections, the most recently used last.
struct Origin<K, C> {
    key: K,
    idle: Vec<(C, Instant)>,
}

impl<K: PartialEq + Clone, C: Reusable> Pool<K, C> {
    pub fn new(limits: Limits) -> Self {
        Pool { limits, origins: Mutex::default() }
    }

    /// The most recently used idle connection to `key` that is still open and not idle too long; the others met
    /// on the way are closed (dropped).
    pub fn take(&self, key: &K) -> Option<C> {
        let mut origins = self.origins.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let origin = origins.iter_mut().find(|origin| origin.key == *key)?;
        let now = Instant::now();
        std::iter::from_fn(|| origin.idle.pop())
            .find(|(connection, since)| !connection.is_closed() && !self.expired(*since, now))
            .map(|(connection, _)| connection)
    }

    /// Keeps `connection` for the next call to `key`, within the bounds.
    pub fn put(&self, key: &K, connection: C) {
        let mut origins = self.origins.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let index = match origins.iter().position(|origin| origin.key == *key) {
            Some(index) => index,
            None => {
                origins.push(Origin { key: key.clone(), idle: Vec::new() });
                origins.len() - 1
            }
        };
        let idle = &mut origins[index].idle;
        if idle.len() >= self.limits.per_origin {
            return;
        }
        idle.push((connection, Instant::now()));
        if origins.iter().map(|origin| origin.idle.len()).sum::<usize>() > self.limits.total {
            self.close_oldest(&mut origins);
        }
    }

    /// Over the total: closes what idled too long or was closed, forgets origins with nothing idle, and when
    /// still over, closes the connection idle longest.
    fn close_oldest(&self, origins: &mut Vec<Origin<K, C>>) {
        let now = Instant::now();
        for origin in origins.iter_mut() {
            origin.idle.retain(|(connection, since)| !connection.is_closed() && !self.expired(*since, now));
        }
        origins.retain(|origin| !origin.idle.is_empty());
        if origins.iter().map(|origin| origin.idle.len()).sum::<usize>() <= self.limits.total {
            return;
        }
        // Each origin's oldest is its first.
        let oldest = origins.iter().enumerate().filter_map(|(index, origin)| Some((index, origin.idle.first()?.1)));
        if let Some((index, _)) = oldest.min_by_key(|(_, since)| *since) {
            origins[index].idle.remove(0);
            if origins[index].idle.is_empty() {
                origins.remove(index);
            }
        }
    }

    fn expired(&self, since: Instant, now: Instant) -> bool {
        now.duration_since(since) >= self.limits.idle_timeout
    }

    /// Idle connections kept, to all origins.
    #[cfg(test)]
    pub fn idle(&self) -> usize {
        self.origins.lock().unwrap().iter().map(|origin| origin.idle.len()).sum()
    }
}

impl<K: std::fmt::Debug, C> std::fmt::Debug for Pool<K, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let origins = self.origins.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let counts: Vec<(&K, usize)> = origins.iter().map(|origin| (&origin.key, origin.idle.len())).collect();
        f.debug_struct("Pool").field("limits", &self.limits).field("idle", &counts).finish()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    /// A connection whose other end closes it when the test says so.
    #[derive(Clone)]
    struct Fake(u32, Arc<AtomicBool>);

    impl Reusable for Fake {
        fn is_closed(&self) -> bool {
            self.1.load(Ordering::SeqCst)
        }
    }

    fn open(id: u32) -> Fake {
        Fake(id, Arc::default())
    }

    const LIMITS: Limits = Limits { idle_timeout: Duration::from_secs(3600), per_origin: 2, total: 3 };

    #[test]
    fn the_most_recently_used_open_connection_is_taken_first() {
        let pool = Pool::new(LIMITS);
        let (first, second) = (open(1), open(2));
        pool.put(&"a", first.clone());
        pool.put(&"a", second.clone());
        pool.put(&"a", open(3));
        assert_eq!(pool.idle(), 2, "at most two to one origin");
        second.1.store(true, Ordering::SeqCst);
        assert_eq!(pool.take(&"a").map(|fake| fake.0), Some(1), "the closed one is passed over");
        assert!(pool.take(&"a").is_none());
        assert!(pool.take(&"b").is_none());
    }

    #[test]
    fn past_the_total_the_connection_idle_longest_is_closed_and_its_origin_forgotten() {
        let pool = Pool::new(LIMITS);
        for (origin, id) in [("a", 1), ("b", 2), ("c", 3), ("d", 4)] {
            pool.put(&origin, open(id));
        }
        assert_eq!(pool.idle(), 3);
        assert!(pool.take(&"a").is_none(), "the oldest went");
        assert_eq!(pool.take(&"d").map(|fake| fake.0), Some(4));
        assert_eq!(pool.origins.lock().unwrap().len(), 3, "a has no entry left");
    }

    #[test]
    fn a_connection_idle_too_long_is_not_used() {
        let pool = Pool::new(Limits { idle_timeout: Duration::ZERO, ..LIMITS });
        pool.put(&"a", open(1));
        assert!(pool.take(&"a").is_none());
        assert_eq!(pool.idle(), 0, "and is closed");
    }
}
