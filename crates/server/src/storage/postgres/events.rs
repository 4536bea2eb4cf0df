//! `EventLog` (`store/events.rs`) on PostgreSQL: its SQL.

use super::*;
use crate::storage::store::EventLog;

/// The subject a delivery is for: its render's recorded owner, or else the subject that started the creation it
/// names, recorded now as the owner (with the photo and the host's references the creation named, and the render
/// reported created); `None` for neither.
async fn owner_or_creator(
    tx: &deadpool_postgres::Transaction<'_>,
    delivery: &Delivery,
) -> Result<Option<String>, ServerError> {
    let kind = delivery.kind.as_str();
    let owner = tx.query_opt("SELECT subject FROM owners WHERE kind = $1 AND id = $2", &[&kind, &delivery.id]).await?;
    tx.execute("DELETE FROM creations WHERE started_at < $1", &[&delivery.seen_since]).await?;
    tx.execute("DELETE FROM awaited_references WHERE until < $1", &[&delivery.now]).await?;
    if let Some(owner) = owner {
        return Ok(Some(owner.get(0)));
    }
    let Some(creation) = &delivery.creation else { return Ok(None) };
    let sql = "SELECT subject FROM creations WHERE token = $1 AND kind = $2";
    let Some(creator) = tx.query_opt(sql, &[creation, &kind]).await?.map(|row| row.get::<_, String>(0)) else {
        return Ok(None);
    };
    tx.execute(
        "INSERT INTO owners (kind, id, subject) VALUES ($1, $2, $3) ON CONFLICT (kind, id) DO NOTHING",
        &[&kind, &delivery.id, &creator],
    )
    .await?;
    outbox::enqueue(tx, &delivery.created_for(&creator)).await?;
    tx.execute(
        "INSERT INTO render_photos (render_id, address)
         SELECT $1, photo FROM creations WHERE token = $2 AND kind = 'render' AND photo IS NOT NULL
         ON CONFLICT DO NOTHING",
        &[&delivery.id, creation],
    )
    .await?;
    tx.execute(
        "INSERT INTO render_references (render_id, listing_id, reference)
         SELECT $1, reference::JSON ->> 'listing_id', reference FROM creations
         WHERE token = $2 AND kind = 'render' AND reference IS NOT NULL
         ON CONFLICT DO NOTHING",
        &[&delivery.id, creation],
    )
    .await?;
    tx.execute(
        "INSERT INTO awaited_references (render_id, until)
         SELECT $1, $3 FROM creations WHERE token = $2 AND kind = 'render' AND references_differ
         ON CONFLICT DO NOTHING",
        &[&delivery.id, creation, &(delivery.now + REFERENCES_AWAITED_MS)],
    )
    .await?;
    Ok(Some(creator))
}

#[async_trait]
impl EventLog for Postgres {
    async fn receive_delivery(&self, delivery: Delivery) -> Result<Option<StoredEvent>, ServerError> {
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // Under the resource's lock, which a claim takes too: the owner read here is recorded and claimed
            // either wholly before (and seen) or wholly after (and this event is claimed then).
            lock(&tx, "resource", &delivery.resource).await?;
            let subject = owner_or_creator(&tx, &delivery).await?.unwrap_or_else(|| delivery.unowned_subject.clone());
            tx.execute("DELETE FROM deliveries_seen WHERE received_at < $1", &[&delivery.seen_since]).await?;
            let fresh = tx
                .execute(
                    "INSERT INTO deliveries_seen (digest, received_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    &[&delivery.digest, &delivery.now],
                )
                .await?
                == 1;
            if !fresh {
                return Ok(None);
            }
            // The counter's row lock orders the ids as the transactions commit: no server hands out an id
            // below one already visible.
            let id: i64 = tx.query_one("UPDATE event_ids SET newest = newest + 1 RETURNING newest", &[]).await?.get(0);
            tx.execute(
                "INSERT INTO events (id, subject, resource, event_type, data, received_at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[&id, &subject, &delivery.resource, &delivery.event_type, &delivery.data, &delivery.now],
            )
            .await?;
            tx.execute("DELETE FROM events WHERE received_at < $1", &[&delivery.events_since]).await?;
            outbox::enqueue(&tx, &delivery.reported_for(&subject)).await?;
            if !subject.is_empty() {
                tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &id.to_string()]).await?;
            }
            tx.commit().await?;
            Ok(Some(StoredEvent { id, subject, event_type: delivery.event_type, data: delivery.data }))
        })
        .await
    }

    async fn claim_events(
        &self,
        resources: &[String],
        subject: &str,
        reported: Option<std::sync::Arc<ClaimReporter>>,
    ) -> Result<Vec<StoredEvent>, ServerError> {
        let (resources, subject) = (resources.to_vec(), subject.to_string());
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let mut claimed = Vec::new();
            // Every resource's lock first, in one order, and only then the counter's row: a delivery takes its
            // resource's lock and then the counter, so taking them in turn could wait on each other for good.
            let mut in_order: Vec<&String> = resources.iter().collect();
            in_order.sort();
            in_order.dedup();
            for resource in in_order {
                lock(&tx, "resource", resource).await?;
            }
            for resource in &resources {
                let waiting = tx
                    .query(
                        "DELETE FROM events WHERE subject = '' AND resource = $1
                         RETURNING id, event_type, data, received_at",
                        &[resource],
                    )
                    .await?;
                let mut waiting: Vec<(i64, String, String, i64)> =
                    waiting.iter().map(|row| (row.get(0), row.get(1), row.get(2), row.get(3))).collect();
                waiting.sort_by_key(|(old_id, ..)| *old_id);
                // Stored again under new ids from the counter, after every id given so far: a stream or a resume
                // that is past their old ids still gets them. Received no earlier than the newest before them, so
                // the log stays in order of both (what the window drops is always below the ids it keeps).
                let newest = "SELECT COALESCE(MAX(received_at), 0)::BIGINT FROM events";
                let newest_received: i64 = tx.query_one(newest, &[]).await?.get(0);
                for (_, event_type, data, received_at) in waiting {
                    let received_at = received_at.max(newest_received);
                    let id: i64 =
                        tx.query_one("UPDATE event_ids SET newest = newest + 1 RETURNING newest", &[]).await?.get(0);
                    tx.execute(
                        "INSERT INTO events (id, subject, resource, event_type, data, received_at)
                         VALUES ($1, $2, $3, $4, $5, $6)",
                        &[&id, &subject, resource, &event_type, &data, &received_at],
                    )
                    .await?;
                    claimed.push(StoredEvent { id, subject: subject.clone(), event_type, data });
                }
            }
            for event in &claimed {
                tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &event.id.to_string()]).await?;
                if let Some(report) = &reported {
                    outbox::enqueue(&tx, &report(event)).await?;
                }
            }
            tx.commit().await?;
            Ok(claimed)
        })
        .await
    }

    async fn events_since(&self, subject: &str, after: i64, limit: i64) -> Result<Vec<StoredEvent>, ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(
                    "SELECT id, subject, event_type, data FROM events WHERE subject = $1 AND id > $2
                     ORDER BY id LIMIT $3",
                    &[&subject, &after, &limit],
                )
                .await?;
            Ok(rows.iter().map(read_event).collect())
        })
        .await
    }

    async fn event_log_bounds(&self) -> Result<LogBounds, ServerError> {
        self.run(|pool| async move {
            let row =
                pool.get().await?.query_one("SELECT newest, (SELECT MIN(id) FROM events) FROM event_ids", &[]).await?;
            let (newest, oldest_kept): (i64, Option<i64>) = (row.get(0), row.get(1));
            Ok(LogBounds { newest, dropped_through: oldest_kept.map_or(newest, |oldest| oldest - 1) })
        })
        .await
    }

    async fn event_feed(&self) -> Result<Option<BoxStream<'static, StoredEvent>>, ServerError> {
        let (sender, receiver) = tokio::sync::mpsc::channel(1024);
        let (listening, listened) = tokio::sync::oneshot::channel();
        self.runtime.spawn(feed_events(self.config.clone(), self.pool.clone(), sender, listening));
        // The feed is handed over once it listens, so nothing announced from then on is missed; one that cannot
        // listen yet keeps trying (and says so in the log) rather than hold the caller up for good.
        if tokio::time::timeout(FEED_READY, listened).await.is_err() {
            tracing::warn!("the live events feed is not listening yet; it goes on trying");
        }
        let feed = futures_util::stream::unfold(receiver, |mut receiver| async move {
            receiver.recv().await.map(|event| (event, receiver))
        });
        Ok(Some(feed.boxed()))
    }
}
