//! `Ledger` (`store/ledger.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::{
    Ledger, RefundBounds, RenderCharge, RenderShare, StandingShare, by_render, cost_of_adding, failed_whole,
};
use vstage_api::usage::Cost;

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
            let mut added = Vec::with_capacity(reservation.added.len());
            let mut cost = reservation.cost;
            for entry in &reservation.added {
                let each = cost_of_adding(&render_charges(&tx, &entry.render_id)?, &entry.kinds);
                cost = cost.plus(each);
                added.push((entry, each));
            }
            let reached = match levels_reached(&tx, &reservation.subject, cost, defaults, period_start)? {
                Ok(reached) => reached,
                Err(refused) => return Ok(refused),
            };
            for (kind, photos) in cost.parts() {
                tx.execute(
                    "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        reservation.id,
                        reservation.subject,
                        kind.as_str(),
                        photos as i64,
                        reservation.added_to(),
                        reservation.at,
                        reservation.what
                    ],
                )?;
            }
            for (entry, each) in added {
                for &kind in &entry.kinds {
                    record_charge(&tx, &entry.render_id, &reservation.id, kind, each.get(kind), true)?;
                }
            }
            for level in &reached {
                outbox::enqueue(&tx, &reports(level))?;
            }
            tx.commit()?;
            Ok(Reserved::Charged { cost, reached })
        })
        .await
    }

    async fn settle(&self, reservation: &str, renders: &[(String, Cost)]) -> Result<(), ServerError> {
        let (reservation, renders) = (reservation.to_string(), renders.to_vec());
        self.run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let render_ids = renders.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>().join(",");
            tx.execute("UPDATE ledger SET render_ids = ?1 WHERE reservation = ?2", params![render_ids, reservation])?;
            for (render_id, cost) in &renders {
                for (kind, photos) in cost.parts() {
                    record_charge(&tx, render_id, &reservation, kind, photos, false)?;
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn refund(&self, reservation: &str, why: &str) -> Result<(), ServerError> {
        let (reservation, why) = (reservation.to_string(), why.to_string());
        self.run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            hand_on_relied_charges(&tx, &reservation)?;
            refund_once(&tx, &reservation, &why)?;
            tx.execute("DELETE FROM render_charges WHERE reservation = ?1 AND added = 1", params![reservation])?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn added_variations(&self, reservation: &str, made: &[(String, String)]) -> Result<(), ServerError> {
        let (reservation, made) = (reservation.to_string(), made.to_vec());
        self.run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let answered = "UPDATE render_charges SET variations = '' WHERE reservation = ?1 AND added = 1";
            tx.execute(answered, params![reservation])?;
            for (render_id, ids) in by_render(&made) {
                tx.execute(
                    "UPDATE render_charges SET variations = ?1 WHERE reservation = ?2 AND render_id = ?3 AND added = 1",
                    params![ids, reservation, render_id],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn refund_render(
        &self,
        render_id: &str,
        failed: &[String],
        why: &str,
        bounds: RefundBounds,
    ) -> Result<bool, ServerError> {
        let (render_id, failed, why) = (render_id.to_string(), failed.to_vec(), why.to_string());
        self.run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let added: Vec<Option<String>> = tx
                .prepare_cached("SELECT variations FROM render_charges WHERE render_id = ?1 AND added = 1")?
                .query_map(params![render_id], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            if !failed_whole(&added, &failed) {
                return Ok(false);
            }
            let mut refunded = false;
            for share in standing_shares(&tx, &render_id)? {
                let photos = fitting_refund(&tx, &share, &why, bounds)?;
                if photos > 0 {
                    tx.execute(
                        "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                        params![
                            share.reservation,
                            share.subject,
                            share.kind.as_str(),
                            -(photos as i64),
                            render_id,
                            share.at,
                            why
                        ],
                    )?;
                    refunded = true;
                }
            }
            tx.commit()?;
            Ok(refunded)
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

    async fn render_shares(&self, reservations: &[String]) -> Result<Vec<RenderShare>, ServerError> {
        let reservations = reservations.to_vec();
        self.run(move |db| {
            let mut query = db.prepare_cached(
                "SELECT reservation, kind, render_id, photos FROM render_charges WHERE reservation = ?1 \
                 ORDER BY render_id, kind",
            )?;
            let mut shares = Vec::new();
            for reservation in &reservations {
                let rows = query.query_map(params![reservation], |row| {
                    let kind: String = row.get(1)?;
                    Ok(RenderShare {
                        reservation: row.get(0)?,
                        kind: UsageKind::parse(&kind).unwrap_or(UsageKind::Staging),
                        render_id: row.get(2)?,
                        photos: row.get::<_, i64>(3)?.max(0) as u64,
                    })
                })?;
                for share in rows {
                    shares.push(share?);
                }
            }
            Ok(shares)
        })
        .await
    }
}

/// Render `render_id`'s charges, each with whether it stands (no refund of its share, nor of the whole of the
/// charge's row that covers this render: a charge handed on has a row per render).
fn render_charges(tx: &Connection, render_id: &str) -> rusqlite::Result<Vec<RenderCharge>> {
    tx.prepare_cached(
        "SELECT c.kind, c.photos, NOT EXISTS (SELECT 1 FROM ledger r JOIN ledger l \
             ON l.reservation = r.reservation AND l.kind = r.kind AND l.amount > 0 \
                 AND instr(',' || l.render_ids || ',', ',' || c.render_id || ',') > 0 \
             WHERE r.reservation = c.reservation AND r.kind = c.kind AND r.amount < 0 \
             AND r.render_ids IN (c.render_id, l.render_ids)) \
         FROM render_charges c WHERE c.render_id = ?1",
    )?
    .query_map(params![render_id], |row| {
        let kind: String = row.get(0)?;
        Ok(RenderCharge {
            kind: UsageKind::parse(&kind).unwrap_or(UsageKind::Staging),
            photos: row.get::<_, i64>(1)?.max(0) as u64,
            stands: row.get(2)?,
        })
    })?
    .collect()
}

/// Records that `reservation` charged `photos` of `kind` for render `render_id` (its creation, or variations added).
fn record_charge(
    tx: &Connection,
    render_id: &str,
    reservation: &str,
    kind: UsageKind,
    photos: u64,
    added: bool,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT OR IGNORE INTO render_charges (render_id, reservation, kind, photos, added) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![render_id, reservation, kind.as_str(), photos as i64, added])?;
    Ok(())
}

/// Before an addition's charge is given back: each of its renders' kinds that another addition, reserved free while
/// this charge stood, relied on is handed on to that addition (its ledger share and its render charge), so the
/// photo the service bills for that one stays paid; only the rest is refunded.
fn hand_on_relied_charges(tx: &Connection, reservation: &str) -> rusqlite::Result<()> {
    let relied: Vec<(String, String, i64, String)> = tx
        .prepare_cached(
            "SELECT a.render_id, a.kind, a.photos, MIN(b.reservation) FROM render_charges a \
             JOIN render_charges b ON b.render_id = a.render_id AND b.kind = a.kind AND b.added = 1 \
                 AND b.photos = 0 AND b.reservation <> a.reservation \
             WHERE a.reservation = ?1 AND a.added = 1 AND a.photos > 0 GROUP BY a.render_id, a.kind, a.photos",
        )?
        .query_map(params![reservation], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (render_id, kind, photos, heir) in relied {
        tx.execute(
            "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
             SELECT ?1, subject, kind, ?2, ?3, at, what FROM ledger WHERE reservation = ?4 AND kind = ?5 AND amount > 0 \
             LIMIT 1",
            params![heir, photos, render_id, reservation, kind],
        )?;
        // From the one row that holds this render's share: the row of this render when the charge was itself
        // handed on (a row per render), else the charge's own.
        tx.execute(
            "UPDATE ledger SET amount = amount - ?1 WHERE seq = (SELECT seq FROM ledger \
             WHERE reservation = ?2 AND kind = ?3 AND amount > 0 ORDER BY render_ids = ?4 DESC, seq LIMIT 1)",
            params![photos, reservation, kind, render_id],
        )?;
        tx.execute(
            "DELETE FROM ledger WHERE reservation = ?1 AND kind = ?2 AND amount = 0",
            params![reservation, kind],
        )?;
        tx.execute(
            "UPDATE render_charges SET photos = ?1 WHERE reservation = ?2 AND render_id = ?3 AND kind = ?4",
            params![photos, heir, render_id, kind],
        )?;
    }
    Ok(())
}

/// Gives `reservation`'s photos back unless it was given back before, in the period of its charge (a refund made
/// after the period renewed gives nothing to spend now); the rows written.
fn refund_once(tx: &Connection, reservation: &str, why: &str) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
         SELECT reservation, subject, kind, -amount, render_ids, at, ?2 FROM ledger \
         WHERE reservation = ?1 AND amount > 0 \
         AND NOT EXISTS (SELECT 1 FROM ledger WHERE reservation = ?1 AND amount < 0)",
    )?
    .execute(params![reservation, why])
}

/// The warning levels charging `cost` to `subject` reaches, or the refusal when an allowance cannot cover it.
fn levels_reached(
    tx: &Connection,
    subject: &str,
    cost: Cost,
    defaults: Limits,
    period_start: i64,
) -> rusqlite::Result<Result<Vec<LevelReached>, Reserved>> {
    let own = own_allowance(tx, subject)?;
    let mut reached = Vec::new();
    for (kind, photos) in cost.parts() {
        let Some(limit) = own.get(kind).limit(defaults.get(kind)) else { continue };
        let used: i64 = tx.query_row(
            "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE subject = ?1 AND kind = ?2 AND at >= ?3",
            params![subject, kind.as_str(), period_start],
            |row| row.get(0),
        )?;
        let used = used.max(0) as u64;
        if used + photos > limit {
            return Ok(Err(Reserved::Refused { kind, used, limit }));
        }
        reached.extend(LevelReached::by_charge(kind, used, photos, limit));
    }
    Ok(Ok(reached))
}

/// Each of `render_id`'s charges' share that still stands (never given back), with when it was charged.
fn standing_shares(tx: &Connection, render_id: &str) -> rusqlite::Result<Vec<StandingShare>> {
    tx.prepare_cached(
        "SELECT DISTINCT c.reservation, l.subject, c.kind, c.photos, l.at \
         FROM render_charges c \
         JOIN ledger l ON l.reservation = c.reservation AND l.kind = c.kind AND l.amount > 0 \
             AND instr(',' || l.render_ids || ',', ',' || c.render_id || ',') > 0 \
         WHERE c.render_id = ?1 AND c.photos > 0 AND NOT EXISTS (SELECT 1 FROM ledger r \
             WHERE r.reservation = c.reservation AND r.kind = c.kind AND r.amount < 0 \
             AND r.render_ids IN (c.render_id, l.render_ids))",
    )?
    .query_map(params![render_id], |row| {
        let kind: String = row.get(2)?;
        Ok(StandingShare {
            reservation: row.get(0)?,
            subject: row.get(1)?,
            kind: UsageKind::parse(&kind).unwrap_or(UsageKind::Staging),
            photos: row.get::<_, i64>(3)?.max(0) as u64,
            at: row.get(4)?,
        })
    })?
    .collect()
}

/// How much of `share` may be given back: what fits its subject's allowance of its kind less what refunds saying
/// `why` gave back in its period (`RefundBounds`).
fn fitting_refund(tx: &Connection, share: &StandingShare, why: &str, bounds: RefundBounds) -> rusqlite::Result<u64> {
    let own = own_allowance(tx, &share.subject)?;
    let Some(limit) = own.get(share.kind).limit(bounds.defaults.get(share.kind)) else { return Ok(share.photos) };
    let period = bounds.period.containing(share.at);
    let given: i64 = tx.query_row(
        "SELECT COALESCE(-SUM(amount), 0) FROM ledger \
         WHERE subject = ?1 AND kind = ?2 AND amount < 0 AND what = ?3 AND at >= ?4 AND at < ?5",
        params![share.subject, share.kind.as_str(), why, period.start, period.end],
        |row| row.get(0),
    )?;
    Ok(RefundBounds::fitting(share.photos, Some(limit), given.max(0) as u64))
}

/// `subject`'s own allowance, as `vstage allowance set` stored it (all `Default` without one).
fn own_allowance(tx: &Connection, subject: &str) -> rusqlite::Result<SubjectAllowance> {
    Ok(tx
        .query_row("SELECT staging, image_editing FROM allowances WHERE subject = ?1", params![subject], |row| {
            Ok(SubjectAllowance::from_stored(row.get(0)?, row.get(1)?))
        })
        .optional()?
        .unwrap_or_default())
}
