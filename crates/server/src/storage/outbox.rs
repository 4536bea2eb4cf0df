//! The host's webhooks waiting in the database (`host_outbox`): each event for each receiver, written in the
//! transaction of what it reports (`record_owners`, `record_kept`, `record_disclosure` and `receive_delivery` take them), then
//! claimed by one server at a time for a lease, in order per render and receiver, each receiver's apart from the
//! others' (so that one that hangs holds back only its own), and settled as sent, to be retried, or given up. A server killed mid-delivery leaves its claim to lapse, and another (or its restart)
//! sends it again: at least once.

use async_trait::async_trait;

use crate::error::ServerError;

/// One event for one receiver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    /// The event's id (`webhook-id`): the same for every receiver, and for every attempt.
    pub id: String,
    /// The receiver's address (`--host-webhook-url`).
    pub target: String,
    /// The render it is about, empty for an event about none (an allowance's): deliveries of one render go in
    /// order, and those about no render among themselves.
    pub render_id: String,
    /// `render.created`, `variation.done`, ...
    pub kind: String,
    /// The JSON body, signed as it is.
    pub payload: String,
    pub created_at: i64,
}

/// An entry claimed for delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub seq: i64,
    pub entry: OutboxEntry,
    /// Attempts so far, this one included.
    pub attempts: i64,
}

/// What became of an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    Sent,
    /// To be tried again at `at` (ms).
    Retry {
        at: i64,
        why: String,
    },
    /// Not tried again: its time is up.
    GaveUp {
        why: String,
    },
}

/// A delivery as `vstage deliveries list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeliveryRow {
    pub id: String,
    pub target: String,
    pub render_id: String,
    pub kind: String,
    pub created_at: i64,
    pub attempts: i64,
    /// `pending`, `sent` or `failed`.
    pub outcome: String,
    pub next_at: i64,
    pub settled_at: Option<i64>,
    pub last_error: String,
}

/// How many deliveries are pending, sent and failed, for the metrics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryCounts {
    pub pending: u64,
    pub sent: u64,
    pub failed: u64,
}

#[async_trait]
pub trait HostOutbox: Send + Sync {
    /// Claims up to `limit` entries for receiver `target` that are due at `now`, whose render has no earlier entry
    /// pending for that receiver, and that no server holds: each is held until `now + lease_ms`, its attempts
    /// counted. Each claimed entry is about another render (the earliest pending one of each): they may be sent
    /// at once.
    async fn claim_due(&self, target: &str, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<Claimed>, ServerError>;
    /// The receivers that have entries pending, those no longer named by `--host-webhook-url` included.
    async fn pending_targets(&self) -> Result<Vec<String>, ServerError>;
    /// Settles claimed entry `seq` at `now`.
    async fn settle_delivery(&self, seq: i64, attempt: Attempt, now: i64) -> Result<(), ServerError>;
    /// At most `limit` deliveries, newest first, of `outcome` (`pending`, `sent`, `failed`) or all.
    async fn deliveries(&self, outcome: Option<&str>, limit: i64) -> Result<Vec<DeliveryRow>, ServerError>;
    /// Sends event `id` again from `now` to each of its receivers, or to receiver `to` only, whatever became of it;
    /// how many were reset. An entry whose attempt is under way keeps its claim (it is not sent twice at once): what
    /// that attempt ends with stands.
    async fn retry_delivery(&self, id: &str, to: Option<&str>, now: i64) -> Result<u64, ServerError>;
    async fn delivery_counts(&self) -> Result<DeliveryCounts, ServerError>;
    /// Forgets the deliveries sent before `sent_before` and those given up before `failed_before`; how many.
    async fn forget_settled(&self, sent_before: i64, failed_before: i64) -> Result<u64, ServerError>;
}
