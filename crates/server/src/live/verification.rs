//! Whether the service's webhook deliveries verify here. Deliveries that keep failing verification, with none
//! verifying for a while, mean the service signs with another secret than `VSTAGE_WEBHOOK_SECRET`: the operator
//! is told loudly, once, and `/api/capabilities` stops offering live events so that widgets follow by polling.
//! One verified delivery ends it. (A forger can only send refused deliveries, which turn events off while the
//! service itself sends nothing verified: the widgets then poll, as they would without events.)

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Refused deliveries in a row that mean the secrets differ.
const REFUSALS: u32 = 3;
/// How long a verified delivery vouches for the secret.
const VOUCHED_FOR: Duration = Duration::from_secs(600);

#[derive(Debug, Default)]
pub struct Verification {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    refused_in_a_row: u32,
    last_verified: Option<Instant>,
    failing: bool,
}

impl Verification {
    pub fn verified(&self) {
        let mut state = self.lock();
        if state.failing {
            tracing::warn!("webhook deliveries verify again: live events are back on");
        }
        *state = State { refused_in_a_row: 0, last_verified: Some(Instant::now()), failing: false };
    }

    pub fn refused(&self) {
        let mut state = self.lock();
        state.refused_in_a_row = state.refused_in_a_row.saturating_add(1);
        let vouched = state.last_verified.is_some_and(|at| at.elapsed() < VOUCHED_FOR);
        if !state.failing && !vouched && state.refused_in_a_row >= REFUSALS {
            state.failing = true;
            tracing::error!(
                refused_in_a_row = state.refused_in_a_row,
                "webhook deliveries keep failing verification: the service signs them with another secret than \
                 VSTAGE_WEBHOOK_SECRET. Set the service's secret with `vstage serve --set-webhook-secret` (or POST \
                 /v2/user/webhook-secret). Live events are off meanwhile; widgets follow by polling."
            );
        }
    }

    /// Whether deliveries are failing verification (events should not be offered).
    pub fn is_failing(&self) -> bool {
        self.lock().failing
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_refusals_fails_until_one_verifies() {
        let verification = Verification::default();
        verification.refused();
        verification.refused();
        assert!(!verification.is_failing(), "two refusals may be strays");
        verification.refused();
        assert!(verification.is_failing());
        verification.verified();
        assert!(!verification.is_failing());
        for _ in 0..REFUSALS {
            verification.refused();
        }
        assert!(!verification.is_failing(), "a recent verified delivery vouches for the secret");
    }
}
