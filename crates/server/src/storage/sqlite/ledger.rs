//! `Ledger` (`store/ledger.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::Ledger;

#[async_trait]
impl Ledger for Sqlite {
    async fn reserve(
        &self,
        reservation: &Reservation,
        defaults: Limits,
        period_start: i64,
        reports: LevelReports,
    ) -> Result<Reserved, ServerError> {
        let reservation = reservation.clone();
        self.run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let own = tx
                .query_row(
                    "SELECT staging, image_editing FROM allowances WHERE subject = ?1",
                    params![reservation.subject],
                    |row| Ok(SubjectAllowance::from_stored(row.get(0)?, row.get(1)?)),
                )
                .optional()?
                .unwrap_or_default();
            let mut reached = Vec::new();
            for (kind, photos) in reservation.cost.parts() {
                let Some(limit) = own.get(kind).limit(defaults.get(kind)) else { continue };
                let used: i64 = tx.query_row(
                    "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE subject = ?1 AND kind = ?2 AND at >= ?3",
                    params![reservation.subject, kind.as_str(), period_start],
                    |row| row.get(0),
                )?;
                let used = used.max(0) as u64;
                if used + photos > limit {
                    return Ok(Reserved::Refused { kind, used, limit });
                }
                reached.extend(LevelReached::by_charge(kind, used, photos, limit));
            }
            for (kind, photos) in reservation.cost.parts() {
                tx.execute(
                    "INSERT INTO ledger (reservation, subject, kind, amount, at, what) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        reservation.id,
                        reservation.subject,
                        kind.as_str(),
                        photos as i64,
                        reservation.at,
                        reservation.what
                    ],
                )?;
            }
            for level in &reached {
                outbox::enqueue(&tx, &reports(level))?;
            }
            tx.commit()?;
            Ok(Reserved::Charged { reached })
        })
        .await
    }

    async fn settle(&self, reservation: &str, render_ids: &[String]) -> Result<(), ServerError> {
        let (reservation, render_ids) = (reservation.to_string(), render_ids.join(","));
        self.run(move |db| {
            db.execute("UPDATE ledger SET render_ids = ?1 WHERE reservation = ?2", params![render_ids, reservation])?;
            Ok(())
        })
        .await
    }

    async fn refund(&self, reservation: &str, why: &str, at: i64) -> Result<(), ServerError> {
        let (reservation, why) = (reservation.to_string(), why.to_string());
        self.run(move |db| {
            db.execute(
                "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
                 SELECT reservation, subject, kind, -amount, render_ids, ?2, ?3 FROM ledger \
                 WHERE reservation = ?1 AND amount > 0 \
                 AND NOT EXISTS (SELECT 1 FROM ledger WHERE reservation = ?1 AND amount < 0)",
                params![reservation, at, why],
            )?;
            Ok(())
        })
        .await
    }

    async fn charge_of_render(&self, render_id: &str) -> Result<Option<String>, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |db| {
            Ok(db
                .prepare_cached("SELECT reservation FROM ledger WHERE render_ids = ?1 AND amount > 0 LIMIT 1")?
                .query_row(params![render_id], |row| row.get(0))
                .optional()?)
        })
        .await
    }

    async fn set_allowance(&self, subject: &str, allowance: SubjectAllowance) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |db| {
            db.execute(
                "INSERT INTO allowances (subject, staging, image_editing, set_at) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (subject) DO UPDATE SET staging = ?2, image_editing = ?3, set_at = ?4",
                params![
                    subject,
                    allowance.staging.stored(),
                    allowance.image_editing.stored(),
                    vstage_api::time::now_millis()
                ],
            )?;
            Ok(())
        })
        .await
    }

    async fn allowances(&self, subject: Option<&str>) -> Result<Vec<(String, SubjectAllowance)>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |db| {
            Ok(db
                .prepare_cached(
                    "SELECT subject, staging, image_editing FROM allowances \
                     WHERE ?1 IS NULL OR subject = ?1 ORDER BY subject",
                )?
                .query_map(params![subject], |row| {
                    Ok((row.get(0)?, SubjectAllowance::from_stored(row.get(1)?, row.get(2)?)))
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn ledger(&self, subject: Option<&str>, from: i64, to: i64) -> Result<Vec<LedgerRow>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |db| {
            Ok(db
                .prepare_cached(
                    "SELECT subject, kind, amount, render_ids, at, what, reservation FROM ledger \
                     WHERE (?1 IS NULL OR subject = ?1) AND at >= ?2 AND at < ?3 ORDER BY at, seq",
                )?
                .query_map(params![subject, from, to], |row| {
                    let kind: String = row.get(1)?;
                    Ok(LedgerRow {
                        subject: row.get(0)?,
                        kind: UsageKind::parse(&kind).unwrap_or(UsageKind::Staging),
                        amount: row.get(2)?,
                        render_ids: row.get(3)?,
                        at: row.get(4)?,
                        what: row.get(5)?,
                        reservation: row.get(6)?,
                    })
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }
}
