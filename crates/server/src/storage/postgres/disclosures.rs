//! `DisclosureRecords` (`store/disclosures.rs`) on PostgreSQL: its SQL.

use super::*;
use crate::storage::store::{CapReached, DisclosureRecords, RecordsCap};

#[async_trait]
impl DisclosureRecords for Postgres {
    async fn record_disclosure(
        &self,
        record: &DisclosureRecord,
        reported: &[OutboxEntry],
        cap: Option<RecordsCap>,
    ) -> Result<Result<DisclosureRecord, CapReached>, ServerError> {
        let (record, reported) = (record.clone(), reported.to_vec());
        self.run(move |pool| async move {
            let index = i64::from(record.image_index);
            let choice = record.choice();
            let reference = reference_json(&record.reference);
            let mut connection = pool.get().await?;
            let tx = connection.transaction().await?;
            // One record of a subject's at a time, whichever server makes it: what it counts stays so.
            lock(&tx, "disclosures", &record.subject).await?;
            if let Some(recorded) = of_choice(&tx, &choice).await? {
                return Ok(Ok(recorded));
            }
            if let Some(cap) = cap {
                let (made, oldest) = made_since(&tx, &record.subject, cap.since).await?;
                if made >= cap.most {
                    return Ok(Err(CapReached { made, oldest }));
                }
            }
            tx.execute(
                &format!(
                    "INSERT INTO disclosures ({DISCLOSURE_COLUMNS}, choice) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
                ),
                &[
                    &record.id,
                    &record.subject,
                    &record.created_at,
                    &record.render_id,
                    &record.variation_id,
                    &index,
                    &record.variation_type,
                    &record.style,
                    &record.furniture_removed,
                    &record.profile,
                    &record.lang,
                    &record.photo_file,
                    &record.original_file,
                    &record.optimized_file,
                    &record.thumbnail_file,
                    &record.reference.listing_id,
                    &reference,
                    &record.replaces,
                    &choice,
                ],
            )
            .await?;
            outbox::enqueue(&tx, &reported).await?;
            tx.commit().await?;
            Ok(Ok(record))
        })
        .await
    }

    async fn disclosure_of_choice(&self, choice: &str) -> Result<Option<DisclosureRecord>, ServerError> {
        let choice = choice.to_string();
        self.run(move |pool| async move { of_choice(&pool.get().await?, &choice).await }).await
    }

    async fn disclosures_since(&self, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move { made_since(&pool.get().await?, &subject, since).await }).await
    }

    async fn disclosure(&self, id: &str) -> Result<Option<DisclosureRecord>, ServerError> {
        let id = id.to_string();
        self.run(move |pool| async move {
            let row = pool
                .get()
                .await?
                .query_opt(&format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE id = $1"), &[&id])
                .await?;
            Ok(row.as_ref().map(read_disclosure))
        })
        .await
    }

    async fn disclosures(
        &self,
        subject: Option<&str>,
        limit: u32,
        after: Option<&DisclosureCursor>,
    ) -> Result<Vec<DisclosureRecord>, ServerError> {
        let subject = subject.map(str::to_string);
        let (at, id) = after.map(|cursor| (cursor.created_at, cursor.id.clone())).unzip();
        self.run(move |pool| async move {
            let limit = i64::from(limit);
            let rows = pool
                .get()
                .await?
                .query(
                    &format!(
                        "SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE ($1::TEXT IS NULL OR subject = $1) \
                         AND ($3::BIGINT IS NULL OR created_at < $3 OR (created_at = $3 AND id > $4::TEXT)) \
                         ORDER BY created_at DESC, id LIMIT $2"
                    ),
                    &[&subject, &limit, &at, &id],
                )
                .await?;
            Ok(rows.iter().map(read_disclosure).collect())
        })
        .await
    }
}

/// The record of `choice`, if it was made.
async fn of_choice(client: &impl GenericClient, choice: &str) -> Result<Option<DisclosureRecord>, ServerError> {
    let row = client
        .query_opt(&format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE choice = $1"), &[&choice])
        .await?;
    Ok(row.as_ref().map(read_disclosure))
}

/// How many records `subject` made at or after `since`, and when the oldest of them was made.
async fn made_since(client: &impl GenericClient, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError> {
    let row = client
        .query_one(
            "SELECT COUNT(*), MIN(created_at) FROM disclosures WHERE subject = $1 AND created_at >= $2",
            &[&subject, &since],
        )
        .await?;
    Ok((row.get::<_, i64>(0).max(0) as u64, row.get(1)))
}
