//! Each subject's allowance of photos per period (a calendar month in UTC unless set otherwise), per kind of usage: what a creation may cost
//! (`vstage_api::usage`, variations added of a kind the render was not charged for included) is reserved in the
//! transaction that checks it fits, before anything is sent; settled by what the service did (a refusal, or a
//! render whose every variation failed and to which nothing was added, gives the photos back); every charge and refund a row of the ledger. With no
//! allowance configured (`--allowance`, `vstage allowance set`) nothing is refused, and the ledger still counts.
//! `GET /api/usage` says a subject's allowance, use and rows, and the same in the account's shape for the studio.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Extension, Json, Router};
use chrono::{DateTime, Datelike, Days, Months, NaiveDate, NaiveTime};
use serde::Serialize;
use vstage_api::time::now_millis;
use vstage_api::usage::{Cost, UsageKind};
use vstage_api::{Limit, PhotoCounts, PhotoLimits, Render, User, VariationStatus};

use crate::access::Subject;
use crate::error::ServerError;
use crate::host_webhooks::HostWebhooks;
use crate::live::events::Events;
use crate::metrics::metrics;
use crate::storage::store::{
    AddedTo, LedgerRow, LevelReached, LevelReports, Limits, RefundBounds, Reservation, Reserved, Store,
};

#[derive(Debug)]
pub struct Allowances {
    pub store: Arc<dyn Store>,
    /// Every subject's, unless its own says otherwise (`--allowance`).
    pub defaults: Limits,
    /// How long an allowance lasts (`--allowance-period`).
    pub period: AllowancePeriod,
    /// Told when a charge brings an allowance to 80 % or all of it used (`allowance.low`, `allowance.spent`).
    pub host_webhooks: Option<Arc<HostWebhooks>>,
}

/// How long an allowance lasts before it renews, in UTC (`--allowance-period`): a calendar month from its first
/// day (or from day `D` with `month:D`, for a billing cycle that starts mid-month), an ISO week from Monday, or a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllowancePeriod {
    /// Months starting on this day of the month (1 to 28).
    Month {
        first_day: u32,
    },
    Week,
    Day,
}

impl Default for AllowancePeriod {
    fn default() -> Self {
        AllowancePeriod::Month { first_day: 1 }
    }
}

impl AllowancePeriod {
    /// `month`, `month:15`, `week` or `day`.
    pub fn parse(text: &str) -> Result<AllowancePeriod, String> {
        match text.trim() {
            "month" => Ok(AllowancePeriod::default()),
            "week" => Ok(AllowancePeriod::Week),
            "day" => Ok(AllowancePeriod::Day),
            other => other
                .strip_prefix("month:")
                .and_then(|day| day.parse().ok())
                .filter(|day| (1..=28).contains(day))
                .map(|first_day| AllowancePeriod::Month { first_day })
                .ok_or_else(|| format!("{other:?}: write month, month:D (D from 1 to 28), week or day")),
        }
    }

    /// The period `at` (ms) falls in.
    pub fn containing(self, at: i64) -> Period {
        let moment = DateTime::from_timestamp_millis(at).unwrap_or_default();
        let day = moment.date_naive();
        let (start, end) = match self {
            AllowancePeriod::Day => (day, day + Days::new(1)),
            AllowancePeriod::Week => {
                let monday = day - Days::new(u64::from(day.weekday().num_days_from_monday()));
                (monday, monday + Days::new(7))
            }
            AllowancePeriod::Month { first_day } => {
                let this_month = day.with_day(first_day).unwrap_or(day);
                let start = if day.day() >= first_day { this_month } else { this_month - Months::new(1) };
                (start, start + Months::new(1))
            }
        };
        let millis = |day: NaiveDate| day.and_time(NaiveTime::MIN).and_utc().timestamp_millis();
        Period { start: millis(start), end: millis(end), length: self }
    }

    /// The period as a sentence says it: `this month`.
    fn this(self) -> &'static str {
        match self {
            AllowancePeriod::Month { .. } => "this month",
            AllowancePeriod::Week => "this week",
            AllowancePeriod::Day => "today",
        }
    }
}

/// One allowance period, as epoch milliseconds: from `start` to before `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    pub start: i64,
    pub end: i64,
    #[serde(skip)]
    length: AllowancePeriod,
}

impl Period {
    /// The day it renews on, as people read it: `1 December 2026`.
    pub fn renews_on(&self) -> String {
        DateTime::from_timestamp_millis(self.end).unwrap_or_default().format("%-d %B %Y").to_string()
    }
}

/// The header of `GET /api/usage` that says from which live event a stream opened now hears everything
/// (`Events::newest`): the studio reads its usage as it starts and opens its first stream from there.
pub const EVENT_ID_HEADER: &str = "vstage-event-id";

/// `GET /api/usage`: the calling subject's allowance, use and ledger rows this period.
pub fn routes(allowances: Arc<Allowances>, events: Arc<Events>) -> Router {
    let usage = |State((allowances, events)): State<(Arc<Allowances>, Arc<Events>)>,
                 Extension(subject): Extension<Subject>| async move {
        // Read before the usage, so that the answer shows every change up to that event.
        let newest = events.newest().await?;
        let usage = allowances.usage(&subject).await?;
        Ok::<_, ServerError>(([(EVENT_ID_HEADER, newest.to_string())], Json(usage)))
    };
    Router::new().route("/usage", get(usage)).with_state((allowances, events))
}

/// A subject's usage this period, as `GET /api/usage` answers it; beside it the same in the account's shape
/// (`GET /v2/user`'s, as a token's holder is answered there), which the studio reads on open access too.
#[derive(Debug, Serialize)]
pub struct Usage {
    pub period: Period,
    /// The photos allowed per kind; `null` for no limit.
    pub allowance: Limits,
    pub used: Cost,
    pub rows: Vec<LedgerRow>,
    #[serde(flatten)]
    pub as_user: User,
}

impl Allowances {
    /// Reserves what `subject`'s call (`what`) costs: a creation's `cost` and the variations it adds to renders
    /// (`added`), or refuses it with a sentence saying what is left and when it renews; `None` when it costs and
    /// records nothing.
    pub async fn reserve(
        &self,
        subject: &Subject,
        cost: Cost,
        added: Vec<AddedTo>,
        what: &str,
    ) -> Result<Option<String>, ServerError> {
        if cost.is_none() && added.is_empty() {
            return Ok(None);
        }
        let at = now_millis();
        let id = crate::secret::random("rsv_").map_err(|e| ServerError::Internal(format!("no randomness: {e}")))?;
        let reservation = Reservation { id, subject: subject.as_str().into(), cost, added, what: what.into(), at };
        let period = self.period.containing(at);
        let reports = self.level_reports(subject, period.end, at);
        match self.store.reserve(&reservation, self.defaults, period.start, reports).await? {
            Reserved::Charged { cost, reached } => {
                for (kind, photos) in cost.parts() {
                    metrics().photos_charged(kind.as_str(), photos);
                }
                if let Some(hooks) = self.host_webhooks.as_ref().filter(|_| !reached.is_empty()) {
                    hooks.wake();
                }
                for LevelReached { kind, level, used, limit } in reached {
                    let (subject, kind) = (subject.as_str(), kind.as_str());
                    tracing::info!(subject, kind, used, limit, ?level, "an allowance reached a warning level");
                }
                Ok(Some(reservation.id))
            }
            Reserved::Refused { kind, used, limit } => {
                metrics().allowance_refusal(kind.as_str());
                tracing::info!(subject = subject.as_str(), kind = kind.as_str(), used, limit, "an allowance is spent");
                Err(spent(kind, used, limit, &period, at, subject.by_token()))
            }
        }
    }

    /// The host's webhook events of a level `subject`'s charge at `at` reaches, in a period renewing at `renews_at`.
    fn level_reports(&self, subject: &Subject, renews_at: i64, at: i64) -> LevelReports {
        let Some(webhooks) = self.host_webhooks.clone() else { return Arc::new(|_: &LevelReached| Vec::new()) };
        let subject = subject.as_str().to_string();
        Arc::new(move |reached: &LevelReached| webhooks.allowance_level(&subject, reached, renews_at, at))
    }

    /// The renders a creation's reservation made, each with its cost, named in its ledger rows; a failure to write
    /// it is logged, not the caller's.
    pub async fn settle(&self, reservation: &str, renders: &[(String, Cost)]) {
        if renders.is_empty() {
            return;
        }
        if let Err(error) = self.store.settle(reservation, renders).await {
            tracing::warn!(%error, reservation, "a charge's renders could not be named in the ledger");
        }
    }

    /// Names the variations the service made for a reservation's additions, `(render id, variation id)`.
    pub async fn added(&self, reservation: &str, made: &[(String, String)]) {
        if let Err(error) = self.store.added_variations(reservation, made).await {
            tracing::warn!(%error, reservation, "the variations an addition made could not be named in the ledger");
        }
    }

    /// Gives a reservation's photos back, because `why`.
    pub async fn refund(&self, reservation: &str, why: &str) {
        if let Err(error) = self.store.refund(reservation, why).await {
            tracing::error!(%error, reservation, why, "photos could not be given back; the ledger overcounts");
        }
    }

    /// Gives back what `render` cost when the service failed it: every one of its variations read (the whole page:
    /// read `from_start`, with no cursor, and with nothing after it) ended in `error`, none done, among them every
    /// variation added to it (`Ledger::refund_render`). Each charge once, whichever server reads it first;
    /// variations added after the refund pay again. (A page read after a cursor, the caller's or a later page of
    /// this server's own, can leave out the variations that were made.)
    pub async fn refund_if_failed(&self, render: &Render, from_start: bool) {
        let Some(page) = render.variations.as_ref() else { return };
        let whole_page = from_start
            && page.next_cursor.is_none()
            && page.total_count.is_none_or(|total| total == page.items.len() as u64);
        let failed =
            !page.items.is_empty() && page.items.iter().all(|variation| variation.status == VariationStatus::Error);
        if !(whole_page && failed) {
            return;
        }
        let why = "refunded: the service failed every variation";
        let failed: Vec<String> = page.items.iter().map(|variation| variation.id.clone()).collect();
        let bounds = RefundBounds { defaults: self.defaults, period: self.period };
        if let Err(error) = self.store.refund_render(&render.id, &failed, why, bounds).await {
            tracing::warn!(%error, render_id = render.id, "a failed render's charge could not be given back");
        }
    }

    /// `subject`'s allowance, use and ledger rows this period.
    pub async fn usage(&self, subject: &Subject) -> Result<Usage, ServerError> {
        let period = self.period.containing(now_millis());
        let rows = self.store.ledger(Some(subject.as_str()), period.start, period.end).await?;
        let own = self.store.allowances(Some(subject.as_str())).await?.pop().map(|(_, own)| own).unwrap_or_default();
        let allowance = Limits {
            staging: own.staging.limit(self.defaults.staging),
            image_editing: own.image_editing.limit(self.defaults.image_editing),
        };
        let mut used = Cost::NONE;
        for row in &rows {
            let count = match row.kind {
                UsageKind::Staging => &mut used.staging,
                UsageKind::ImageEditing => &mut used.image_editing,
            };
            *count = count.saturating_add_signed(row.amount);
        }
        let as_user = user_of(&period, allowance, used);
        Ok(Usage { period, allowance, used, rows, as_user })
    }

    /// `GET /v2/user` as a widget token's holder sees it: its own allowance and use this period in the account's
    /// shape, with when it renews; never the account's figures, which are the listing site's business.
    pub async fn as_user(&self, subject: &Subject) -> Result<User, ServerError> {
        Ok(self.usage(subject).await?.as_user)
    }
}

/// A subject's allowance and use in `period` in the account's shape (`GET /v2/user`'s), with when it renews.
fn user_of(period: &Period, allowance: Limits, used: Cost) -> User {
    let limit = |photos: Option<u64>| photos.map_or(Limit::Unlimited, Limit::Photos);
    User {
        user: None,
        photo_limit: PhotoLimits { staging: limit(allowance.staging), image_editing: limit(allowance.image_editing) },
        photos_used_this_period: PhotoCounts { staging: used.staging, image_editing: used.image_editing },
        renews_at: Some(period.end),
    }
}

/// The refusal of a creation that `kind`'s allowance cannot cover, its advice for who is asking: a token's holder
/// (an agent on a listing site's page) asks the site; open access is whoever runs this server, who can raise it.
fn spent(kind: UsageKind, used: u64, limit: u64, period: &Period, now: i64, by_token: bool) -> ServerError {
    let kind = match kind {
        UsageKind::Staging => "staging",
        UsageKind::ImageEditing => "image editing",
    };
    let left = limit.saturating_sub(used);
    ServerError::LimitReached {
        message: format!(
            "This agent's {kind} allowance cannot cover this: {used} of {limit} photos used {}, {left} left. It renews \
             on {} (UTC); {}.",
            period.length.this(),
            period.renews_on(),
            match by_token {
                true => "ask the listing site for more",
                false => "`vstage allowance set` raises it",
            }
        ),
        retry_after_s: ((period.end - now).max(1000) as u64).div_ceil(1000),
    }
}

/// Through the whole app, in-process, and its parts alone.
#[cfg(test)]
mod tests;
