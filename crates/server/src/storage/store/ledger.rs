//! Each subject's allowance and the ledger of charges and refunds: a creation's cost reserved in the
//! transaction that checks it fits, with the warning levels it reaches reported in the same transaction.

use super::*;

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

/// What a call may cost, charged to its subject before it is sent: a creation's `cost`, and what the variations
/// it adds to renders cost, worked out in the charge's transaction from what each render stands charged for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    pub id: String,
    pub subject: String,
    pub cost: Cost,
    /// Variations added to renders, one entry per render.
    pub added: Vec<AddedTo>,
    /// What it is for: `render`, `bulk renders`, `v1 render`, `variations`.
    pub what: String,
    pub at: i64,
}

impl Reservation {
    /// The renders it adds variations to, as the ledger names them (comma-separated).
    pub fn added_to(&self) -> String {
        self.added.iter().map(|entry| entry.render_id.as_str()).collect::<Vec<_>>().join(",")
    }
}

/// Variations of these kinds added to one render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedTo {
    pub render_id: String,
    pub kinds: Vec<UsageKind>,
}

/// Whether a reservation was charged (what it cost, with the warning levels it brought allowances to), or which
/// kind's allowance could not cover it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reserved {
    Charged { cost: Cost, reached: Vec<LevelReached> },
    Refused { kind: UsageKind, used: u64, limit: u64 },
}

/// One of a render's charges as the ledger keeps it (`render_charges`): its kind, the photos of that kind it was
/// charged (0 for variations added at no cost; its own share of a bulk creation), and whether that stands (not
/// refunded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderCharge {
    pub kind: UsageKind,
    pub photos: u64,
    pub stands: bool,
}

/// What bounds the refunds of failed renders: each period, a subject is given back at most its allowance of a
/// kind (its own, else `defaults`) for renders the service failed, so an agent whose photos the service fails (and
/// may bill the account for) draws at most twice its allowance from the account; a kind without a limit is not
/// bounded (nothing of it is ever refused). Refunds of calls the service refused are never bounded: nothing was made.
#[derive(Debug, Clone, Copy, Default)]
pub struct RefundBounds {
    pub defaults: Limits,
    pub period: crate::allowance::AllowancePeriod,
}

impl RefundBounds {
    /// Of `photos` to give back, what fits `limit` (`None`: no limit) when `given` were given back already.
    pub fn fitting(photos: u64, limit: Option<u64>, given: u64) -> u64 {
        limit.map_or(photos, |limit| photos.min(limit.saturating_sub(given)))
    }
}

/// A render's share of a charge that still stands, to be given back when the service failed the render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingShare {
    pub reservation: String,
    pub subject: String,
    pub kind: UsageKind,
    pub photos: u64,
    /// When it was charged: the refund counts in that period.
    pub at: i64,
}

/// Whether a render whose variations `failed` all failed is failed whole, by what was added to it (each
/// addition's variation ids, `None` while its answer is awaited): every variation added is among them.
pub fn failed_whole(added: &[Option<String>], failed: &[String]) -> bool {
    added.iter().all(|made| {
        made.as_deref()
            .is_some_and(|ids| ids.split(',').filter(|id| !id.is_empty()).all(|id| failed.iter().any(|f| f == id)))
    })
}

/// `(render id, variation id)` pairs as each render's ids, comma-separated.
pub fn by_render(made: &[(String, String)]) -> std::collections::BTreeMap<&str, String> {
    let mut ids: std::collections::BTreeMap<&str, String> = std::collections::BTreeMap::new();
    for (render_id, variation_id) in made {
        let joined = ids.entry(render_id).or_default();
        if !joined.is_empty() {
            joined.push(',');
        }
        joined.push_str(variation_id);
    }
    ids
}

/// What adding variations of `kinds` costs a render with these charges (`usage::of_added`): it is made from as
/// many photos as its largest charge was for, and stands charged for the kinds of its standing charges.
pub fn cost_of_adding(charges: &[RenderCharge], kinds: &[UsageKind]) -> Cost {
    let photos = charges.iter().map(|charge| charge.photos).max().unwrap_or(1);
    let charged = charges
        .iter()
        .filter(|charge| charge.stands && charge.photos > 0)
        .fold(Cost::NONE, |cost, charge| cost.plus(Cost::of(charge.kind, charge.photos)));
    vstage_api::usage::of_added(photos, charged, kinds)
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

/// One render's share of a charge: `photos` of `kind` that reservation `reservation` charged for render
/// `render_id` (its creation's share, or the variations added to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderShare {
    pub reservation: String,
    pub kind: UsageKind,
    pub render_id: String,
    pub photos: u64,
}

#[async_trait]
pub trait Ledger: Send + Sync {
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
    /// Names the renders a charged creation made, each with what it cost.
    async fn settle(&self, reservation: &str, renders: &[(String, Cost)]) -> Result<(), ServerError>;
    /// Gives a reservation's photos back (once), saying why, in the period it was charged in; variations it added
    /// count as never added.
    async fn refund(&self, reservation: &str, why: &str) -> Result<(), ServerError>;
    /// Names the variations the service made for a reservation's additions, as `(render id, variation id)`.
    async fn added_variations(&self, reservation: &str, made: &[(String, String)]) -> Result<(), ServerError>;
    /// Gives back what render `render_id` cost, its creation's share (its own in a bulk creation) and what was
    /// added to it, each once and in the period it was charged in, saying why, when the service failed all of it:
    /// `failed` (the ids of its variations, every one failed) holds every variation added to it, and no addition's
    /// answer is still awaited; within `bounds` (of the refunds saying `why` in each charge's period). True when
    /// it gave back.
    async fn refund_render(
        &self,
        render_id: &str,
        failed: &[String],
        why: &str,
        bounds: RefundBounds,
    ) -> Result<bool, ServerError>;
    async fn set_allowance(&self, subject: &str, allowance: SubjectAllowance) -> Result<(), ServerError>;
    /// The subjects' own allowances, by subject: `subject`'s alone, or everyone's for `None`.
    async fn allowances(&self, subject: Option<&str>) -> Result<Vec<(String, SubjectAllowance)>, ServerError>;
    /// The ledger's rows from `from` to before `to` (ms), oldest first: `subject`'s, or everyone's for `None`.
    async fn ledger(&self, subject: Option<&str>, from: i64, to: i64) -> Result<Vec<LedgerRow>, ServerError>;
    /// Each render's share of these reservations' charges, as recorded (a whole refund of added variations forgets
    /// theirs, as they count as never added).
    async fn render_shares(&self, reservations: &[String]) -> Result<Vec<RenderShare>, ServerError>;
}
