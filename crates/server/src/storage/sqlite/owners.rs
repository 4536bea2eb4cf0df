//! `OwnerRecords` (`store/owners.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::{Creation, OwnerRecords};

#[async_trait]
impl OwnerRecords for Sqlite {
    async fn record_owners(
        &self,
        kind: Kind,
        ids: &[String],
        subject: &str,
        reported: &[OutboxEntry],
    ) -> Result<(), ServerError> {
        let (ids, subject, reported) = (ids.to_vec(), subject.to_string(), reported.to_vec());
        self.run(move |db| {
            let tx = db.transaction()?;
            for id in &ids {
                tx.execute(
                    "INSERT OR IGNORE INTO owners (kind, id, subject) VALUES (?1, ?2, ?3)",
                    params![kind.as_str(), id, subject],
                )?;
            }
            outbox::enqueue(&tx, &reported)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn owns_all(&self, kind: Kind, ids: &[String], subject: &str) -> Result<bool, ServerError> {
        let (ids, subject) = (ids.to_vec(), subject.to_string());
        self.run(move |db| {
            for id in &ids {
                if owner_of(db, kind, id)?.as_deref() != Some(subject.as_str()) {
                    return Ok(false);
                }
            }
            Ok(true)
        })
        .await
    }

    async fn owned_page(
        &self,
        kind: Kind,
        subject: &str,
        limit: u32,
        cursor: Option<&str>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError> {
        let (subject, cursor) = (subject.to_string(), cursor.map(str::to_string));
        self.run(move |db| {
            let after: Option<i64> = match &cursor {
                Some(cursor) => Some(
                    db.query_row(
                        "SELECT seq FROM owners WHERE kind = ?3 AND id = ?1 AND subject = ?2",
                        params![cursor, subject, kind.as_str()],
                        |row| row.get(0),
                    )
                    .optional()?
                    .ok_or_else(|| not_a_cursor(cursor))?,
                ),
                None => None,
            };
            let sql = format!(
                "SELECT id FROM owners WHERE kind = ?4 AND subject = ?1 AND (?2 IS NULL OR seq {} ?2)
                 ORDER BY seq {} LIMIT ?3",
                if ascending { ">" } else { "<" },
                if ascending { "ASC" } else { "DESC" }
            );
            let ids: Vec<String> = db
                .prepare_cached(&sql)?
                .query_map(params![subject, after, i64::from(limit) + 1, kind.as_str()], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            let total: i64 = db.query_row(
                "SELECT COUNT(*) FROM owners WHERE kind = ?2 AND subject = ?1",
                params![subject, kind.as_str()],
                |row| row.get(0),
            )?;
            Ok(OwnedPage::from_rows(ids, limit, total))
        })
        .await
    }

    async fn record_creation(&self, creation: &Creation<'_>, now: i64) -> Result<(), ServerError> {
        let (token, kind, subject) = (creation.token.to_string(), creation.kind, creation.subject.to_string());
        let photo = creation.photo.map(str::to_string);
        self.run(move |db| {
            db.execute(
                "INSERT OR IGNORE INTO creations (token, kind, subject, started_at, photo) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![token, kind.as_str(), subject, now, photo],
            )?;
            Ok(())
        })
        .await
    }

    async fn record_photos(&self, photos: &[(String, String)]) -> Result<(), ServerError> {
        let photos = photos.to_vec();
        self.run(move |db| {
            let tx = db.transaction()?;
            for (render_id, address) in &photos {
                tx.execute(
                    "INSERT OR IGNORE INTO render_photos (render_id, address) VALUES (?1, ?2)",
                    params![render_id, address],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn photo_of(&self, render_id: &str) -> Result<Option<String>, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |db| {
            let sql = "SELECT address FROM render_photos WHERE render_id = ?1";
            Ok(db.query_row(sql, params![render_id], |row| row.get(0)).optional()?)
        })
        .await
    }
}
