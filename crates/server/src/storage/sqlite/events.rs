//! `EventLog` (`store/events.rs`) on SQLite: its SQL.

use super::*;
use crate::storage::store::EventLog;

#[async_trait]
impl EventLog for Sqlite {
    async fn receive_delivery(&self, delivery: Delivery) -> Result<Option<StoredEvent>, ServerError> {
        self.run(move |db| {
            let tx = db.transaction()?;
            // The owner is read in the transaction that stores the event: read before it, a creation recorded and
            // claimed in between would leave this event unowned for good.
            tx.execute("DELETE FROM creations WHERE started_at < ?1", [delivery.seen_since])?;
            tx.execute("DELETE FROM awaited_references WHERE until < ?1", [delivery.now])?;
            let subject = match owner_of(&tx, delivery.kind, &delivery.id)? {
                Some(owner) => owner,
                None => match creator(&tx, delivery.kind, delivery.creation.as_deref())? {
                    Some(creator) => {
                        tx.execute(
                            "INSERT OR IGNORE INTO owners (kind, id, subject) VALUES (?1, ?2, ?3)",
                            params![delivery.kind.as_str(), delivery.id, creator],
                        )?;
                        outbox::enqueue(&tx, &delivery.created_for(&creator))?;
                        tx.execute(
                            "INSERT OR IGNORE INTO render_photos (render_id, address)
                             SELECT ?1, photo FROM creations WHERE token = ?2 AND kind = 'render' AND photo IS NOT NULL",
                            params![delivery.id, delivery.creation],
                        )?;
                        tx.execute(
                            "INSERT OR IGNORE INTO render_references (render_id, listing_id, reference)
                             SELECT ?1, json_extract(reference, '$.listing_id'), reference FROM creations
                             WHERE token = ?2 AND kind = 'render' AND reference IS NOT NULL",
                            params![delivery.id, delivery.creation],
                        )?;
                        tx.execute(
                            "INSERT OR IGNORE INTO awaited_references (render_id, until)
                             SELECT ?1, ?3 FROM creations WHERE token = ?2 AND kind = 'render' AND references_differ",
                            params![delivery.id, delivery.creation, delivery.now + REFERENCES_AWAITED_MS],
                        )?;
                        creator
                    }
                    None => delivery.unowned_subject.clone(),
                },
            };
            tx.execute("DELETE FROM deliveries_seen WHERE received_at < ?1", [delivery.seen_since])?;
            let fresh = tx.execute(
                "INSERT OR IGNORE INTO deliveries_seen (digest, received_at) VALUES (?1, ?2)",
                params![delivery.digest, delivery.now],
            )? == 1;
            if !fresh {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO events (subject, resource, event_type, data, received_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![subject, delivery.resource, delivery.event_type, delivery.data, delivery.now],
            )?;
            let id = tx.last_insert_rowid();
            outbox::enqueue(&tx, &delivery.reported_for(&subject))?;
            // Indexed by time: usually an empty range.
            tx.execute("DELETE FROM events WHERE received_at < ?1", [delivery.events_since])?;
            tx.commit()?;
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
        self.run(move |db| {
            let tx = db.transaction()?;
            let mut claimed = Vec::new();
            {
                // Claimed events are stored again under new ids, after every id given so far: a stream or a resume
                // that is past their old ids still gets them. Received no earlier than the newest before them, so
                // the log stays in order of both (what the window drops is always below the ids it keeps).
                let mut moved = tx.prepare_cached(
                    "INSERT INTO events (subject, resource, event_type, data, received_at)
                     SELECT ?1, resource, event_type, data,
                         MAX(received_at, (SELECT COALESCE(MAX(received_at), 0) FROM events)) FROM events
                     WHERE subject = '' AND resource = ?2 ORDER BY id
                     RETURNING id, subject, event_type, data",
                )?;
                let mut left = tx.prepare_cached("DELETE FROM events WHERE subject = '' AND resource = ?1")?;
                for resource in &resources {
                    let rows = moved.query_map(params![subject, resource], read_event)?;
                    claimed.extend(rows.collect::<Result<Vec<_>, _>>()?);
                    left.execute([resource])?;
                }
            }
            claimed.sort_by_key(|event| event.id);
            if let Some(report) = &reported {
                for event in &claimed {
                    outbox::enqueue(&tx, &report(event))?;
                }
            }
            tx.commit()?;
            Ok(claimed)
        })
        .await
    }

    async fn events_since(&self, subject: &str, after: i64, limit: i64) -> Result<Vec<StoredEvent>, ServerError> {
        let subject = subject.to_string();
        self.run(move |db| {
            let mut statement = db.prepare_cached(
                "SELECT id, subject, event_type, data FROM events WHERE subject = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
            )?;
            let events = statement.query_map(params![subject, after, limit], read_event)?;
            Ok(events.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn event_log_bounds(&self) -> Result<LogBounds, ServerError> {
        self.run(|db| {
            // AUTOINCREMENT ids are never reused: below the smallest kept id, all were dropped; with none kept, all
            // up to the last one given were.
            let given: i64 =
                db.query_row("SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence WHERE name = 'events'", [], |row| {
                    row.get(0)
                })?;
            let oldest_kept: Option<i64> = db.query_row("SELECT MIN(id) FROM events", [], |row| row.get(0))?;
            Ok(LogBounds { newest: given, dropped_through: oldest_kept.map_or(given, |oldest| oldest - 1) })
        })
        .await
    }

    async fn event_feed(&self) -> Result<Option<BoxStream<'static, StoredEvent>>, ServerError> {
        Ok(None)
    }
}
