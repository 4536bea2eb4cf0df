//! The one interface to what the server keeps in its database: ownership, webhook deliveries seen, the event log,
//! uploads' sizes, listing boards and kept results; SQLite (`sqlite.rs`) and PostgreSQL (`postgres.rs`) behind it.
//!
//! Each method is one unit of work (one transaction where it writes more than one row), so the callers hold no SQL
//! and both databases pass the same tests (`contract_tests.rs`).

use std::sync::Arc;

use async_trait::async_trait;
use futures_util::stream::BoxStream;
use vstage_api::board::{Board, BoardRender};
use vstage_api::usage::{Cost, UsageKind, UsageLevel};

use super::outbox::{HostOutbox, OutboxEntry};
use crate::error::ServerError;
use crate::metrics::PoolState;

/// The kinds of thing a subject owns; each has its own id space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Render,
    Analysis,
    V1Render,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Render => "render",
            Kind::Analysis => "analysis",
            Kind::V1Render => "v1_render",
        }
    }
}

/// One page of a subject's render ids, in the order asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedPage {
    pub ids: Vec<String>,
    pub next_cursor: Option<String>,
    pub total: u64,
}

impl OwnedPage {
    /// A page from the ids read, up to `limit + 1` of them (one more says that another page follows), and the
    /// total.
    pub(super) fn from_rows(mut ids: Vec<String>, limit: u32, total: i64) -> Self {
        let next_cursor = if ids.len() > limit as usize {
            ids.truncate(limit as usize);
            ids.last().cloned()
        } else {
            None
        };
        OwnedPage { ids, next_cursor, total: total.max(0) as u64 }
    }
}

/// A cursor that is not one of the subject's ids.
pub(super) fn not_a_cursor(cursor: &str) -> ServerError {
    ServerError::BadRequest(format!("cursor: `{cursor}` is not one of your renders; start again from the first page."))
}

/// A board that would hold more than `max` renders.
pub(super) fn board_full(max: usize) -> ServerError {
    ServerError::Conflict(format!("A board holds at most {max} renders; take some off or start a new board."))
}

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
        match &self.reported {
            Some(ReportFor(report)) if !subject.is_empty() => report(subject),
            _ => Vec::new(),
        }
    }
}

/// An upload's record: its file name, whose it is and its size.
#[derive(Debug, Clone)]
pub struct UploadRecord {
    pub name: String,
    pub subject: String,
    pub bytes: u64,
    pub stored_at: i64,
}

/// One kept file of a finished variation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptFile {
    pub render_id: String,
    pub variation_id: String,
    pub file: String,
    pub image_index: u32,
    /// `url`, `optimized_url` or `thumbnail_url`.
    pub role: String,
    pub subject: String,
    pub bytes: u64,
    pub kept_at: i64,
    /// Removed by its owner or the retention period: never copied again.
    pub removed: bool,
}

/// A result chosen for a listing, as recorded (`disclosure/`): the facts, from which the words are made in the
/// language asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisclosureRecord {
    pub id: String,
    pub subject: String,
    pub created_at: i64,
    pub render_id: String,
    pub variation_id: String,
    pub image_index: u32,
    /// The variation's type as the service names it (`staging`), `""` when it gave none.
    pub variation_type: String,
    /// The staging style, `""` for none.
    pub style: String,
    /// Whether the room's furniture was taken out (removal, or staging that removed first).
    pub furniture_removed: bool,
    /// The profile's name (`smart-mls`) and the listing's language (`de`).
    pub profile: String,
    pub lang: String,
    /// The kept file shown (`render/variation/file`), labelled when the profile asks for a watermark.
    pub photo_file: String,
    /// The kept original photo (`render/original.jpg`).
    pub original_file: String,
}

impl DisclosureRecord {
    /// What makes two records one choice: `choice_of` its subject, result, profile and language.
    pub fn choice(&self) -> String {
        choice_of(&self.subject, &self.render_id, &self.variation_id, self.image_index, &self.profile, &self.lang)
    }
}

/// The same subject choosing the same image of the same result for the same profile and language makes one
/// record, however often it asks.
pub fn choice_of(subject: &str, render_id: &str, variation_id: &str, index: u32, profile: &str, lang: &str) -> String {
    // Ids, profile and language names never hold a line feed; a subject might, so it goes last.
    format!("{render_id}\n{variation_id}\n{index}\n{profile}\n{lang}\n{subject}")
}

/// Where a page of disclosure records (newest first) goes on: after the record made at `created_at` with `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisclosureCursor {
    pub created_at: i64,
    pub id: String,
}

impl DisclosureCursor {
    /// The cursor after `record`.
    pub fn after(record: &DisclosureRecord) -> Self {
        DisclosureCursor { created_at: record.created_at, id: record.id.clone() }
    }

    /// As a caller passes it on: `created_at.id`.
    pub fn encoded(&self) -> String {
        format!("{}.{}", self.created_at, self.id)
    }

    pub fn decoded(text: &str) -> Result<Self, ServerError> {
        let refused = || {
            ServerError::BadRequest(format!(
                "cursor: `{text}` is not a page of disclosures; start again from the first page."
            ))
        };
        let (at, id) = text.split_once('.').ok_or_else(refused)?;
        Ok(DisclosureCursor { created_at: at.parse().map_err(|_| refused())?, id: id.to_string() })
    }
}

/// A subject's own allowance of one kind, as `vstage allowance set` stores it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Setting {
    /// `--allowance`'s, or none.
    #[default]
    Default,
    Unlimited,
    Photos(u64),
}

impl Setting {
    /// The photos allowed, given the default; `None` for no limit.
    pub fn limit(self, default: Option<u64>) -> Option<u64> {
        match self {
            Setting::Default => default,
            Setting::Unlimited => None,
            Setting::Photos(photos) => Some(photos),
        }
    }

    /// As the database keeps it: NULL for the default, -1 for unlimited.
    pub fn stored(self) -> Option<i64> {
        match self {
            Setting::Default => None,
            Setting::Unlimited => Some(-1),
            Setting::Photos(photos) => Some(photos.min(i64::MAX as u64) as i64),
        }
    }

    pub fn from_stored(stored: Option<i64>) -> Setting {
        match stored {
            None => Setting::Default,
            Some(photos) if photos < 0 => Setting::Unlimited,
            Some(photos) => Setting::Photos(photos as u64),
        }
    }
}

/// A subject's own allowance, per kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SubjectAllowance {
    pub staging: Setting,
    pub image_editing: Setting,
}

impl SubjectAllowance {
    /// As the database keeps it (`Setting::stored`).
    pub fn from_stored(staging: Option<i64>, image_editing: Option<i64>) -> Self {
        SubjectAllowance { staging: Setting::from_stored(staging), image_editing: Setting::from_stored(image_editing) }
    }

    pub fn get(&self, kind: UsageKind) -> Setting {
        match kind {
            UsageKind::Staging => self.staging,
            UsageKind::ImageEditing => self.image_editing,
        }
    }
}

/// Photos per kind every subject may use in a period unless its own allowance says otherwise (`--allowance`);
/// `None` for no limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    pub staging: Option<u64>,
    pub image_editing: Option<u64>,
}

impl Limits {
    pub fn get(&self, kind: UsageKind) -> Option<u64> {
        match kind {
            UsageKind::Staging => self.staging,
            UsageKind::ImageEditing => self.image_editing,
        }
    }
}

/// What a creation may cost, charged to its subject before it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    pub id: String,
    pub subject: String,
    pub cost: Cost,
    /// What it is for: `render`, `bulk renders`, `v1 render`.
    pub what: String,
    pub at: i64,
}

/// Whether a reservation was charged, with the warning levels it brought allowances to, or which kind's allowance
/// could not cover it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reserved {
    Charged { reached: Vec<LevelReached> },
    Refused { kind: UsageKind, used: u64, limit: u64 },
}

/// A kind of a subject's allowance that a charge brought to a warning level: 80 % of it used, or all of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelReached {
    pub kind: UsageKind,
    pub level: UsageLevel,
    /// Photos used with the charge, of `limit`.
    pub used: u64,
    pub limit: u64,
}

impl LevelReached {
    /// What charging `photos` more of `kind`, with `used` of `limit` used before, reaches (`UsageLevel::reached`).
    pub fn by_charge(kind: UsageKind, used: u64, photos: u64, limit: u64) -> Option<LevelReached> {
        let after = used.saturating_add(photos);
        UsageLevel::reached(used, after, limit).map(|level| LevelReached { kind, level, used: after, limit })
    }
}

/// The events reporting a level a charge reached (the host's webhooks), written in the charge's transaction.
pub type LevelReports = std::sync::Arc<dyn Fn(&LevelReached) -> Vec<OutboxEntry> + Send + Sync>;

/// One row of the ledger: a charge (positive) or a refund (negative).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LedgerRow {
    pub subject: String,
    pub kind: UsageKind,
    pub amount: i64,
    /// The renders it was for, once the service made them (comma-separated).
    pub render_ids: String,
    pub at: i64,
    pub what: String,
    pub reservation: String,
}

#[async_trait]
pub trait Store: HostOutbox + Send + Sync + std::fmt::Debug {
    /// Whether other servers share this database: events are then announced through it (`event_feed`), not by
    /// the server that stored them.
    fn is_shared(&self) -> bool;

    /// A statement that touches nothing, to tell whether the database answers (readiness).
    async fn ping(&self) -> Result<(), ServerError>;

    /// The connection pool's state, for the metrics; `None` without a pool.
    fn pool_state(&self) -> Option<PoolState> {
        None
    }

    /// Records `ids` as created by `subject` (a retried record changes nothing), and the host's webhooks that
    /// report it, in one transaction.
    async fn record_owners(
        &self,
        kind: Kind,
        ids: &[String],
        subject: &str,
        reported: &[OutboxEntry],
    ) -> Result<(), ServerError>;
    /// Whether `subject` created every one of `ids`.
    async fn owns_all(&self, kind: Kind, ids: &[String], subject: &str) -> Result<bool, ServerError>;
    /// `limit` of `subject`'s ids after `cursor` (one of them), newest first unless `ascending`; a cursor that is
    /// not one of the subject's is a `BadRequest`.
    async fn owned_page(
        &self,
        kind: Kind,
        subject: &str,
        limit: u32,
        cursor: Option<&str>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError>;

    /// `subject`'s board, in order.
    async fn board(&self, subject: &str) -> Result<Board, ServerError>;
    /// Adds `renders` at the end of the board in their order (one already there keeps its place and label);
    /// refused whole with a `Conflict` when the board would hold more than `max`.
    async fn board_add(&self, subject: &str, renders: &[BoardRender], max: usize) -> Result<Board, ServerError>;
    /// Takes `render_id` off the board (nothing happens when it is not there).
    async fn board_remove(&self, subject: &str, render_id: &str) -> Result<Board, ServerError>;
    async fn board_clear(&self, subject: &str) -> Result<(), ServerError>;

    /// Remembers that `subject` started a creation of `kind` named `creation`, before it is sent to the service.
    async fn record_creation(&self, creation: &str, kind: Kind, subject: &str, now: i64) -> Result<(), ServerError>;
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

    /// Records an upload if its subject's uploads stay within `quota` with it (checked and recorded in one
    /// transaction); otherwise `Err(bytes used)` and nothing is recorded.
    async fn reserve_upload(&self, upload: &UploadRecord, quota: Option<u64>) -> Result<Result<(), u64>, ServerError>;
    async fn forget_uploads(&self, names: &[String]) -> Result<(), ServerError>;

    /// Every kept file of `renders`, removed ones included.
    async fn kept_files(&self, renders: &[String]) -> Result<Vec<KeptFile>, ServerError>;
    /// Whether a variation has ever been kept (removed ones count).
    async fn ever_kept(&self, render_id: &str, variation_id: &str) -> Result<bool, ServerError>;
    /// Records a variation's files, all or none (one kept already stays as it is).
    /// Records kept files, and the host's webhooks that report them when any file is new, in one transaction.
    async fn record_kept(&self, files: &[KeptFile], reported: &[OutboxEntry]) -> Result<(), ServerError>;
    /// The bytes `subject` keeps now.
    async fn kept_bytes(&self, subject: &str) -> Result<u64, ServerError>;
    /// Marks a variation's files removed.
    async fn mark_kept_removed(&self, render_id: &str, variation_id: &str) -> Result<(), ServerError>;
    /// The files kept before `cutoff` (ms) and not removed yet.
    async fn expired_kept(&self, cutoff: i64) -> Result<Vec<KeptFile>, ServerError>;
    /// Marks the files kept before `cutoff` removed.
    async fn mark_kept_expired(&self, cutoff: i64) -> Result<(), ServerError>;

    /// Records a chosen result's disclosure, unless its choice (`DisclosureRecord::choice`) is recorded already:
    /// the record of the choice either way. An id recorded before is an error.
    /// `reported` (the host's webhooks) go into the outbox with a new record, in its transaction.
    async fn record_disclosure(
        &self,
        record: &DisclosureRecord,
        reported: &[OutboxEntry],
    ) -> Result<DisclosureRecord, ServerError>;
    async fn disclosure(&self, id: &str) -> Result<Option<DisclosureRecord>, ServerError>;
    /// The record of `choice` (`choice_of`), if it was made.
    async fn disclosure_of_choice(&self, choice: &str) -> Result<Option<DisclosureRecord>, ServerError>;
    /// How many records `subject` made at or after `since` (ms), and when the oldest of them was made.
    async fn disclosures_since(&self, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError>;
    /// Charges `reservation` to its subject in one transaction that checks it fits the subject's allowance of the
    /// period starting at `period_start` (its own, else `defaults`), whichever server asks at once; the events
    /// `reports` makes of each warning level the charge reaches are written in the same transaction.
    async fn reserve(
        &self,
        reservation: &Reservation,
        defaults: Limits,
        period_start: i64,
        reports: LevelReports,
    ) -> Result<Reserved, ServerError>;
    /// Names the renders a charged reservation made.
    async fn settle(&self, reservation: &str, render_ids: &[String]) -> Result<(), ServerError>;
    /// Gives a reservation's photos back (once), saying why.
    async fn refund(&self, reservation: &str, why: &str, at: i64) -> Result<(), ServerError>;
    /// The reservation that charged for making render `render_id` alone, if one did.
    async fn charge_of_render(&self, render_id: &str) -> Result<Option<String>, ServerError>;
    async fn set_allowance(&self, subject: &str, allowance: SubjectAllowance) -> Result<(), ServerError>;
    /// The subjects' own allowances, by subject: `subject`'s alone, or everyone's for `None`.
    async fn allowances(&self, subject: Option<&str>) -> Result<Vec<(String, SubjectAllowance)>, ServerError>;
    /// The ledger's rows from `from` to before `to` (ms), oldest first: `subject`'s, or everyone's for `None`.
    async fn ledger(&self, subject: Option<&str>, from: i64, to: i64) -> Result<Vec<LedgerRow>, ServerError>;

    /// At most `limit` records, newest first, after `after`: `subject`'s, or everyone's for `None`.
    async fn disclosures(
        &self,
        subject: Option<&str>,
        limit: u32,
        after: Option<&DisclosureCursor>,
    ) -> Result<Vec<DisclosureRecord>, ServerError>;
}
