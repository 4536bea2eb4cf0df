//! The listing site's backend in the loop: what happens in the studio is sent to the addresses the operator set
//! (`--host-webhook-url`), signed to the Standard Webhooks specification with `VSTAGE_HOST_WEBHOOK_SECRET`. Each
//! event (`events`: a render created, a variation done and kept or failed, a result chosen, an allowance low or
//! spent) is written to the database's outbox (`storage/outbox.rs`) in the transaction of what it reports, and
//! `deliver` sends it from there: at least once, in order per render, retried with growing delays for three days,
//! one server at a time.

pub mod deliver;
pub mod events;

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::storage::store::Store;

/// The environment variable holding the secret, in its `whsec_` form.
pub const SECRET_VARIABLE: &str = "VSTAGE_HOST_WEBHOOK_SECRET";

/// Where the host's webhooks go, and how they are signed and retried.
pub struct HostWebhooks {
    pub targets: Vec<String>,
    signer: standardwebhooks::Webhook,
    pub store: Arc<dyn Store>,
    /// The first delay after a failed attempt; it doubles each time, up to an hour.
    pub first_retry: Duration,
    /// Rung when this server has just written events, so that it sends them now rather than at its next round.
    due: tokio::sync::Notify,
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
        first_retry: Duration,
    ) -> anyhow::Result<Option<Arc<HostWebhooks>>> {
        if targets.is_empty() {
            return Ok(None);
        }
        for target in targets {
            let parsed =
                url::Url::parse(target).with_context(|| format!("--host-webhook-url {target} is not a URL"))?;
            anyhow::ensure!(
                matches!(parsed.scheme(), "http" | "https"),
                "--host-webhook-url {target} must be an http or https address"
            );
        }
        let secret = secret.filter(|secret| !secret.trim().is_empty()).with_context(|| {
            format!("--host-webhook-url needs {SECRET_VARIABLE} (whsec_ then base64 of 24 to 64 random bytes)")
        })?;
        let signer = standardwebhooks::Webhook::new(secret.trim())
            .map_err(|e| anyhow::anyhow!("{SECRET_VARIABLE} is not whsec_ then base64: {e}"))?;
        let due = tokio::sync::Notify::new();
        Ok(Some(Arc::new(HostWebhooks { targets: targets.to_vec(), signer, store, first_retry, due })))
    }

    /// Says that events were just written to the outbox (their transaction committed): this server's deliverer
    /// sends them now. Another server's finds them at its next round, within a second.
    pub fn wake(&self) {
        self.due.notify_one();
    }

    /// Waits until [`Self::wake`] or `idle` has passed, whichever is first.
    async fn until_due(&self, idle: Duration) {
        tokio::select! {
            () = self.due.notified() => {}
            () = tokio::time::sleep(idle) => {}
        }
    }

    /// The `webhook-signature` header's value for a message.
    pub fn sign(&self, id: &str, timestamp_s: i64, payload: &str) -> Result<String, String> {
        self.signer.sign(id, timestamp_s, payload.as_bytes()).map_err(|e| e.to_string())
    }
}
