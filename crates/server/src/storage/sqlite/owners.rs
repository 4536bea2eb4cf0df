//! `OwnerRecords` (`store/owners.rs`) on SQLite: its SQL.

use vstage_api::host_reference::HostReference;

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
        listing: Option<&str>,
        limit: u32,
        cursor: Option<&str>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError> {
        let (subject, cursor, listing) = (subject.to_string(), cursor.map(str::to_string), listing.map(str::to_string));
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
                "SELECT id FROM owners WHERE kind = ?4 AND subject = ?1 AND (?2 IS NULL OR seq {} ?2) AND {}
                 ORDER BY seq {} LIMIT ?3",
                if ascending { ">" } else { "<" },
                in_listing(5),
                if ascending { "ASC" } else { "DESC" }
            );
            let ids: Vec<String> = db
                .prepare_cached(&sql)?
                .query_map(params![subject, after, i64::from(limit) + 1, kind.as_str(), listing], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            let total: i64 = db.query_row(
                &format!("SELECT COUNT(*) FROM owners WHERE kind = ?2 AND subject = ?1 AND {}", in_listing(3)),
                params![subject, kind.as_str(), listing],
                |row| row.get(0),
            )?;
            Ok(OwnedPage::from_rows(ids, limit, total))
        })
        .await
    }

    async fn record_creation(&self, creation: &Creation<'_>, now: i64) -> Result<(), ServerError> {
        let (token, kind, subject) = (creation.token.to_string(), creation.kind, creation.subject.to_string());
        let photo = creation.photo.map(str::to_string);
        let (reference, differ) = (creation.reference.map(reference_json), creation.references_differ);
        self.run(move |db| {
            db.execute(
                "INSERT OR IGNORE INTO creations (token, kind, subject, started_at, photo, reference, references_differ)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![token, kind.as_str(), subject, now, photo, reference, differ],
            )?;
            Ok(())
        })
        .await
    }

    async fn record_photos(&self, photos: &[RenderPhoto]) -> Result<(), ServerError> {
        let photos = photos.to_vec();
        self.run(move |db| {
            let tx = db.transaction()?;
            for RenderPhoto { render_id, view, address } in &photos {
                match view {
                    0 => tx.execute(
                        "INSERT OR IGNORE INTO render_photos (render_id, address) VALUES (?1, ?2)",
                        params![render_id, address],
                    )?,
                    view => tx.execute(
                        "INSERT OR IGNORE INTO render_views (render_id, view_index, address) VALUES (?1, ?2, ?3)",
                        params![render_id, view, address],
                    )?,
                };
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn photo_of(&self, render_id: &str, view: u32) -> Result<Option<String>, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |db| {
            let found = match view {
                0 => db
                    .query_row("SELECT address FROM render_photos WHERE render_id = ?1", params![render_id], |row| {
                        row.get(0)
                    })
                    .optional()?,
                view => db
                    .query_row(
                        "SELECT address FROM render_views WHERE render_id = ?1 AND view_index = ?2",
                        params![render_id, view],
                        |row| row.get(0),
                    )
                    .optional()?,
            };
            Ok(found)
        })
        .await
    }

    async fn record_references(&self, references: &[(String, HostReference)]) -> Result<(), ServerError> {
        let rows: Vec<(String, Option<String>, String)> = references
            .iter()
            .map(|(render_id, reference)| (render_id.clone(), reference.listing_id.clone(), reference_json(reference)))
            .collect();
        self.run(move |db| {
            let tx = db.transaction()?;
            for (render_id, listing_id, reference) in &rows {
                tx.execute(
                    "INSERT OR IGNORE INTO render_references (render_id, listing_id, reference) VALUES (?1, ?2, ?3)",
                    params![render_id, listing_id, reference],
                )?;
                tx.execute("DELETE FROM awaited_references WHERE render_id = ?1", params![render_id])?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn reference_of(&self, render_id: &str) -> Result<HostReference, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |db| {
            let sql = "SELECT reference FROM render_references WHERE render_id = ?1";
            let json: Option<String> = db.query_row(sql, params![render_id], |row| row.get(0)).optional()?;
            Ok(reference_of_json(json.as_deref()))
        })
        .await
    }

    async fn listings_of(&self, render_ids: &[String]) -> Result<Vec<(String, String)>, ServerError> {
        let render_ids = render_ids.to_vec();
        self.run(move |db| {
            let mut query = db.prepare_cached(
                "SELECT listing_id FROM render_references WHERE render_id = ?1 AND listing_id IS NOT NULL",
            )?;
            let mut listings = Vec::new();
            for render_id in render_ids {
                if let Some(listing) = query.query_row(params![render_id], |row| row.get(0)).optional()? {
                    listings.push((render_id, listing));
                }
            }
            Ok(listings)
        })
        .await
    }
}

/// The condition on `owners` that keeps one listing's renders, the listing's id in parameter `n` (all when null).
fn in_listing(n: u8) -> String {
    format!("(?{n} IS NULL OR id IN (SELECT render_id FROM render_references WHERE listing_id = ?{n}))")
}
