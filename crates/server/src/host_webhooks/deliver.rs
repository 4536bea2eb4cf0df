//! Delivering the outbox: every second, at once after this server wrote events (`HostWebhooks::wake`) and again
//! after a busy round, a server claims what is due, sends each
//! entry signed (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), and settles it:
//! a 2xx is sent; anything else (another status, no answer in ten seconds) is tried again after a delay that
//! starts at `first_retry` and doubles, up to an hour, until three days after the event, when it is given up. The
//! claim's lease outlives an attempt, so a server killed mid-delivery leaves the entry to another (or to its
//! restart) after half a minute.

use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, header};
use bytes::Bytes;

use super::HostWebhooks;
use crate::error::ServerError;
use crate::metrics::{Outcome, metrics};
use crate::storage::outbox::{Attempt, Claimed, OutboxEntry};
use crate::upstream::http_client::{HttpClient, Origin, Outgoing, Target};

/// How long a claim holds an entry from the other servers: three times what an attempt may take.
const LEASE_MS: i64 = 30_000;
/// How long a receiver has to answer.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an event is tried for.
const GIVE_UP_AFTER_MS: i64 = 3 * 24 * 3600 * 1000;
/// The longest delay between attempts.
const LONGEST_DELAY: Duration = Duration::from_secs(3600);
/// Entries claimed at once.
const BATCH: i64 = 16;
/// The pause when nothing was due.
const IDLE: Duration = Duration::from_secs(1);
/// How often settled deliveries past their time are forgotten (and at start).
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

impl HostWebhooks {
    /// Delivers the outbox for as long as the server runs.
    pub async fn deliver_forever(self: Arc<Self>) {
        let client = match HttpClient::new() {
            Ok(client) => client,
            Err(error) => {
                tracing::error!("the host's webhooks cannot be delivered: {error:#}");
                return;
            }
        };
        let mut pruned: Option<std::time::Instant> = None;
        loop {
            if pruned.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
                self.forget_settled().await;
                pruned = Some(std::time::Instant::now());
            }
            match self.deliver_due(&client).await {
                Ok(0) => self.until_due(IDLE).await,
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(%error, "could not read the host's webhooks' outbox; trying again");
                    tokio::time::sleep(IDLE).await;
                }
            }
        }
    }

    /// Forgets deliveries sent more than 30 days ago and given up more than 90 days ago: the outbox holds what is
    /// under way and a month's history (`vstage deliveries list`), not every event ever sent.
    async fn forget_settled(&self) {
        const DAY_MS: i64 = 24 * 60 * 60 * 1000;
        let now = vstage_api::time::now_millis();
        match self.store.forget_settled(now - 30 * DAY_MS, now - 90 * DAY_MS).await {
            Ok(0) => {}
            Ok(forgotten) => tracing::info!(forgotten, "settled host webhooks forgotten"),
            Err(error) => tracing::warn!(%error, "settled host webhooks could not be forgotten; trying again later"),
        }
    }

    /// Sends what is due now; how many entries were tried.
    pub async fn deliver_due(&self, client: &HttpClient) -> Result<usize, ServerError> {
        let claimed = self.store.claim_due(vstage_api::time::now_millis(), LEASE_MS, BATCH).await?;
        for claim in &claimed {
            let attempt = self.attempt(client, claim).await;
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
            self.store.settle_delivery(claim.seq, attempt, vstage_api::time::now_millis()).await?;
        }
        if !claimed.is_empty() {
            let pending = self.store.delivery_counts().await?.pending;
            metrics().host_webhooks_pending.set(i64::try_from(pending).unwrap_or(i64::MAX));
        }
        Ok(claimed.len())
    }

    /// One attempt at a claimed entry, and what follows from it.
    async fn attempt(&self, client: &HttpClient, claim: &Claimed) -> Attempt {
        let Err(why) = self.send(client, &claim.entry).await else { return Attempt::Sent };
        let now = vstage_api::time::now_millis();
        if now - claim.entry.created_at >= GIVE_UP_AFTER_MS {
            return Attempt::GaveUp { why };
        }
        Attempt::Retry { at: now + delay(self.first_retry, claim.attempts), why }
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
        let answer = client.call(&origin, request, &[], ATTEMPT_TIMEOUT).await.map_err(|e| e.to_string())?;
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
