//! Each subject's allowance of photos per calendar month (UTC), per kind of usage: what a creation may cost
//! (`vstage_api::usage`) is reserved in the transaction that checks it fits, before anything is sent; settled by
//! what the service did (a refusal gives the photos back); every charge and refund a row of the ledger. With no
//! allowance configured (`--allowance`, `vstage allowance set`) nothing is refused, and the ledger still counts.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Extension, Json, Router};
use chrono::{DateTime, Datelike, TimeZone, Utc};
use serde::Serialize;
use vstage_api::time::now_millis;
use vstage_api::usage::{Cost, UsageKind};
use vstage_api::{Limit, PhotoCounts, PhotoLimits, User};

use crate::access::Subject;
use crate::error::ServerError;
use crate::metrics::metrics;
use crate::storage::store::{LedgerRow, Limits, Reservation, Reserved, Store};

#[derive(Debug)]
pub struct Allowances {
    pub store: Arc<dyn Store>,
    /// Every subject's, unless its own says otherwise (`--allowance`).
    pub defaults: Limits,
}

/// A calendar month in UTC, as epoch milliseconds: from `start` to before `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    pub start: i64,
    pub end: i64,
}

impl Period {
    /// The month `at` (ms) falls in.
    pub fn containing(at: i64) -> Period {
        let day = DateTime::from_timestamp_millis(at).unwrap_or_default();
        let start = first_of_month(day.year(), day.month());
        let end = if day.month() == 12 {
            first_of_month(day.year() + 1, 1)
        } else {
            first_of_month(day.year(), day.month() + 1)
        };
        Period { start, end }
    }

    /// The day it renews on, as people read it: `1 December 2026`.
    pub fn renews_on(&self) -> String {
        DateTime::from_timestamp_millis(self.end).unwrap_or_default().format("%-d %B %Y").to_string()
    }
}

/// `GET /api/usage`: the calling subject's allowance, use and ledger rows this month.
pub fn routes(allowances: Arc<Allowances>) -> Router {
    let usage = |State(allowances): State<Arc<Allowances>>, Extension(subject): Extension<Subject>| async move {
        allowances.usage(&subject).await.map(Json)
    };
    Router::new().route("/usage", get(usage)).with_state(allowances)
}

fn first_of_month(year: i32, month: u32) -> i64 {
    Utc.with_ymd_and_hms(year, month, 1, 0, 0, 0).single().map_or(0, |first| first.timestamp_millis())
}

/// A subject's usage this month, as `GET /api/usage` answers it.
#[derive(Debug, Serialize)]
pub struct Usage {
    pub period: Period,
    /// The photos allowed per kind; `null` for no limit.
    pub allowance: Limits,
    pub used: Cost,
    pub rows: Vec<LedgerRow>,
}

impl Allowances {
    /// Reserves `cost` for `subject`'s creation (`what`), or refuses it with a sentence saying what is left and when
    /// it renews; `None` when it costs nothing.
    pub async fn reserve(&self, subject: &Subject, cost: Cost, what: &str) -> Result<Option<String>, ServerError> {
        if cost.is_none() {
            return Ok(None);
        }
        let at = now_millis();
        let id = crate::secret::random("rsv_").map_err(|e| ServerError::Internal(format!("no randomness: {e}")))?;
        let reservation = Reservation { id, subject: subject.as_str().into(), cost, what: what.into(), at };
        let period = Period::containing(at);
        match self.store.reserve(&reservation, self.defaults, period.start).await? {
            Reserved::Charged => {
                for (kind, photos) in cost.parts() {
                    metrics().photos_charged(kind.as_str(), photos);
                }
                Ok(Some(reservation.id))
            }
            Reserved::Refused { kind, used, limit } => {
                metrics().allowance_refusal(kind.as_str());
                tracing::info!(subject = subject.as_str(), kind = kind.as_str(), used, limit, "an allowance is spent");
                Err(spent(kind, used, limit, &period, at))
            }
        }
    }

    /// The renders a reservation made, named in its ledger rows; a failure to write it is logged, not the caller's.
    pub async fn settle(&self, reservation: &str, render_ids: &[String]) {
        if let Err(error) = self.store.settle(reservation, render_ids).await {
            tracing::warn!(%error, reservation, "a charge's renders could not be named in the ledger");
        }
    }

    /// Gives a reservation's photos back, because `why`.
    pub async fn refund(&self, reservation: &str, why: &str) {
        if let Err(error) = self.store.refund(reservation, why, now_millis()).await {
            tracing::error!(%error, reservation, why, "photos could not be given back; the ledger overcounts");
        }
    }

    /// `subject`'s allowance, use and ledger rows this month.
    pub async fn usage(&self, subject: &Subject) -> Result<Usage, ServerError> {
        let period = Period::containing(now_millis());
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
        Ok(Usage { period, allowance, used, rows })
    }

    /// `GET /v2/user` as a widget token's holder sees it: its own allowance and use this month in the account's
    /// shape, with when it renews; never the account's figures, which are the listing site's business.
    pub async fn as_user(&self, subject: &Subject) -> Result<User, ServerError> {
        let Usage { period, allowance, used, .. } = self.usage(subject).await?;
        let limit = |photos: Option<u64>| photos.map_or(Limit::Unlimited, Limit::Photos);
        Ok(User {
            user: None,
            photo_limit: PhotoLimits {
                staging: limit(allowance.staging),
                image_editing: limit(allowance.image_editing),
            },
            photos_used_this_period: PhotoCounts { staging: used.staging, image_editing: used.image_editing },
            renews_at: Some(period.end),
        })
    }
}

/// The refusal of a creation that `kind`'s allowance cannot cover.
fn spent(kind: UsageKind, used: u64, limit: u64, period: &Period, now: i64) -> ServerError {
    let kind = match kind {
        UsageKind::Staging => "staging",
        UsageKind::ImageEditing => "image editing",
    };
    let left = limit.saturating_sub(used);
    ServerError::LimitReached {
        message: format!(
            "This agent's {kind} allowance cannot cover this: {used} of {limit} photos used this month, {left} left. It \
             renews on {} (UTC); ask the listing site for more.",
            period.renews_on()
        ),
        retry_after_s: ((period.end - now).max(1000) as u64).div_ceil(1000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_is_a_calendar_month_in_utc() {
        // 2026-11-27T17:00:00Z
        let period = Period::containing(1_795_798_800_000);
        assert_eq!(period.start, 1_793_491_200_000, "1 November 2026");
        assert_eq!(period.end, 1_796_083_200_000, "1 December 2026");
        assert_eq!(period.renews_on(), "1 December 2026");
        let december = Period::containing(period.end + 1);
        assert_eq!(december.renews_on(), "1 January 2027");
    }
}
