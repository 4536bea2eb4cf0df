//! Calls to the service per minute per subject (per client address in `open` access), answered 429 with
//! `Retry-After` beyond the quota. Each request counts one on arrival, and whatever more calls it makes are counted
//! before they are made (`spend`), so the quota bounds what one subject costs the account, not only how often it
//! asks. A keyed token bucket (governor) refilled evenly; a burst is a tenth of the minute's quota (at least 10, or
//! the whole quota when it is smaller), so a client cannot spend a minute's worth at once.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::error::ServerError;

/// The limit, on the system's clock (a test gives it one it moves itself).
#[derive(Debug)]
pub struct RateLimit<C: Clock = DefaultClock> {
    limiter: RateLimiter<String, DefaultKeyedStateStore<String>, C, NoOpMiddleware<C::Instant>>,
    clock: C,
    burst: NonZeroU32,
}

/// How long a request waits for calls to come back before it is answered 429 instead.
const MAX_WAIT: Duration = Duration::from_secs(10);

impl RateLimit {
    /// `per_minute` calls a minute for each key; 0 turns the limit off.
    pub fn per_minute(per_minute: u32) -> Option<Self> {
        RateLimit::with_clock(per_minute, DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimit<C> {
    fn with_clock(per_minute: u32, clock: C) -> Option<Self> {
        let burst = NonZeroU32::new((per_minute / 10).max(per_minute.min(10)))?;
        let quota = Quota::per_minute(NonZeroU32::new(per_minute)?).allow_burst(burst);
        let limiter = RateLimiter::new(quota, DefaultKeyedStateStore::default(), clock.clone());
        Some(RateLimit { limiter, clock, burst })
    }

    /// Counts one call for `key` now, or says when to come back.
    pub fn check(&self, key: &str) -> Result<(), ServerError> {
        self.try_spend(key, NonZeroU32::MIN).map_err(too_many)
    }

    /// Counts `calls` more calls for `key`, waiting (at most 10 s in all) while they come back; beyond that, 429
    /// with when to come back.
    pub async fn spend(&self, key: &str, calls: u32) -> Result<(), ServerError> {
        let mut left = calls;
        let mut waited = Duration::ZERO;
        while let Some(chunk) = NonZeroU32::new(left.min(self.burst.get())) {
            match self.try_spend(key, chunk) {
                Ok(()) => left -= chunk.get(),
                Err(wait) if waited + wait <= MAX_WAIT => {
                    tokio::time::sleep(wait).await;
                    waited += wait;
                }
                Err(wait) => return Err(too_many(wait)),
            }
        }
        Ok(())
    }

    /// Counts `calls` (at most a burst) for `key`, or how long until they would be there.
    fn try_spend(&self, key: &str, calls: NonZeroU32) -> Result<(), Duration> {
        let key = key.to_string();
        if self.limiter.len() > 100_000 {
            self.limiter.retain_recent();
        }
        match self.limiter.check_key_n(&key, calls) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(not_until.wait_time_from(self.clock.now())),
            // `spend` asks for a burst at most.
            Err(_) => Err(MAX_WAIT),
        }
    }
}

fn too_many(wait: Duration) -> ServerError {
    ServerError::TooManyRequests { retry_after_s: wait.as_secs() + u64::from(wait.subsec_nanos() > 0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quota_is_per_key_and_says_when_to_come_back() {
        let limit = RateLimit::per_minute(2).unwrap();
        assert!(limit.check("a").is_ok());
        assert!(limit.check("a").is_ok());
        match limit.check("a") {
            Err(ServerError::TooManyRequests { retry_after_s }) => assert!((1..=30).contains(&retry_after_s)),
            other => panic!("expected 429, got {other:?}"),
        }
        assert!(limit.check("b").is_ok());
        assert!(RateLimit::per_minute(0).is_none());
    }

    /// On a clock the test moves itself: however slowly the loop runs, no request comes back during it.
    #[test]
    fn a_burst_is_a_tenth_of_the_minute() {
        let clock = governor::clock::FakeRelativeClock::default();
        let limit = RateLimit::with_clock(600, clock.clone()).unwrap();
        for _ in 0..60 {
            assert!(limit.check("a").is_ok());
        }
        match limit.check("a") {
            // one request comes back every tenth of a second
            Err(ServerError::TooManyRequests { retry_after_s }) => assert_eq!(retry_after_s, 1),
            other => panic!("expected 429 after a burst of 60, got {other:?}"),
        }
        clock.advance(std::time::Duration::from_millis(100));
        assert!(limit.check("a").is_ok(), "one back after a tenth of a second");
        assert!(limit.check("a").is_err(), "and only one");
        clock.advance(std::time::Duration::from_secs(6));
        assert_eq!(limit.try_spend("a", NonZeroU32::new(60).unwrap()), Ok(()), "a burst's worth of calls at once");
        assert!(limit.try_spend("a", NonZeroU32::MIN).is_err(), "and then none");
    }

    /// Per server by design, and atomic: 32 threads at once against a burst of 10 (on a clock that stands still)
    /// get exactly 10 calls.
    #[test]
    fn calls_counted_at_once_from_many_threads_never_pass_the_burst() {
        let limit = RateLimit::with_clock(100, governor::clock::FakeRelativeClock::default()).unwrap();
        let start = std::sync::Barrier::new(32);
        let passed = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..32)
                .map(|_| {
                    scope.spawn(|| {
                        start.wait();
                        limit.check("a").is_ok()
                    })
                })
                .collect();
            threads.into_iter().map(|thread| thread.join().unwrap()).filter(|ok| *ok).count()
        });
        assert_eq!(passed, 10);
    }
}
