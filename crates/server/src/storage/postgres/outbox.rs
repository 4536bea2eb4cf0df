//! The host's webhooks' outbox (`storage/outbox.rs`) in PostgreSQL: a claim skips the rows another server is
//! claiming at that moment (`FOR UPDATE SKIP LOCKED`), and its lease keeps them from the others until it lapses.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::Postgres;
use crate::error::ServerError;
use crate::host_webhooks::events::RENDER_CREATED;
use crate::storage::outbox::{Attempt, Claimed, DeliveryCounts, DeliveryRow, HostOutbox, OutboxEntry};
use crate::storage::store::with_reference;

/// Puts `entries` in the outbox within `tx`, due at once; an entry already there (the same event for the same
/// receiver) is left as it is, and so is a render's `render.created` for a receiver it was reported created to
/// before (by the delivery that adopted it, or the creation's answer: whichever came first). The render's
/// references are filled in when an entry is claimed.
pub(super) async fn enqueue(tx: &impl GenericClient, entries: &[OutboxEntry]) -> Result<(), ServerError> {
    for entry in entries {
        if entry.kind == RENDER_CREATED && !entry.render_id.is_empty() {
            // Two servers reporting one render created (its adopting delivery, its answer) take turns here, so
            // the second sees the first's.
            let key = format!("render-created:{}", entry.render_id);
            tx.execute("SELECT pg_advisory_xact_lock(hashtext($1)::BIGINT)", &[&key]).await?;
        }
        tx.execute(
            "INSERT INTO host_outbox (id, target, render_id, kind, payload, created_at, next_at)
             SELECT $1, $2, $3::TEXT, $4::TEXT, $5, $6, $6
             WHERE $4::TEXT <> 'render.created' OR $3::TEXT = '' OR NOT EXISTS (SELECT 1 FROM host_outbox
                 WHERE render_id = $3::TEXT AND kind = 'render.created' AND target = $2)
             ON CONFLICT (id, target) DO NOTHING",
            &[&entry.id, &entry.target, &entry.render_id, &entry.kind, &entry.payload, &entry.created_at],
        )
        .await?;
    }
    Ok(())
}

const ROW_COLUMNS: &str = "id, target, render_id, kind, created_at, attempts, outcome, next_at, settled_at, last_error";

fn read_row(row: &Row) -> DeliveryRow {
    DeliveryRow {
        id: row.get(0),
        target: row.get(1),
        render_id: row.get(2),
        kind: row.get(3),
        created_at: row.get(4),
        attempts: row.get(5),
        outcome: row.get(6),
        next_at: row.get(7),
        settled_at: row.get(8),
        last_error: row.get(9),
    }
}

#[async_trait]
impl HostOutbox for Postgres {
    async fn claim_due(&self, target: &str, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<Claimed>, ServerError> {
        let target = target.to_string();
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let rows = client
                .query(
                    "UPDATE host_outbox SET lease_until = $1 + $2, attempts = attempts + 1
                     WHERE seq IN (
                         SELECT o.seq FROM host_outbox o
                         WHERE o.outcome = 'pending' AND o.target = $4 AND o.next_at <= $1 AND o.lease_until <= $1
                           AND NOT EXISTS (SELECT 1 FROM host_outbox e WHERE e.outcome = 'pending'
                               AND e.target = o.target AND e.render_id = o.render_id AND e.seq < o.seq)
                           AND NOT EXISTS (SELECT 1 FROM awaited_references a WHERE a.render_id = o.render_id
                               AND a.until > $1
                               AND NOT EXISTS (SELECT 1 FROM render_references r WHERE r.render_id = o.render_id))
                         ORDER BY o.seq LIMIT $3
                         FOR UPDATE SKIP LOCKED)
                     RETURNING seq, id, target, render_id, kind, payload, created_at, attempts,
                         (SELECT reference FROM render_references r WHERE r.render_id = host_outbox.render_id)",
                    &[&now, &lease_ms, &limit, &target],
                )
                .await?;
            let mut claimed: Vec<Claimed> = rows
                .iter()
                .map(|row| Claimed {
                    seq: row.get(0),
                    entry: OutboxEntry {
                        id: row.get(1),
                        target: row.get(2),
                        render_id: row.get(3),
                        kind: row.get(4),
                        payload: match row.get::<_, String>(3).is_empty() {
                            true => row.get(5),
                            false => with_reference(row.get(5), row.get::<_, Option<&str>>(8)),
                        },
                        created_at: row.get(6),
                    },
                    attempts: row.get(7),
                })
                .collect();
            claimed.sort_by_key(|claim| claim.seq);
            Ok(claimed)
        })
        .await
    }

    async fn pending_targets(&self) -> Result<Vec<String>, ServerError> {
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let rows = client
                .query("SELECT DISTINCT target FROM host_outbox WHERE outcome = 'pending' ORDER BY target", &[])
                .await?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
        .await
    }

    async fn settle_delivery(&self, seq: i64, attempt: Attempt, now: i64) -> Result<(), ServerError> {
        self.run(move |pool| async move {
            let client = pool.get().await?;
            match attempt {
                Attempt::Sent => {
                    client
                        .execute(
                            "UPDATE host_outbox SET outcome = 'sent', settled_at = $2, last_error = '' WHERE seq = $1",
                            &[&seq, &now],
                        )
                        .await?
                }
                Attempt::Retry { at, why } => {
                    client
                        .execute(
                            "UPDATE host_outbox SET next_at = $2, lease_until = 0, last_error = $3 WHERE seq = $1",
                            &[&seq, &at, &why],
                        )
                        .await?
                }
                Attempt::GaveUp { why } => client
                    .execute(
                        "UPDATE host_outbox SET outcome = 'failed', settled_at = $2, last_error = $3 WHERE seq = $1",
                        &[&seq, &now, &why],
                    )
                    .await?,
            };
            Ok(())
        })
        .await
    }

    async fn deliveries(&self, outcome: Option<&str>, limit: i64) -> Result<Vec<DeliveryRow>, ServerError> {
        let outcome = outcome.map(str::to_string);
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {ROW_COLUMNS} FROM host_outbox WHERE $1::TEXT IS NULL OR outcome = $1
                         ORDER BY seq DESC LIMIT $2"
                    ),
                    &[&outcome, &limit],
                )
                .await?;
            Ok(rows.iter().map(read_row).collect())
        })
        .await
    }

    async fn retry_delivery(&self, id: &str, to: Option<&str>, now: i64) -> Result<u64, ServerError> {
        let (id, to) = (id.to_string(), to.map(str::to_string));
        self.run(move |pool| async move {
            let client = pool.get().await?;
            Ok(client
                .execute(
                    "UPDATE host_outbox SET next_at = $2, settled_at = NULL,
                         lease_until = CASE WHEN outcome = 'pending' THEN lease_until ELSE 0 END, outcome = 'pending'
                     WHERE id = $1 AND ($3::TEXT IS NULL OR target = $3)",
                    &[&id, &now, &to],
                )
                .await?)
        })
        .await
    }

    async fn delivery_counts(&self) -> Result<DeliveryCounts, ServerError> {
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let mut counts = DeliveryCounts::default();
            for row in client.query("SELECT outcome, COUNT(*) FROM host_outbox GROUP BY outcome", &[]).await? {
                let count = u64::try_from(row.get::<_, i64>(1)).unwrap_or(0);
                match row.get::<_, String>(0).as_str() {
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
        self.run(move |pool| async move {
            let forgotten = pool
                .get()
                .await?
                .execute(
                    "DELETE FROM host_outbox WHERE outcome <> 'pending'
                     AND settled_at < CASE outcome WHEN 'sent' THEN $1::BIGINT ELSE $2::BIGINT END",
                    &[&sent_before, &failed_before],
                )
                .await?;
            Ok(forgotten)
        })
        .await
    }
}
