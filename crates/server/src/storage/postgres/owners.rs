//! `OwnerRecords` (`store/owners.rs`) on PostgreSQL: its SQL.

use vstage_api::host_reference::HostReference;

use super::*;
use crate::storage::store::{Creation, OwnerRecords};

#[async_trait]
impl OwnerRecords for Postgres {
    async fn record_owners(
        &self,
        kind: Kind,
        ids: &[String],
        subject: &str,
        reported: &[OutboxEntry],
    ) -> Result<(), ServerError> {
        let (ids, subject, reported) = (ids.to_vec(), subject.to_string(), reported.to_vec());
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                "INSERT INTO owners (kind, id, subject) SELECT $1, id, $3 FROM unnest($2::TEXT[]) AS id
                 ON CONFLICT (kind, id) DO NOTHING",
                &[&kind.as_str(), &ids, &subject],
            )
            .await?;
            outbox::enqueue(&tx, &reported).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn owns_all(&self, kind: Kind, ids: &[String], subject: &str) -> Result<bool, ServerError> {
        let (mut ids, subject) = (ids.to_vec(), subject.to_string());
        ids.sort();
        ids.dedup();
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let owned: i64 = client
                .query_one(
                    "SELECT COUNT(*) FROM owners WHERE kind = $1 AND subject = $2 AND id = ANY($3)",
                    &[&kind.as_str(), &subject, &ids],
                )
                .await?
                .get(0);
            Ok(owned as usize == ids.len())
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
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let after: Option<i64> = match &cursor {
                Some(cursor) => Some(
                    client
                        .query_opt(
                            "SELECT seq FROM owners WHERE kind = $1 AND id = $2 AND subject = $3",
                            &[&kind.as_str(), cursor, &subject],
                        )
                        .await?
                        .ok_or_else(|| not_a_cursor(cursor))?
                        .get(0),
                ),
                None => None,
            };
            let sql = format!(
                "SELECT id FROM owners WHERE kind = $1 AND subject = $2 AND ($3::BIGINT IS NULL OR seq {} $3)
                 AND {} ORDER BY seq {} LIMIT $4",
                if ascending { ">" } else { "<" },
                in_listing(5),
                if ascending { "ASC" } else { "DESC" }
            );
            let ids = client
                .query(&sql, &[&kind.as_str(), &subject, &after, &(i64::from(limit) + 1), &listing])
                .await?
                .iter()
                .map(|row| row.get(0))
                .collect();
            let total: i64 = client
                .query_one(
                    &format!("SELECT COUNT(*) FROM owners WHERE kind = $1 AND subject = $2 AND {}", in_listing(3)),
                    &[&kind.as_str(), &subject, &listing],
                )
                .await?
                .get(0);
            Ok(OwnedPage::from_rows(ids, limit, total))
        })
        .await
    }

    async fn record_creation(&self, creation: &Creation<'_>, now: i64) -> Result<(), ServerError> {
        let (token, kind, subject) = (creation.token.to_string(), creation.kind, creation.subject.to_string());
        let photo = creation.photo.map(str::to_string);
        let (reference, differ) = (creation.reference.map(reference_json), creation.references_differ);
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute(
                    "INSERT INTO creations (token, kind, subject, started_at, photo, reference, references_differ)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                    &[&token, &kind.as_str(), &subject, &now, &photo, &reference, &differ],
                )
                .await?;
            Ok(())
        })
        .await
    }

    async fn record_photos(&self, photos: &[RenderPhoto]) -> Result<(), ServerError> {
        let (first, later): (Vec<&RenderPhoto>, Vec<&RenderPhoto>) = photos.iter().partition(|photo| photo.view == 0);
        let ids = |photos: &[&RenderPhoto]| photos.iter().map(|photo| photo.render_id.clone()).collect::<Vec<_>>();
        let addresses = |photos: &[&RenderPhoto]| photos.iter().map(|photo| photo.address.clone()).collect::<Vec<_>>();
        let (first_ids, first_addresses) = (ids(&first), addresses(&first));
        let (later_ids, later_addresses) = (ids(&later), addresses(&later));
        let views: Vec<i64> = later.iter().map(|photo| i64::from(photo.view)).collect();
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                "INSERT INTO render_photos (render_id, address)
                 SELECT * FROM unnest($1::TEXT[], $2::TEXT[]) ON CONFLICT DO NOTHING",
                &[&first_ids, &first_addresses],
            )
            .await?;
            tx.execute(
                "INSERT INTO render_views (render_id, view_index, address)
                 SELECT * FROM unnest($1::TEXT[], $2::BIGINT[], $3::TEXT[]) ON CONFLICT DO NOTHING",
                &[&later_ids, &views, &later_addresses],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn photo_of(&self, render_id: &str, view: u32) -> Result<Option<String>, ServerError> {
        let (render_id, view) = (render_id.to_string(), i64::from(view));
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let row = match view {
                0 => client.query_opt("SELECT address FROM render_photos WHERE render_id = $1", &[&render_id]).await?,
                _ => {
                    let sql = "SELECT address FROM render_views WHERE render_id = $1 AND view_index = $2";
                    client.query_opt(sql, &[&render_id, &view]).await?
                }
            };
            Ok(row.map(|row| row.get(0)))
        })
        .await
    }

    async fn record_references(&self, references: &[(String, HostReference)]) -> Result<(), ServerError> {
        let ids: Vec<String> = references.iter().map(|(render_id, _)| render_id.clone()).collect();
        let listings: Vec<Option<String>> = references.iter().map(|(_, one)| one.listing_id.clone()).collect();
        let json: Vec<String> = references.iter().map(|(_, one)| reference_json(one)).collect();
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                "INSERT INTO render_references (render_id, listing_id, reference)
                 SELECT * FROM unnest($1::TEXT[], $2::TEXT[], $3::TEXT[]) ON CONFLICT DO NOTHING",
                &[&ids, &listings, &json],
            )
            .await?;
            tx.execute("DELETE FROM awaited_references WHERE render_id = ANY($1)", &[&ids]).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn reference_of(&self, render_id: &str) -> Result<HostReference, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |pool| async move {
            let sql = "SELECT reference FROM render_references WHERE render_id = $1";
            let row = pool.get().await?.query_opt(sql, &[&render_id]).await?;
            Ok(reference_of_json(row.map(|row| row.get::<_, String>(0)).as_deref()))
        })
        .await
    }

    async fn listings_of(&self, render_ids: &[String]) -> Result<Vec<(String, String)>, ServerError> {
        let render_ids = render_ids.to_vec();
        self.run(move |pool| async move {
            let sql = "SELECT render_id, listing_id FROM render_references \
                       WHERE render_id = ANY($1) AND listing_id IS NOT NULL";
            let rows = pool.get().await?.query(sql, &[&render_ids]).await?;
            Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
        })
        .await
    }
}

/// The condition on `owners` that keeps one listing's renders, the listing's id in parameter `n` (all when null).
fn in_listing(n: u8) -> String {
    format!("(${n}::TEXT IS NULL OR id IN (SELECT render_id FROM render_references WHERE listing_id = ${n}::TEXT))")
}
