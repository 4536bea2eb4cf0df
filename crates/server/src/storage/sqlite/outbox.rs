//! The host's webhooks' outbox (`storage/outbox.rs`) in SQLite: one connection, so a claim is one statement.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, Transaction, params};

use super::Sqlite;
use crate::error::ServerError;
use crate::storage::outbox::{Attempt, Claimed, DeliveryCounts, DeliveryRow, HostOutbox, OutboxEntry};
use crate::storage::store::with_reference;

/// Puts `entries` in the outbox within `tx`, due at once; an entry already there (the same event for the same
/// receiver) is left as it is, and so is a render's `render.created` for a receiver it was reported created to
/// before (by the delivery that adopted it, or the creation's answer: whichever came first). The render's
/// references are filled in when an entry is claimed.
pub(super) fn enqueue(tx: &Transaction<'_>, entries: &[OutboxEntry]) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO host_outbox (id, target, render_id, kind, payload, created_at, next_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6
         WHERE ?4 <> 'render.created' OR ?3 = '' OR NOT EXISTS (SELECT 1 FROM host_outbox
             WHERE render_id = ?3 AND kind = 'render.created' AND target = ?2)
         ON CONFLICT (id, target) DO NOTHING",
    )?;
    for entry in entries {
        insert.execute(params![
            entry.id,
            entry.target,
            entry.render_id,
            entry.kind,
            entry.payload,
            entry.created_at
        ])?;
    }
    Ok(())
}

/// `claimed`'s payload with its render's references, as kept now (`with_reference`); an entry about no render as
/// it is.
fn with_references_kept(db: &rusqlite::Connection, mut claimed: Claimed) -> rusqlite::Result<Claimed> {
    if claimed.entry.render_id.is_empty() {
        return Ok(claimed);
    }
    let mut reference = db.prepare_cached("SELECT reference FROM render_references WHERE render_id = ?1")?;
    let kept: Option<String> = reference.query_row([&claimed.entry.render_id], |row| row.get(0)).optional()?;
    claimed.entry.payload = with_reference(&claimed.entry.payload, kept.as_deref());
    Ok(claimed)
}

const ROW_COLUMNS: &str = "id, target, render_id, kind, created_at, attempts, outcome, next_at, settled_at, last_error";

fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<DeliveryRow> {
    Ok(DeliveryRow {
        id: row.get(0)?,
        target: row.get(1)?,
        render_id: row.get(2)?,
        kind: row.get(3)?,
        created_at: row.get(4)?,
        attempts: row.get(5)?,
        outcome: row.get(6)?,
        next_at: row.get(7)?,
        settled_at: row.get(8)?,
        last_error: row.get(9)?,
    })
}

#[async_trait]
impl HostOutbox for Sqlite {
    async fn claim_due(&self, target: &str, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<Claimed>, ServerError> {
        let target = target.to_string();
        self.run(move |db| {
            let mut claim = db.prepare_cached(
                "UPDATE host_outbox SET lease_until = ?1 + ?2, attempts = attempts + 1
                 WHERE seq IN (
                     SELECT o.seq FROM host_outbox o
                     WHERE o.outcome = 'pending' AND o.target = ?4 AND o.next_at <= ?1 AND o.lease_until <= ?1
                       AND NOT EXISTS (SELECT 1 FROM host_outbox e WHERE e.outcome = 'pending'
                           AND e.target = o.target AND e.render_id = o.render_id AND e.seq < o.seq)
                       AND NOT EXISTS (SELECT 1 FROM awaited_references a WHERE a.render_id = o.render_id
                           AND a.until > ?1
                           AND NOT EXISTS (SELECT 1 FROM render_references r WHERE r.render_id = o.render_id))
                     ORDER BY o.seq LIMIT ?3)
                 RETURNING seq, id, target, render_id, kind, payload, created_at, attempts",
            )?;
            let claimed = claim.query_map(params![now, lease_ms, limit, target], |row| {
                Ok(Claimed {
                    seq: row.get(0)?,
                    entry: OutboxEntry {
                        id: row.get(1)?,
                        target: row.get(2)?,
                        render_id: row.get(3)?,
                        kind: row.get(4)?,
                        payload: row.get(5)?,
                        created_at: row.get(6)?,
                    },
                    attempts: row.get(7)?,
                })
            })?;
            let mut claimed = claimed.collect::<Result<Vec<_>, _>>()?;
            claimed.sort_by_key(|claim| claim.seq);
            Ok(claimed.into_iter().map(|claim| with_references_kept(db, claim)).collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }

    async fn pending_targets(&self) -> Result<Vec<String>, ServerError> {
        self.run(move |db| {
            let mut query =
                db.prepare_cached("SELECT DISTINCT target FROM host_outbox WHERE outcome = 'pending' ORDER BY target")?;
            let targets = query.query_map([], |row| row.get(0))?;
            Ok(targets.collect::<Result<Vec<String>, _>>()?)
        })
        .await
    }

    async fn settle_delivery(&self, seq: i64, attempt: Attempt, now: i64) -> Result<(), ServerError> {
        self.run(move |db| {
            match attempt {
                Attempt::Sent => db.execute(
                    "UPDATE host_outbox SET outcome = 'sent', settled_at = ?2, last_error = '' WHERE seq = ?1",
                    params![seq, now],
                )?,
                Attempt::Retry { at, why } => db.execute(
                    "UPDATE host_outbox SET next_at = ?2, lease_until = 0, last_error = ?3 WHERE seq = ?1",
                    params![seq, at, why],
                )?,
                Attempt::GaveUp { why } => db.execute(
                    "UPDATE host_outbox SET outcome = 'failed', settled_at = ?2, last_error = ?3 WHERE seq = ?1",
                    params![seq, now, why],
                )?,
            };
            Ok(())
        })
        .await
    }

    async fn deliveries(&self, outcome: Option<&str>, limit: i64) -> Result<Vec<DeliveryRow>, ServerError> {
        let outcome = outcome.map(str::to_string);
        self.run(move |db| {
            let mut query = db.prepare_cached(&format!(
                "SELECT {ROW_COLUMNS} FROM host_outbox WHERE ?1 IS NULL OR outcome = ?1 ORDER BY seq DESC LIMIT ?2"
            ))?;
            let rows = query.query_map(params![outcome, limit], read_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }

    async fn retry_delivery(&self, id: &str, to: Option<&str>, now: i64) -> Result<u64, ServerError> {
        let (id, to) = (id.to_string(), to.map(str::to_string));
        self.run(move |db| {
            let reset = db.execute(
                "UPDATE host_outbox SET next_at = ?2, settled_at = NULL,
                     lease_until = CASE WHEN outcome = 'pending' THEN lease_until ELSE 0 END, outcome = 'pending'
                 WHERE id = ?1 AND (?3 IS NULL OR target = ?3)",
                params![id, now, to],
            )?;
            Ok(reset as u64)
        })
        .await
    }

    async fn delivery_counts(&self) -> Result<DeliveryCounts, ServerError> {
        self.run(move |db| {
            let mut counts = DeliveryCounts::default();
            let mut query = db.prepare_cached("SELECT outcome, COUNT(*) FROM host_outbox GROUP BY outcome")?;
            let rows = query.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?)))?;
            for row in rows {
                let (outcome, count) = row?;
                let count = u64::try_from(count).unwrap_or(0);
                match outcome.as_str() {
                    "pending" => counts.pending = count,
                    "sent" => counts.sent = count,
                    _ => counts.failed += count,
                }
            }
            Ok(counts)
        })
        .await
    }

    async fn forget_settled(&self, sent_before: i64, failed_before: i64) -> Result<u64, ServerError> {
        self.run(move |db| {
            let forgotten = db.execute(
                "DELETE FROM host_outbox WHERE outcome <> 'pending'
                 AND settled_at < CASE outcome WHEN 'sent' THEN ?1 ELSE ?2 END",
                params![sent_before, failed_before],
            )?;
            Ok(forgotten as u64)
        })
        .await
    }
}
