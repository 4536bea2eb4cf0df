//! `SignerRecords` (`store/signer.rs`) on PostgreSQL: its SQL.

use super::*;
use crate::storage::store::{SignerRecord, SignerRecords};

fn signer_of(row: &Row) -> SignerRecord {
    SignerRecord { chain_pem: row.get(0), key_pem: row.get(1), root_pem: row.get(2) }
}

#[async_trait]
impl SignerRecords for Postgres {
    async fn signer(&self) -> Result<Option<SignerRecord>, ServerError> {
        self.run(|pool| async move {
            let row =
                pool.get().await?.query_opt("SELECT chain, key, root FROM content_signer WHERE id = 1", &[]).await?;
            Ok(row.as_ref().map(signer_of))
        })
        .await
    }

    async fn keep_signer(&self, made: &SignerRecord) -> Result<SignerRecord, ServerError> {
        let made = made.clone();
        self.run(move |pool| async move {
            let client = pool.get().await?;
            client
                .execute(
                    "INSERT INTO content_signer (id, chain, key, root) VALUES (1, $1, $2, $3) ON CONFLICT DO NOTHING",
                    &[&made.chain_pem, &made.key_pem, &made.root_pem],
                )
                .await?;
            let row = client.query_one("SELECT chain, key, root FROM content_signer WHERE id = 1", &[]).await?;
            Ok(signer_of(&row))
        })
        .await
    }
}
