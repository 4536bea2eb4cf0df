//! `KeptRecords` (`store/kept.rs`) on PostgreSQL: its SQL.

use super::*;
use crate::storage::store::KeptRecords;

/// Kept files past their retention (made before the cutoff): not those of a variation a disclosure names, whose page
/// and original stay as long as the disclosure does (its owner removes them, `DELETE /api/results/...`).
const EXPIRED: &str = "NOT removed AND kept_at < $1
    AND NOT EXISTS (SELECT 1 FROM disclosures d
        WHERE d.render_id = kept_results.render_id AND d.variation_id = kept_results.variation_id)";

#[async_trait]
impl KeptRecords for Postgres {
    async fn kept_files(&self, renders: &[String]) -> Result<Vec<KeptFile>, ServerError> {
        let renders = renders.to_vec();
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(&format!("SELECT {KEPT_COLUMNS} FROM kept_results WHERE render_id = ANY($1)"), &[&renders])
                .await?;
            Ok(rows.iter().map(read_kept).collect())
        })
        .await
    }

    async fn ever_kept(&self, render_id: &str, variation_id: &str) -> Result<bool, ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |pool| async move {
            Ok(pool
                .get()
                .await?
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM kept_results WHERE render_id = $1 AND variation_id = $2)",
                    &[&render, &variation],
                )
                .await?
                .get(0))
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
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let used = match files.first() {
                Some(first) => {
                    // One record of a subject's kept files at a time, whichever server makes it.
                    lock(&tx, "kept", &first.subject).await?;
                    kept_by(&tx, &first.subject).await?
                }
                None => 0,
            };
            let (mut new, mut adding) = (0, 0u64);
            for file in &files {
                let inserted = tx
                    .execute(
                        &format!(
                            "INSERT INTO kept_results ({KEPT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                         ON CONFLICT DO NOTHING"
                        ),
                        &[
                            &file.render_id,
                            &file.variation_id,
                            &file.file,
                            &i64::from(file.image_index),
                            &file.role,
                            &file.subject,
                            &(file.bytes as i64),
                            &file.kept_at,
                            &file.removed,
                        ],
                    )
                    .await?;
                new += inserted;
                adding += if inserted > 0 && !file.removed { file.bytes } else { 0 };
            }
            if quota.is_some_and(|quota| used + adding > quota) {
                return Ok(Err(used));
            }
            if new > 0 {
                outbox::enqueue(&tx, &reported).await?;
            }
            tx.commit().await?;
            Ok(Ok(()))
        })
        .await
    }

    async fn kept_bytes(&self, subject: &str) -> Result<u64, ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move { kept_by(&pool.get().await?, &subject).await }).await
    }

    async fn mark_kept_removed(&self, render_id: &str, variation_id: &str) -> Result<(), ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute(
                    "UPDATE kept_results SET removed = TRUE WHERE render_id = $1 AND variation_id = $2",
                    &[&render, &variation],
                )
                .await?;
            Ok(())
        })
        .await
    }

    async fn take_expired_kept(&self, cutoff: i64) -> Result<Vec<KeptFile>, ServerError> {
        self.run(move |pool| async move {
            let sql = format!("UPDATE kept_results SET removed = TRUE WHERE {EXPIRED} RETURNING {KEPT_COLUMNS}");
            let rows = pool.get().await?.query(&sql, &[&cutoff]).await?;
            Ok(rows.iter().map(read_kept).collect())
        })
        .await
    }
}

/// The bytes `subject` keeps now.
async fn kept_by(client: &impl GenericClient, subject: &str) -> Result<u64, ServerError> {
    let used: i64 = client
        .query_one(
            "SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM kept_results WHERE subject = $1 AND NOT removed",
            &[&subject],
        )
        .await?
        .get(0);
    Ok(used.max(0) as u64)
}
