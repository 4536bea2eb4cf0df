//! The live-event log: webhook deliveries stored once as events for their owner (or kept until claimed), read
//! again by a resuming stream, and announced to every server sharing the database.

use super::*;

/// One event of the log.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub id: i64,
    /// `""` while the render or analysis it is about has no known owner.
    pub subject: String,
    pub event_type: String,
    /// The webhook's JSON, as the service sent it.
    pub data: String,
}

/// The newest event id ever given, where a client without `Last-Event-ID` starts, and the newest one dropped from
/// the log (every id up to it is gone): a client that saw less than that has missed events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogBounds {
    pub newest: i64,
    pub dropped_through: i64,
}

/// A verified webhook delivery, to be stored as an event unless the same body was seen before.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// What it is about: the owner of `(kind, id)` gets the event.
    pub kind: Kind,
    pub id: String,
    /// The key under which an event without an owner waits to be claimed.
    pub resource: String,
    pub event_type: String,
    pub data: String,
    /// The body's SHA-256: a delivery seen within `seen_since` is a duplicate.
    pub digest: Vec<u8>,
    /// The creation this delivery names (the `creation` of our receiver's address): when the render or analysis
    /// has no recorded owner, the subject that started that creation becomes its owner. So a creation the
    /// service accepted is not lost when the server that sent it stopped before recording its answer.
    pub creation: Option<String>,
    /// Who gets an event whose owner is not recorded: `""` (kept for a later claim) or the open-access subject.
    pub unowned_subject: String,
    /// When it arrived (ms since the epoch).
    pub now: i64,
    /// Deliveries seen before this are forgotten (ms since the epoch).
    pub seen_since: i64,
    /// Events received before this leave the log (ms since the epoch).
    pub events_since: i64,
    /// The host's webhooks that report the event, made for its owner once the store knows it (none for an event
    /// kept unowned): they go into the outbox in the event's transaction.
    pub reported: Option<ReportFor>,
    /// The host's `render.created`, made for the creator of the render this delivery adopts (by `creation`): the
    /// render is reported created even when the creation's answer never came.
    pub created: Option<ReportFor>,
}

/// Makes the host's webhooks that report an event, for the subject that owns it.
pub type Reporter = dyn Fn(&str) -> Vec<OutboxEntry> + Send + Sync;

/// Makes the host's webhooks that report an event kept unowned, once a subject claims it (the event names it).
pub type ClaimReporter = dyn Fn(&StoredEvent) -> Vec<OutboxEntry> + Send + Sync;

/// A delivery's [`Reporter`], shared.
#[derive(Clone)]
pub struct ReportFor(pub std::sync::Arc<Reporter>);

impl std::fmt::Debug for ReportFor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReportFor(..)")
    }
}

impl Delivery {
    /// The host's webhooks that report this delivery for `subject`: none for an event kept unowned.
    pub fn reported_for(&self, subject: &str) -> Vec<OutboxEntry> {
        report_for(self.reported.as_ref(), subject)
    }

    /// The host's webhooks that report the render created, for `creator`, who adopts it.
    pub fn created_for(&self, creator: &str) -> Vec<OutboxEntry> {
        report_for(self.created.as_ref(), creator)
    }
}

fn report_for(reporter: Option<&ReportFor>, subject: &str) -> Vec<OutboxEntry> {
    match reporter {
        Some(ReportFor(report)) if !subject.is_empty() => report(subject),
        _ => Vec::new(),
    }
}

#[async_trait]
pub trait EventLog: Send + Sync {
    /// Stores a delivery as an event in one transaction with its owner's lookup (or its creation's) and the
    /// duplicate check: `None` when the same body was seen already. Old deliveries, creations and events are
    /// dropped on the way.
    async fn receive_delivery(&self, delivery: Delivery) -> Result<Option<StoredEvent>, ServerError>;
    /// Gives `subject` the events that arrived about `resources` before their owner was recorded, in id order;
    /// what `reported` makes of each claimed event goes into the outbox in the same transaction.
    async fn claim_events(
        &self,
        resources: &[String],
        subject: &str,
        reported: Option<Arc<ClaimReporter>>,
    ) -> Result<Vec<StoredEvent>, ServerError>;
    /// At most `limit` of `subject`'s events after `after`, in id order.
    async fn events_since(&self, subject: &str, after: i64, limit: i64) -> Result<Vec<StoredEvent>, ServerError>;
    async fn event_log_bounds(&self) -> Result<LogBounds, ServerError>;
    /// Every event stored or claimed by any server sharing the database, as it commits; `None` when the
    /// database is this server's alone.
    async fn event_feed(&self) -> Result<Option<BoxStream<'static, StoredEvent>>, ServerError>;
}
