//! Whether the service's webhook deliveries verify here, for the operator: deliveries that keep failing
//! verification, with none verified since, mean the service signs with another secret than
//! `VSTAGE_WEBHOOK_SECRET` (or that someone sends forgeries). It is said once a run in the log, counted in
//! `/metrics` and named in `/readyz`'s `webhooks`, and changes nothing anyone is offered: a refused delivery is one
//! anybody can send, so it is no evidence to act on. Widgets following events keep a slow safety check of their
//! own, so a wrong secret costs them latency, not results.

use std::sync::Mutex;

use serde::Serialize;

/// Refused deliveries in a row, with none verified, before the log says the secrets may differ.
const REFUSALS: u64 = 3;

#[derive(Debug, Default)]
pub struct Verification {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    refused_since_verified: u64,
    any_verified: bool,
}

/// What the last deliveries say, as `/readyz` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Deliveries {
    /// No delivery has come since this server started.
    NoneYet,
    /// The last delivery verified.
    Verifying,
    /// Deliveries were refused since the last one that verified (or since start): check the secret.
    Refused,
}

impl Verification {
    pub fn verified(&self) {
        let mut state = self.lock();
        if state.refused_since_verified >= REFUSALS {
            tracing::warn!(refused = state.refused_since_verified, "webhook deliveries verify again");
        }
        *state = State { refused_since_verified: 0, any_verified: true };
    }

    pub fn refused(&self) {
        let mut state = self.lock();
        state.refused_since_verified = state.refused_since_verified.saturating_add(1);
        if state.refused_since_verified == 1 {
            tracing::warn!("refused a webhook delivery whose signature does not verify");
        } else if state.refused_since_verified == REFUSALS {
            tracing::error!(
                refused_in_a_row = REFUSALS,
                "webhook deliveries keep failing verification: the service may sign them with another secret than \
                 VSTAGE_WEBHOOK_SECRET (set it with `vstage serve --set-webhook-secret`, or POST \
                 /v2/user/webhook-secret), or someone sends forged ones. Live events stay on; widgets also check \
                 slowly by themselves. Refusals are counted in /metrics as vstage_webhooks_total{{outcome=\"refused\"}}."
            );
        }
    }

    /// What the deliveries since start say.
    pub fn deliveries(&self) -> Deliveries {
        let state = self.lock();
        match (state.refused_since_verified, state.any_verified) {
            (0, false) => Deliveries::NoneYet,
            (0, true) => Deliveries::Verifying,
            _ => Deliveries::Refused,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_reported_until_one_verifies() {
        let verification = Verification::default();
        assert_eq!(verification.deliveries(), Deliveries::NoneYet);
        verification.refused();
        assert_eq!(verification.deliveries(), Deliveries::Refused);
        verification.verified();
        assert_eq!(verification.deliveries(), Deliveries::Verifying);
    }
}
