//! The listing site's backend in the loop: what happens in the studio is sent to the addresses the operator set
//! (`--host-webhook-url`), signed to the Standard Webhooks specification with `VSTAGE_HOST_WEBHOOK_SECRET`. Each
//! event (`events`: a render created, a variation done and kept or failed, a result chosen, an allowance low or
//! spent) is written to the database's outbox (`storage/outbox.rs`) in the transaction of what it reports, and
//! `deliver` sends it from there: at least once, in order per render, retried with growing delays for three days,
//! one server at a time, each receiver in a lane of its own (`lanes`) so that one that hangs delays no other.

pub mod deliver;
pub mod events;
pub mod lanes;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::storage::store::Store;

/// The environment variable holding the secret, in its `whsec_` form.
pub const SECRET_VARIABLE: &str = "VSTAGE_HOST_WEBHOOK_SECRET";

/// How the host's webhooks are sent: when a failed one is tried again, and each receiver's bounds.
#[derive(Debug, Clone, Copy)]
pub struct Pacing {
    /// The first delay after a failed attempt; it doubles each time, up to an hour.
    pub first_retry: Duration,
    /// How long a receiver has to answer an attempt (`--host-webhook-timeout-s`).
    pub attempt_timeout: Duration,
    /// Attempts under way at once to one receiver, each about another render (`--host-webhook-concurrency`).
    pub per_receiver: usize,
}

/// Where the host's webhooks go, and how they are signed and retried.
pub struct HostWebhooks {
    pub targets: Vec<String>,
    signer: standardwebhooks::Webhook,
    pub store: Arc<dyn Store>,
    pub pacing: Pacing,
    /// Counts up when this server has just written events, so that every lane sends them now rather than at its
    /// next round.
    due: tokio::sync::watch::Sender<u64>,
}

impl std::fmt::Debug for HostWebhooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostWebhooks").field("targets", &self.targets).finish_non_exhaustive()
    }
}

impl HostWebhooks {
    /// The webhooks to `targets`, signed with `secret` (`whsec_` and base64); `None` without targets. A target
    /// without a secret, or a secret that is not base64, is refused with what to do.
    pub fn new(
        targets: &[String],
        secret: Option<&str>,
        store: Arc<dyn Store>,
        pacing: Pacing,
    ) -> anyhow::Result<Option<Arc<HostWebhooks>>> {
        if targets.is_empty() {
            return Ok(None);
        }
        for target in targets {
            let shown = crate::upstream::without_credentials(target);
            let parsed = url::Url::parse(target).with_context(|| format!("--host-webhook-url {shown} is not a URL"))?;
            anyhow::ensure!(
                matches!(parsed.scheme(), "http" | "https"),
                "--host-webhook-url {shown} must be an http or https address"
            );
            // A password in the address would travel in the Host header and stand in the log and in `vstage
            // deliveries list`: the receiver checks the signature instead.
            anyhow::ensure!(
                parsed.username().is_empty() && parsed.password().is_none() && parsed.fragment().is_none(),
                "--host-webhook-url {shown} must be an address without a user, password or #fragment: your backend \
                 knows a delivery by its signature (VSTAGE_HOST_WEBHOOK_SECRET)"
            );
        }
        let secret = secret.filter(|secret| !secret.trim().is_empty()).with_context(|| {
            format!("--host-webhook-url needs {SECRET_VARIABLE} (whsec_ then base64 of 24 to 64 random bytes)")
        })?;
        let signer = standardwebhooks::Webhook::new(secret.trim())
            .map_err(|e| anyhow::anyhow!("{SECRET_VARIABLE} is not whsec_ then base64: {e}"))?;
        let pacing = Pacing { per_receiver: pacing.per_receiver.max(1), ..pacing };
        let (due, _) = tokio::sync::watch::channel(0);
        Ok(Some(Arc::new(HostWebhooks { targets: targets.to_vec(), signer, store, pacing, due })))
    }

    /// Says that events were just written to the outbox (their transaction committed): this server's lanes send
    /// them now. Another server's find them at their next round, within a second.
    pub fn wake(&self) {
        self.due.send_modify(|written| *written = written.wrapping_add(1));
    }

    /// The `webhook-signature` header's value for a message.
    pub fn sign(&self, id: &str, timestamp_s: i64, payload: &str) -> Result<String, String> {
        self.signer.sign(id, timestamp_s, payload.as_bytes()).map_err(|e| e.to_string())
    }
}
