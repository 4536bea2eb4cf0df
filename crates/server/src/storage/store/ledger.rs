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
}
