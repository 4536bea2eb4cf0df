//! Requests per minute per subject (per client address in `open` access), answered 429 with `Retry-After`
//! beyond the quota. A keyed token bucket (governor) refilled evenly; a burst is a tenth of the minute's quota (at
//! least 10, or the whole quota when it is smaller), so a client cannot spend a minute's worth at once.

use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::error::ServerError;

#[derive(Debug)]
pub struct RateLimit {
    limiter: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
}

impl RateLimit {
    /// `per_minute` requests a minute for each key; 0 turns the limit off.
    pub fn per_minute(per_minute: u32) -> Option<Self> {
        let burst = NonZeroU32::new((per_minute / 10).max(per_minute.min(10)))?;
        let quota = Quota::per_minute(NonZeroU32::new(per_minute)?).allow_burst(burst);
        Some(RateLimit { limiter: DefaultKeyedRateLimiter::keyed(quota), clock: DefaultClock::default() })
    }

    /// Counts one request for `key`.
    pub fn check(&self, key: &str) -> Result<(), ServerError> {
        let key = key.to_string();
        if self.limiter.len() > 100_000 {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(self.clock.now());
            ServerError::TooManyRequests { retry_after_s: wait.as_secs() + u64::from(wait.subsec_nanos() > 0) }
        })
    }
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

    #[test]
    fn a_burst_is_a_tenth_of_the_minute() {
        let limit = RateLimit::per_minute(600).unwrap();
        for _ in 0..60 {
            assert!(limit.check("a").is_ok());
        }
        match limit.check("a") {
            // one request comes back every tenth of a second
            Err(ServerError::TooManyRequests { retry_after_s }) => assert!(retry_after_s <= 1),
            other => panic!("expected 429 after a burst of 60, got {other:?}"),
        }
    }
}
