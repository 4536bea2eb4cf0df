//! `DisclosureRecords` (`store/disclosures.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::{CapReached, DisclosureRecords, RecordsCap};

#[async_trait]
impl DisclosureRecords for Sqlite {
    async fn record_disclosure(
        &self,
        record: &DisclosureRecord,
        reported: &[OutboxEntry],
        cap: Option<RecordsCap>,
    ) -> Result<Result<DisclosureRecord, CapReached>, ServerError> {
        let (record, reported) = (record.clone(), reported.to_vec());
        self.run(move |db| {
            // Immediate: the count below stays true until the commit, whichever connection writes next.
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            if let Some(recorded) = of_choice(&tx, &record.choice())? {
                return Ok(Ok(recorded));
            }
            if let Some(cap) = cap {
                let (made, oldest) = made_since(&tx, &record.subject, cap.since)?;
                if made >= cap.most {
                    return Ok(Err(CapReached { made, oldest }));
                }
            }
            tx.execute(
                &format!(
                    "INSERT INTO disclosures ({DISCLOSURE_COLUMNS}, choice) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
                ),
                params![
                    record.id,
                    record.subject,
                    record.created_at,
                    record.render_id,
                    record.variation_id,
                    record.image_index,
                    record.variation_type,
                    record.style,
                    record.furniture_removed,
                    record.profile,
                    record.lang,
                    record.photo_file,
                    record.original_file,
                    record.optimized_file,
                    record.thumbnail_file,
                    record.reference.listing_id,
                    reference_json(&record.reference),
                    record.replaces,
                    record.choice()
                ],
            )?;
            outbox::enqueue(&tx, &reported)?;
            tx.commit()?;
            Ok(Ok(record))
        })
        .await
    }

    async fn disclosure_of_choice(&self, choice: &str) -> Result<Option<DisclosureRecord>, ServerError> {
        let choice = choice.to_string();
        self.run(move |db| of_choice(db, &choice)).await
    }

    async fn disclosures_since(&self, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError> {
        let subject = subject.to_string();
        self.run(move |db| made_since(db, &subject, since)).await
    }

    async fn disclosure(&self, id: &str) -> Result<Option<DisclosureRecord>, ServerError> {
        let id = id.to_string();
        self.run(move |db| {
            Ok(db
                .query_row(
                    &format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE id = ?1"),
                    params![id],
                    read_disclosure,
                )
                .optional()?)
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
        self.run(move |db| {
            let (filter, subject) = match subject {
                Some(subject) => ("subject = ?1", subject),
                None => ("?1 = ''", String::new()),
            };
            Ok(db
                .prepare_cached(&format!(
                    "SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE {filter} \
                     AND (?3 IS NULL OR created_at < ?3 OR (created_at = ?3 AND id > ?4)) \
                     ORDER BY created_at DESC, id LIMIT ?2"
                ))?
                .query_map(params![subject, limit, at, id], read_disclosure)?
                .collect::<Result<_, _>>()?)
        })
        .await
    }
}

/// The record of `choice`, if it was made.
fn of_choice(db: &Connection, choice: &str) -> Result<Option<DisclosureRecord>, ServerError> {
    Ok(db
        .query_row(
            &format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE choice = ?1"),
            params![choice],
            read_disclosure,
        )
        .optional()?)
}

/// How many records `subject` made at or after `since`, and when the oldest of them was made.
fn made_since(db: &Connection, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError> {
    Ok(db.query_row(
        "SELECT COUNT(*), MIN(created_at) FROM disclosures WHERE subject = ?1 AND created_at >= ?2",
        params![subject, since],
        |row| Ok((row.get::<_, i64>(0)?.max(0) as u64, row.get(1)?)),
    )?)
}
