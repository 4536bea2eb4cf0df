//! `Ledger` (`store/ledger.rs`) on PostgreSQL: its SQL.

use super::*;
use crate::storage::store::Ledger;

#[async_trait]
impl Ledger for Postgres {
    async fn reserve(
        &self,
        reservation: &Reservation,
        defaults: Limits,
        period_start: i64,
        reports: LevelReports,
    ) -> Result<Reserved, ServerError> {
        let reservation = reservation.clone();
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // One reservation of a subject's at a time, whichever server makes it: what it reads as used stays so.
            lock(&tx, "allowance", &reservation.subject).await?;
            let own = tx
                .query_opt("SELECT staging, image_editing FROM allowances WHERE subject = $1", &[&reservation.subject])
                .await?
                .map(|row| SubjectAllowance::from_stored(row.get(0), row.get(1)))
                .unwrap_or_default();
            let mut reached = Vec::new();
            for (kind, photos) in reservation.cost.parts() {
                let Some(limit) = own.get(kind).limit(defaults.get(kind)) else { continue };
                let row = tx
                    .query_one(
                        "SELECT COALESCE(SUM(amount), 0)::BIGINT FROM ledger \
                         WHERE subject = $1 AND kind = $2 AND at >= $3",
                        &[&reservation.subject, &kind.as_str(), &period_start],
                    )
                    .await?;
                let used = row.get::<_, i64>(0).max(0) as u64;
                if used + photos > limit {
                    return Ok(Reserved::Refused { kind, used, limit });
                }
                reached.extend(LevelReached::by_charge(kind, used, photos, limit));
            }
            for (kind, photos) in reservation.cost.parts() {
                tx.execute(
                    "INSERT INTO ledger (reservation, subject, kind, amount, at, what) VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &reservation.id,
                        &reservation.subject,
                        &kind.as_str(),
                        &(photos as i64),
                        &reservation.at,
                        &reservation.what,
                    ],
                )
                .await?;
            }
            for level in &reached {
                outbox::enqueue(&tx, &reports(level)).await?;
            }
            tx.commit().await?;
            Ok(Reserved::Charged { reached })
        })
        .await
    }

    async fn settle(&self, reservation: &str, render_ids: &[String]) -> Result<(), ServerError> {
        let (reservation, render_ids) = (reservation.to_string(), render_ids.join(","));
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute("UPDATE ledger SET render_ids = $1 WHERE reservation = $2", &[&render_ids, &reservation])
                .await?;
            Ok(())
        })
        .await
    }

    async fn refund(&self, reservation: &str, why: &str, at: i64) -> Result<(), ServerError> {
        let (reservation, why) = (reservation.to_string(), why.to_string());
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            lock(&tx, "refund", &reservation).await?;
            tx.execute(
                "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
                 SELECT reservation, subject, kind, -amount, render_ids, $2, $3 FROM ledger \
                 WHERE reservation = $1 AND amount > 0 \
                 AND NOT EXISTS (SELECT 1 FROM ledger WHERE reservation = $1 AND amount < 0)",
                &[&reservation, &at, &why],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn charge_of_render(&self, render_id: &str) -> Result<Option<String>, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT reservation FROM ledger WHERE render_ids = $1 AND amount > 0 LIMIT 1", &[&render_id])
                .await?;
            Ok(row.map(|row| row.get(0)))
        })
        .await
    }

    async fn set_allowance(&self, subject: &str, allowance: SubjectAllowance) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute(
                    "INSERT INTO allowances (subject, staging, image_editing, set_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (subject) DO UPDATE SET staging = $2, image_editing = $3, set_at = $4",
                    &[
                        &subject,
                        &allowance.staging.stored(),
                        &allowance.image_editing.stored(),
                        &vstage_api::time::now_millis(),
                    ],
                )
                .await?;
            Ok(())
        })
        .await
    }

    async fn allowances(&self, subject: Option<&str>) -> Result<Vec<(String, SubjectAllowance)>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(
                    "SELECT subject, staging, image_editing FROM allowances \
                     WHERE $1::TEXT IS NULL OR subject = $1 ORDER BY subject",
                    &[&subject],
                )
                .await?;
            Ok(rows.iter().map(|row| (row.get(0), SubjectAllowance::from_stored(row.get(1), row.get(2)))).collect())
        })
        .await
    }

    async fn ledger(&self, subject: Option<&str>, from: i64, to: i64) -> Result<Vec<LedgerRow>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(
                    "SELECT subject, kind, amount, render_ids, at, what, reservation FROM ledger \
                     WHERE ($1::TEXT IS NULL OR subject = $1) AND at >= $2 AND at < $3 ORDER BY at, seq",
                    &[&subject, &from, &to],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|row| LedgerRow {
                    subject: row.get(0),
                    kind: UsageKind::parse(row.get(1)).unwrap_or(UsageKind::Staging),
                    amount: row.get(2),
                    render_ids: row.get(3),
                    at: row.get(4),
                    what: row.get(5),
                    reservation: row.get(6),
                })
                .collect())
        })
        .await
    }
}
