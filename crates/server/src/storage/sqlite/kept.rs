//! `KeptRecords` (`store/kept.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::KeptRecords;

/// Kept files past their retention (made before the cutoff): not those of a variation a disclosure names, whose page
/// and original stay as long as the disclosure does (its owner removes them, `DELETE /api/results/...`).
const EXPIRED: &str = "removed = 0 AND kept_at < ?1
    AND NOT EXISTS (SELECT 1 FROM disclosures d
        WHERE d.render_id = kept_results.render_id AND d.variation_id = kept_results.variation_id)";

#[async_trait]
impl KeptRecords for Sqlite {
    async fn kept_files(&self, renders: &[String]) -> Result<Vec<KeptFile>, ServerError> {
        let renders = renders.to_vec();
        self.run(move |db| {
            let mut query =
                db.prepare_cached(&format!("SELECT {KEPT_COLUMNS} FROM kept_results WHERE render_id = ?1"))?;
            let mut files = Vec::new();
            for render in &renders {
                files.extend(query.query_map(params![render], read_kept)?.collect::<Result<Vec<_>, _>>()?);
            }
            Ok(files)
        })
        .await
    }

    async fn ever_kept(&self, render_id: &str, variation_id: &str) -> Result<bool, ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |db| {
            Ok(db.query_row(
                "SELECT EXISTS (SELECT 1 FROM kept_results WHERE render_id = ?1 AND variation_id = ?2)",
                params![render, variation],
                |row| row.get(0),
            )?)
        })
        .await
    }

    async fn record_kept(
        &self,
        files: &[KeptFile],
        reported: &[OutboxEntry],
        quota: Option<u64>,
    ) -> Result<Result<(), u64>, ServerError> {
        let (files, reported) = (files.to_vec(), reported.to_vec());
        self.run(move |db| {
            // Immediate: what the subject keeps stays as counted until the commit.
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let used = match files.first() {
                Some(first) => kept_by(&tx, &first.subject)?,
                None => 0,
            };
            let (mut new, mut adding) = (0, 0u64);
            for file in &files {
                let insert = format!(
                    "INSERT OR IGNORE INTO kept_results ({KEPT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                );
                let inserted = tx.execute(
                    &insert,
                    params![
                        file.render_id,
                        file.variation_id,
                        file.file,
                        file.image_index,
                        file.role,
                        file.subject,
                        file.bytes as i64,
                        file.kept_at,
                        file.removed
                    ],
                )?;
                new += inserted;
                adding += if inserted > 0 && !file.removed { file.bytes } else { 0 };
            }
            if quota.is_some_and(|quota| used + adding > quota) {
                return Ok(Err(used));
            }
            if new > 0 {
                outbox::enqueue(&tx, &reported)?;
            }
            tx.commit()?;
            Ok(Ok(()))
        })
        .await
    }

    async fn kept_bytes(&self, subject: &str) -> Result<u64, ServerError> {
        let subject = subject.to_string();
        self.run(move |db| kept_by(db, &subject)).await
    }

    async fn mark_kept_removed(&self, render_id: &str, variation_id: &str) -> Result<(), ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |db| {
            db.execute(
                "UPDATE kept_results SET removed = 1 WHERE render_id = ?1 AND variation_id = ?2",
                params![render, variation],
            )?;
            Ok(())
        })
        .await
    }

    async fn take_expired_kept(&self, cutoff: i64) -> Result<Vec<KeptFile>, ServerError> {
        self.run(move |db| {
            let sql = format!("UPDATE kept_results SET removed = 1 WHERE {EXPIRED} RETURNING {KEPT_COLUMNS}");
            Ok(db.prepare_cached(&sql)?.query_map(params![cutoff], read_kept)?.collect::<Result<_, _>>()?)
        })
        .await
    }
}

/// The bytes `subject` keeps now.
fn kept_by(db: &Connection, subject: &str) -> Result<u64, ServerError> {
    let used: i64 = db.query_row(
        "SELECT COALESCE(SUM(bytes), 0) FROM kept_results WHERE subject = ?1 AND removed = 0",
        params![subject],
        |row| row.get(0),
    )?;
    Ok(used.max(0) as u64)
}
