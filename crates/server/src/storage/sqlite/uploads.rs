//! `UploadRecords` (`store/uploads.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::UploadRecords;

#[async_trait]
impl UploadRecords for Sqlite {
    async fn reserve_upload(&self, upload: &UploadRecord, quota: Option<u64>) -> Result<Result<(), u64>, ServerError> {
        let upload = upload.clone();
        self.run(move |db| {
            // Immediate: the uploads counted stay so until the commit, whichever connection writes next.
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            if let Some(quota) = quota {
                let used: i64 = tx.query_row(
                    "SELECT COALESCE(SUM(bytes), 0) FROM uploads WHERE subject = ?1",
                    [&upload.subject],
                    |row| row.get(0),
                )?;
                let used = used.max(0) as u64;
                if used + upload.bytes > quota {
                    return Ok(Err(used));
                }
            }
            tx.execute(
                "INSERT INTO uploads (name, subject, bytes, stored_at) VALUES (?1, ?2, ?3, ?4)",
                params![upload.name, upload.subject, upload.bytes as i64, upload.stored_at],
            )?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await
    }

    async fn forget_uploads(&self, names: &[String]) -> Result<(), ServerError> {
        let names = names.to_vec();
        self.run(move |db| {
            let tx = db.transaction()?;
            for name in &names {
                tx.execute("DELETE FROM uploads WHERE name = ?1", [name])?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }
}
