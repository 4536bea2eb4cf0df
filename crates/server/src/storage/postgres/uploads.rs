//! `UploadRecords` (`store/uploads.rs`) on PostgreSQL: its SQL.

use super::*;
use crate::storage::store::UploadRecords;

#[async_trait]
impl UploadRecords for Postgres {
    async fn reserve_upload(&self, upload: &UploadRecord, quota: Option<u64>) -> Result<Result<(), u64>, ServerError> {
        let upload = upload.clone();
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // Two uploads of one subject at once, on any servers, cannot both squeeze under the quota.
            lock(&tx, "uploads", &upload.subject).await?;
            if let Some(quota) = quota {
                let used: i64 = tx
                    .query_one(
                        "SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM uploads WHERE subject = $1",
                        &[&upload.subject],
                    )
                    .await?
                    .get(0);
                let used = used.max(0) as u64;
                if used + upload.bytes > quota {
                    return Ok(Err(used));
                }
            }
            tx.execute(
                "INSERT INTO uploads (name, subject, bytes, stored_at) VALUES ($1, $2, $3, $4)",
                &[&upload.name, &upload.subject, &(upload.bytes as i64), &upload.stored_at],
            )
            .await?;
            tx.commit().await?;
            Ok(Ok(()))
        })
        .await
    }

    async fn forget_uploads(&self, names: &[String]) -> Result<(), ServerError> {
        let names = names.to_vec();
        self.run(move |pool| async move {
            pool.get().await?.execute("DELETE FROM uploads WHERE name = ANY($1)", &[&names]).await?;
            Ok(())
        })
        .await
    }
}
