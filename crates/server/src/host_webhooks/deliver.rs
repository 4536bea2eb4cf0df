//! Delivering one claimed entry: it is sent signed (`webhook-id`, `webhook-timestamp`, `webhook-signature:
//! v1,<base64 HMAC-SHA256>`) and settled: a 2xx is sent; anything else (another status, no answer within the
//! attempt's time-out, ten seconds unless told) is tried again after a delay that starts at `first_retry` and
//! doubles, up to an hour, until three days after the event, when it is given up. The claim's lease is three times
//! the attempt's time-out, so a server killed mid-delivery leaves the entry to another (or to its restart) once it
//! lapses. Which entries are claimed, and how many at once, is each receiver's lane's (`lanes.rs`).

use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, header};
use bytes::Bytes;

use super::HostWebhooks;
use crate::metrics::{Outcome, metrics};
use crate::storage::outbox::{Attempt, Claimed, OutboxEntry};
use crate::upstream::http_client::{HttpClient, Origin, Outgoing, Target};

/// How long an event is tried for.
const GIVE_UP_AFTER_MS: i64 = 3 * 24 * 3600 * 1000;
/// The longest delay between attempts.
const LONGEST_DELAY: Duration = Duration::from_secs(3600);

impl HostWebhooks {
    /// How long a claim holds an entry from the other servers: three times what an attempt may take.
    pub fn lease_ms(&self) -> i64 {
        i64::try_from(self.pacing.attempt_timeout.as_millis()).unwrap_or(i64::MAX / 4).saturating_mul(3)
    }

    /// Sends a claimed entry and settles it: sent, to be retried, or given up.
    pub async fn deliver(self: Arc<Self>, client: HttpClient, claim: Claimed) {
        let attempt = self.attempt(&client, &claim).await;
        let outcome = match &attempt {
            Attempt::Sent => "sent",
            Attempt::Retry { .. } => "retried",
            Attempt::GaveUp { .. } => "failed",
        };
        metrics().host_webhooks.get_or_create(&Outcome { outcome }).inc();
        if let Attempt::Retry { why, .. } | Attempt::GaveUp { why } = &attempt {
            let (id, target) = (&claim.entry.id, &claim.entry.target);
            tracing::warn!(id, target, attempts = claim.attempts, why, outcome, "a host webhook was not taken");
        }
        if let Err(error) = self.store.settle_delivery(claim.seq, attempt, vstage_api::time::now_millis()).await {
            // The claim lapses and the entry is sent again: at least once.
            tracing::warn!(%error, id = claim.entry.id, "a host webhook's delivery could not be recorded");
        }
    }

    /// One attempt at a claimed entry, and what follows from it.
    async fn attempt(&self, client: &HttpClient, claim: &Claimed) -> Attempt {
        let Err(why) = self.send(client, &claim.entry).await else { return Attempt::Sent };
        let now = vstage_api::time::now_millis();
        if now - claim.entry.created_at >= GIVE_UP_AFTER_MS {
            return Attempt::GaveUp { why };
        }
        Attempt::Retry { at: now + delay(self.pacing.first_retry, claim.attempts), why }
    }

    /// Posts the entry to its receiver, signed now; `Err` says why it was not taken.
    async fn send(&self, client: &HttpClient, entry: &OutboxEntry) -> Result<(), String> {
        let url = url::Url::parse(&entry.target).map_err(|e| e.to_string())?;
        let origin = Origin::of(&entry.target)?;
        let path = match url.query() {
            Some(query) => format!("{}?{query}", url.path()),
            None => url.path().to_string(),
        };
        let timestamp = vstage_api::time::now_millis() / 1000;
        let signature = self.sign(&entry.id, timestamp, &entry.payload)?;
        let mut headers = HeaderMap::new();
        let value = |text: &str| HeaderValue::from_str(text).map_err(|e| e.to_string());
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(header::USER_AGENT, HeaderValue::from_static("vstage-host-webhooks"));
        headers.insert(HeaderName::from_static("webhook-id"), value(&entry.id)?);
        headers.insert(HeaderName::from_static("webhook-timestamp"), value(&timestamp.to_string())?);
        headers.insert(HeaderName::from_static("webhook-signature"), value(&signature)?);
        let target = Target::new(path).map_err(|e| e.to_string())?;
        let request = Outgoing { method: Method::POST, target, headers, body: Bytes::from(entry.payload.clone()) };
        let answer =
            client.call(&origin, request, &[], self.pacing.attempt_timeout).await.map_err(|e| e.to_string())?;
        match answer.status.is_success() {
            true => Ok(()),
            false => Err(format!("HTTP {}", answer.status.as_u16())),
        }
    }
}

/// The delay after attempt `attempts` (1 for the first): `first`, doubled for each attempt after the first, at
/// most an hour.
fn delay(first: Duration, attempts: i64) -> i64 {
    let doublings = u32::try_from(attempts.saturating_sub(1)).unwrap_or(u32::MAX).min(20);
    let delay = first.saturating_mul(2u32.saturating_pow(doublings)).min(LONGEST_DELAY);
    i64::try_from(delay.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_doubles_from_the_first_up_to_an_hour() {
        let first = Duration::from_secs(5);
        let delays: Vec<i64> = (1..=5).map(|attempts| delay(first, attempts)).collect();
        assert_eq!(delays, [5_000, 10_000, 20_000, 40_000, 80_000]);
        assert_eq!(delay(first, 40), 3_600_000);
        assert_eq!(delay(first, i64::MAX), 3_600_000);
    }
}
