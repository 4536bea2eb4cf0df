//! `POST /api/webhooks/service`: the service's webhook deliveries, verified over the exact bytes before anything
//! reads them, answered 200 at once, duplicates (the service retries) dropped, and published as live events.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use anyhow::Context;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderName};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use vstage_api::WebhookEvent;
use vstage_api::signature::Encoding;
use vstage_api::time::now_millis;

use crate::access::{Access, OPEN_SUBJECT};
use crate::error::ServerError;
use crate::host_webhooks::HostWebhooks;
use crate::live::events::Events;
use crate::live::verification::Verification;
use crate::metrics::metrics;
use crate::results::kept::KeptResults;
use crate::storage::ownership::Kind;
use crate::storage::store::{Delivery, ReportFor, StoredEvent};

/// A webhook body is a small JSON object.
pub const BODY_LIMIT: usize = 256 * 1024;
/// Deliveries already seen are remembered this long (the service retries within minutes).
pub const SEEN_FOR_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// How far ahead of this server's clock a delivery may be dated (clocks drift); one dated further ahead would
/// outlive the duplicate window and could be sent again once forgotten.
const AHEAD_MS: i64 = 5 * 60 * 1000;

/// The shared secret the service signs with. A secret set or removed through the proxy is kept in the data dir
/// with a digest of the `VSTAGE_WEBHOOK_SECRET` it replaced: after a restart it is used while the environment
/// still holds that value (the service signs with the newer one), and an environment changed since wins.
pub struct WebhookSecret {
    secret: RwLock<Option<String>>,
    file: Option<PathBuf>,
    /// SHA-256 (hex) of `VSTAGE_WEBHOOK_SECRET` at start (of `""` when unset).
    env_digest: String,
}

/// Whether a secret is set, never the secret.
impl std::fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = self.secret.read().map(|secret| secret.is_some()).unwrap_or(false);
        f.debug_struct("WebhookSecret").field("set", &set).field("file", &self.file).finish_non_exhaustive()
    }
}

/// What `webhook-secret.json` holds.
#[derive(Serialize, Deserialize)]
struct KeptSecret {
    /// `None`: removed through the proxy.
    secret: Option<String>,
    replaced_env_sha256: String,
}

impl WebhookSecret {
    /// The secret from the environment, or the one kept in `file` when it was set over this same environment.
    pub fn load(from_env: Option<String>, file: Option<PathBuf>) -> anyhow::Result<Self> {
        let env_digest = hex::encode(Sha256::digest(from_env.as_deref().unwrap_or_default()));
        let mut secret = from_env;
        if let Some(path) = &file {
            match std::fs::read(path) {
                Ok(bytes) => {
                    let kept: KeptSecret = serde_json::from_slice(&bytes).with_context(|| {
                        format!("{} is damaged; delete it to use VSTAGE_WEBHOOK_SECRET", path.display())
                    })?;
                    if kept.replaced_env_sha256 == env_digest {
                        tracing::info!("using the webhook secret last set through this server");
                        secret = kept.secret;
                    } else {
                        tracing::info!(
                            "VSTAGE_WEBHOOK_SECRET changed since a secret was set through this server; using it"
                        );
                    }
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
            }
        }
        Ok(WebhookSecret { secret: RwLock::new(secret), file, env_digest })
    }

    /// Whether there is a secret; asked at every delivery, so it looks without copying it.
    pub fn is_set(&self) -> bool {
        self.secret.read().unwrap_or_else(|poisoned| poisoned.into_inner()).is_some()
    }

    pub fn current(&self) -> Option<String> {
        self.secret.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// Adopts a secret set (or removed, `None`) through the proxy, so verification keeps working, and keeps it
    /// for the next start.
    pub fn replace(&self, secret: Option<String>) -> anyhow::Result<()> {
        *self.secret.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = secret.clone();
        let Some(file) = &self.file else { return Ok(()) };
        let kept = KeptSecret { secret, replaced_env_sha256: self.env_digest.clone() };
        crate::secret::write_private(file, &serde_json::to_string(&kept)?)
    }

    /// Whether `signature`, written as `encoding` says, is that of `body` under the secret (see
    /// `vstage_api::signature`).
    pub fn verifies(&self, body: &[u8], signature: &str, encoding: Encoding) -> bool {
        let guard = self.secret.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        guard.as_deref().is_some_and(|secret| vstage_api::signature::verifies_as(encoding, secret, body, signature))
    }
}

#[derive(Debug)]
pub struct WebhookReceiver {
    pub secret: Arc<WebhookSecret>,
    pub access: Arc<Access>,
    pub events: Arc<Events>,
    /// Where a finished variation's images are copied.
    pub kept: Arc<KeptResults>,
    /// Whether deliveries verify, which decides whether live events are offered.
    pub verification: Arc<Verification>,
    /// Where a delivery's signature is and how it is written (`--webhook-signature-header`, `-encoding`).
    pub signature: SignatureFormat,
    /// The listing site's backend, told of each variation the service failed (`variation.failed`).
    pub host_webhooks: Option<Arc<HostWebhooks>>,
}

/// The header a delivery's signature comes in and its encoding: settings, since the service's public docs do not
/// show them.
#[derive(Debug, Clone)]
pub struct SignatureFormat {
    pub header: HeaderName,
    pub encoding: Encoding,
}

/// Our receiver's address as the proxy gives it to the service with each creation.
#[derive(Debug, Deserialize)]
pub struct ReceiverQuery {
    /// The creation the delivery is about (see `Delivery::creation`).
    creation: Option<String>,
}

/// `POST /api/webhooks/service`.
pub async fn receive(
    State(receiver): State<Arc<WebhookReceiver>>,
    Query(address): Query<ReceiverQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ServerError> {
    receiver.verify(&headers, &body)?;
    let event: WebhookEvent = serde_json::from_slice(&body)
        .map_err(|e| ServerError::BadRequest(format!("The webhook body is not a delivery this server reads: {e}")))?;
    let Some((kind, id)) = about(&event) else {
        tracing::info!("a webhook delivery about no render or analysis; acknowledged and ignored");
        return Ok(acknowledged());
    };
    let now = now_millis();
    in_time(&event, now)?;
    let delivery = receiver.delivery(&event, (kind, id), &body, address.creation.clone(), now)?;
    let resource = delivery.resource.clone();
    let stored = receiver.events.receive(delivery).await?;
    if let (Some(hooks), WebhookEvent::Error(_)) = (&receiver.host_webhooks, &event) {
        hooks.wake();
    }
    metrics().webhook(if stored.is_some() { "received" } else { "duplicate" });
    let Some(stored) = stored else {
        tracing::debug!("dropped a duplicate webhook delivery");
        return Ok(acknowledged());
    };
    // Its follow-up first: the delivery is stored, and a retry of it would be a duplicate.
    receiver.take_in(&event, &stored);
    // Owned through its creation just now: the events that waited for an owner are its creator's too.
    if address.creation.is_some() && !stored.subject.is_empty() {
        receiver.events.claim(vec![resource], &stored.subject).await?;
    }
    Ok(acknowledged())
}

impl WebhookReceiver {
    /// Refuses a delivery when this server has no secret to check it with, or its signature does not verify.
    fn verify(&self, headers: &HeaderMap, body: &[u8]) -> Result<(), ServerError> {
        if !self.secret.is_set() {
            return Err(ServerError::Unavailable(
                "This server has no webhook secret; set VSTAGE_WEBHOOK_SECRET to the secret configured on the service."
                    .into(),
            ));
        }
        let format = &self.signature;
        let signature = headers.get(&format.header).and_then(|value| value.to_str().ok()).unwrap_or_default();
        if !self.secret.verifies(body, signature, format.encoding) {
            self.verification.refused();
            metrics().webhook("refused");
            return Err(ServerError::Unauthorized("The webhook signature does not verify.".into()));
        }
        self.verification.verified();
        Ok(())
    }

    /// The delivery to store of `event` about `(kind, id)`, which arrived `now` as `body`, naming `creation`.
    fn delivery(
        &self,
        event: &WebhookEvent,
        (kind, id): (Kind, String),
        body: &[u8],
        creation: Option<String>,
        now: i64,
    ) -> Result<Delivery, ServerError> {
        let event_type = event_name(event.event_type());
        let data = published(event, &event_type, &id)?;
        // Every creation through the proxy is recorded with its subject. With tokens an event that arrives first
        // is kept unowned until the creation claims it; in open access what nobody owns goes to the local subject.
        let unowned_subject = match self.access.as_ref() {
            Access::Open { .. } => OPEN_SUBJECT.to_string(),
            Access::Token(_) => String::new(),
        };
        let window = i64::try_from(self.events.window().as_millis()).unwrap_or(i64::MAX);
        let created = created(self.host_webhooks.clone(), kind, &id, now);
        Ok(Delivery {
            resource: resource_key(kind, &id),
            kind,
            id,
            event_type,
            data,
            digest: Sha256::digest(body).to_vec(),
            creation,
            unowned_subject,
            now,
            // Remembered past the oldest delivery taken by as much as one may be dated ahead: never forgotten
            // while it could be taken again.
            seen_since: now - SEEN_FOR_MS - AHEAD_MS,
            events_since: now.saturating_sub(window),
            reported: reported(self.host_webhooks.clone(), event, now),
            created,
        })
    }

    /// A finished variation's images copied as soon as its owner is known.
    fn take_in(&self, event: &WebhookEvent, stored: &StoredEvent) {
        if let WebhookEvent::Done(done) = event {
            let kind = done.variation_type.clone();
            self.kept.keep_later(&stored.subject, &done.render_id, &done.variation_id, kind, &done.result);
        }
    }
}

/// The render or analysis a delivery is about; `None` for neither.
fn about(event: &WebhookEvent) -> Option<(Kind, String)> {
    match (event, event.render_id()) {
        (_, Some(render_id)) => Some((Kind::Render, render_id.to_string())),
        (WebhookEvent::AnalysisCompletion(analysis), _) => Some((Kind::Analysis, analysis.analysis_id.clone())),
        (WebhookEvent::AnalysisError(analysis), _) => Some((Kind::Analysis, analysis.analysis_id.clone())),
        _ => None,
    }
}

/// Refuses a delivery older than the duplicate window (one captured and sent again once forgotten), with no
/// timestamp, or dated ahead of this server's clock.
fn in_time(event: &WebhookEvent, now: i64) -> Result<(), ServerError> {
    if event.sent_at().is_none_or(|sent_at| sent_at < now - SEEN_FOR_MS) {
        tracing::warn!("refused a webhook delivery older than the duplicate window, or with no timestamp");
        metrics().webhook("refused");
        return Err(ServerError::BadRequest(format!(
            "The webhook delivery is older than {} days, or has no timestamp; it is not taken.",
            SEEN_FOR_MS / (24 * 60 * 60 * 1000)
        )));
    }
    if event.sent_at().is_some_and(|sent_at| sent_at > now + AHEAD_MS) {
        tracing::warn!("refused a webhook delivery dated ahead of this server's clock");
        metrics().webhook("refused");
        return Err(ServerError::BadRequest(format!(
            "The webhook delivery is dated more than {} minutes ahead of this server's clock; check both clocks.",
            AHEAD_MS / 60_000
        )));
    }
    Ok(())
}

/// The host's webhooks that report `event` (a variation failed), made once its owner is known.
fn reported(hooks: Option<Arc<HostWebhooks>>, event: &WebhookEvent, now: i64) -> Option<ReportFor> {
    let (Some(hooks), WebhookEvent::Error(failed)) = (hooks, event) else { return None };
    let failed = failed.clone();
    Some(ReportFor(Arc::new(move |subject: &str| hooks.variation_failed(subject, &failed, now))))
}

/// The host's `render.created` for a render a delivery adopts (`Delivery::created`); none for an analysis.
fn created(hooks: Option<Arc<HostWebhooks>>, kind: Kind, id: &str, now: i64) -> Option<ReportFor> {
    let hooks = hooks.filter(|_| kind == Kind::Render)?;
    let id = [id.to_string()];
    Some(ReportFor(Arc::new(move |creator: &str| hooks.renders_created(creator, &id, now))))
}

fn acknowledged() -> Json<Value> {
    Json(json!({ "message": "received" }))
}

/// The key under which events about a render or analysis wait for their owner.
pub fn resource_key(kind: Kind, id: &str) -> String {
    format!("{kind:?}:{id}")
}

/// What the live stream carries of a delivery: the event as this server read it. One of a kind the contract does
/// not have goes on as its name, its render or analysis and its time only; one that names a kind the contract
/// has but is not of its shape is refused.
fn published(event: &WebhookEvent, event_type: &str, id: &str) -> Result<String, ServerError> {
    let read = match event {
        WebhookEvent::Unknown(_) if vstage_api::webhook::EVENT_TYPES.contains(&event_type) => {
            return Err(ServerError::BadRequest(format!(
                "The webhook delivery says `{event_type}` but is not the contract's shape for it; it is not taken."
            )));
        }
        WebhookEvent::Unknown(_) => {
            serde_json::json!({"event_type": event_type, "id": id, "timestamp": event.sent_at()})
        }
        known => serde_json::to_value(known).map_err(|e| ServerError::Internal(e.to_string()))?,
    };
    Ok(read.to_string())
}

/// An SSE event name: the webhook's `event_type` when it is a plain word and not one of the stream's own
/// (`events::OWN_EVENTS`: a delivery named `reset` would have the widget read everything again), else `unknown`.
fn event_name(event_type: Option<&str>) -> String {
    match event_type {
        Some(name) if super::events::OWN_EVENTS.contains(&name) => "unknown".into(),
        Some(name) if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => name.into(),
        _ => "unknown".into(),
    }
}

/// Through the whole app, in-process, and its parts alone.
#[cfg(test)]
mod tests;
