//! `SignerRecords` (`store/signer.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::{SignerRecord, SignerRecords};

fn read_signer(db: &Connection) -> Result<Option<SignerRecord>, ServerError> {
    Ok(db
        .query_row("SELECT chain, key, root FROM content_signer WHERE id = 1", [], |row| {
            Ok(SignerRecord { chain_pem: row.get(0)?, key_pem: row.get(1)?, root_pem: row.get(2)? })
        })
        .optional()?)
}

#[async_trait]
impl SignerRecords for Sqlite {
    async fn signer(&self) -> Result<Option<SignerRecord>, ServerError> {
        self.run(|db| read_signer(db)).await
    }

    async fn keep_signer(&self, made: &SignerRecord) -> Result<SignerRecord, ServerError> {
        let made = made.clone();
        self.run(move |db| {
            let tx = db.transaction()?;
            tx.execute(
                "INSERT OR IGNORE INTO content_signer (id, chain, key, root) VALUES (1, ?1, ?2, ?3)",
                params![made.chain_pem, made.key_pem, made.root_pem],
            )?;
            let kept = read_signer(&tx)?.unwrap_or(made);
            tx.commit()?;
            Ok(kept)
        })
        .await
    }
}
