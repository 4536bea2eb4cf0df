//! The server's own SQLite database in the data dir (the default, for one server): the `Store` in SQL for SQLite,
//! on one connection used from a blocking thread, with its migrations counted by `PRAGMA user_version`.

mod outbox;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use futures_util::stream::BoxStream;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use vstage_api::board::{Board, BoardRender};
use vstage_api::usage::UsageKind;

use super::outbox::OutboxEntry;
use super::store::{
    ClaimReporter, Delivery, DisclosureCursor, DisclosureRecord, KeptFile, Kind, LedgerRow, LevelReached, LevelReports,
    Limits, LogBounds, OwnedPage, Reservation, Reserved, Store, StoredEvent, SubjectAllowance, UploadRecord,
    board_full, not_a_cursor,
};
use crate::error::ServerError;

#[derive(Clone)]
pub struct Sqlite {
    connection: Arc<Mutex<Connection>>,
}

impl std::fmt::Debug for Sqlite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sqlite")
    }
}

/// Applied in order, once each (`PRAGMA user_version` counts them).
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE owners (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    kind    TEXT NOT NULL,
    id      TEXT NOT NULL,
    subject TEXT NOT NULL,
    UNIQUE (kind, id)
);
CREATE INDEX owners_by_subject ON owners (kind, subject, seq);
CREATE TABLE deliveries_seen (
    digest      BLOB PRIMARY KEY,
    received_at INTEGER NOT NULL
);
CREATE TABLE events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    -- '' until the render or analysis it is about is known to belong to someone
    subject     TEXT NOT NULL,
    resource    TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    data        TEXT NOT NULL,
    received_at INTEGER NOT NULL
);
CREATE INDEX events_by_subject ON events (subject, id);
CREATE INDEX events_by_resource ON events (resource);
",
    "
CREATE INDEX events_by_time ON events (received_at);
",
    "
CREATE TABLE uploads (
    name      TEXT PRIMARY KEY,
    subject   TEXT NOT NULL,
    bytes     INTEGER NOT NULL,
    stored_at INTEGER NOT NULL
);
CREATE INDEX uploads_by_subject ON uploads (subject);
",
    "
CREATE INDEX deliveries_seen_by_time ON deliveries_seen (received_at);
",
    "
CREATE TABLE board_renders (
    subject   TEXT NOT NULL,
    render_id TEXT NOT NULL,
    label     TEXT NOT NULL,
    position  INTEGER NOT NULL,
    PRIMARY KEY (subject, render_id)
);
CREATE INDEX board_renders_in_order ON board_renders (subject, position);
",
    "
CREATE TABLE kept_results (
    render_id    TEXT NOT NULL,
    variation_id TEXT NOT NULL,
    file         TEXT NOT NULL,
    image_index  INTEGER NOT NULL,
    role         TEXT NOT NULL,
    subject      TEXT NOT NULL,
    bytes        INTEGER NOT NULL,
    kept_at      INTEGER NOT NULL,
    -- 1 once removed by its owner or the retention period: never copied again
    removed      INTEGER NOT NULL,
    PRIMARY KEY (render_id, variation_id, file)
);
CREATE INDEX kept_results_by_subject ON kept_results (subject, removed);
CREATE INDEX kept_results_by_time ON kept_results (removed, kept_at);
",
    "
CREATE TABLE creations (
    token      TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    subject    TEXT NOT NULL,
    started_at INTEGER NOT NULL
);
CREATE INDEX creations_by_time ON creations (started_at);
",
    "
CREATE TABLE disclosures (
    id                TEXT PRIMARY KEY,
    subject           TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    render_id         TEXT NOT NULL,
    variation_id      TEXT NOT NULL,
    image_index       INTEGER NOT NULL,
    variation_type    TEXT NOT NULL,
    style             TEXT NOT NULL,
    furniture_removed INTEGER NOT NULL,
    profile           TEXT NOT NULL,
    lang              TEXT NOT NULL,
    photo_file        TEXT NOT NULL,
    original_file     TEXT NOT NULL
);
CREATE INDEX disclosures_by_subject ON disclosures (subject, created_at);
CREATE INDEX disclosures_by_time ON disclosures (created_at);
",
    "
ALTER TABLE disclosures ADD COLUMN choice TEXT;
CREATE UNIQUE INDEX disclosures_by_choice ON disclosures (choice);
",
    "
CREATE TABLE allowances (
    subject       TEXT PRIMARY KEY,
    staging       INTEGER,
    image_editing INTEGER,
    set_at        INTEGER NOT NULL
);
CREATE TABLE ledger (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    reservation TEXT NOT NULL,
    subject     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    amount      INTEGER NOT NULL,
    render_ids  TEXT NOT NULL DEFAULT '',
    at          INTEGER NOT NULL,
    what        TEXT NOT NULL
);
CREATE INDEX ledger_by_subject ON ledger (subject, kind, at);
CREATE INDEX ledger_by_time ON ledger (at);
CREATE INDEX ledger_by_reservation ON ledger (reservation);
",
    "
CREATE INDEX ledger_by_render ON ledger (render_ids) WHERE amount > 0;
",
    // The host's webhooks (outbox.rs), as PostgreSQL's 0007_host_outbox.sql.
    "
CREATE TABLE host_outbox (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL,
    target      TEXT NOT NULL,
    render_id   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL,
    lease_until INTEGER NOT NULL DEFAULT 0,
    outcome     TEXT NOT NULL DEFAULT 'pending',
    settled_at  INTEGER,
    last_error  TEXT NOT NULL DEFAULT '',
    UNIQUE (id, target)
);
CREATE INDEX host_outbox_due ON host_outbox (next_at) WHERE outcome = 'pending';
CREATE INDEX host_outbox_by_render ON host_outbox (target, render_id, seq) WHERE outcome = 'pending';
",
];

impl Sqlite {
    /// Opens (creating if needed) `data_dir/vstage.sqlite3`.
    pub fn open(data_dir: &Path) -> anyhow::Result<Sqlite> {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create the data dir {}", data_dir.display()))?;
        let path = data_dir.join("vstage.sqlite3");
        let connection = Connection::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
        connection
            .busy_timeout(Duration::from_secs(5))
            .and_then(|()| connection.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| connection.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|()| migrate(&connection))
            .with_context(|| format!("cannot prepare the database {}", path.display()))?;
        Ok(Sqlite { connection: Arc::new(Mutex::new(connection)) })
    }

    /// Runs `work` with the connection on a blocking thread.
    async fn run<T, F>(&self, work: F) -> Result<T, ServerError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, ServerError> + Send + 'static,
    {
        let connection = self.connection.clone();
        tokio::task::spawn_blocking(move || {
            let mut connection = connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            work(&mut connection)
        })
        .await
        .map_err(|e| ServerError::Internal(format!("a database task stopped: {e}")))?
    }
}

fn migrate(connection: &Connection) -> rusqlite::Result<()> {
    let applied: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(applied.max(0) as usize) {
        connection.execute_batch(&format!("BEGIN; {migration} PRAGMA user_version = {}; COMMIT;", index + 1))?;
    }
    Ok(())
}

#[async_trait]
impl Store for Sqlite {
    fn is_shared(&self) -> bool {
        false
    }

    async fn ping(&self) -> Result<(), ServerError> {
        self.run(|db| Ok(db.query_row("SELECT 1", [], |_| Ok(()))?)).await
    }

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

    async fn board(&self, subject: &str) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.run(move |db| read_board(db, &subject)).await
    }

    async fn board_add(&self, subject: &str, renders: &[BoardRender], max: usize) -> Result<Board, ServerError> {
        let (subject, renders) = (subject.to_string(), renders.to_vec());
        self.run(move |db| {
            let tx = db.transaction()?;
            let (count, last): (i64, Option<i64>) = tx.query_row(
                "SELECT COUNT(*), MAX(position) FROM board_renders WHERE subject = ?1",
                params![subject],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
            let mut position = last.unwrap_or(0);
            let mut added = 0usize;
            for render in &renders {
                position += 1;
                added += tx.execute(
                    "INSERT OR IGNORE INTO board_renders (subject, render_id, label, position) VALUES (?1, ?2, ?3, ?4)",
                    params![subject, render.render_id, render.label, position],
                )?;
            }
            if count.max(0) as usize + added > max {
                return Err(board_full(max));
            }
            tx.commit()?;
            read_board(db, &subject)
        })
        .await
    }

    async fn board_remove(&self, subject: &str, render_id: &str) -> Result<Board, ServerError> {
        let (subject, render_id) = (subject.to_string(), render_id.to_string());
        self.run(move |db| {
            db.execute("DELETE FROM board_renders WHERE subject = ?1 AND render_id = ?2", params![subject, render_id])?;
            read_board(db, &subject)
        })
        .await
    }

    async fn board_clear(&self, subject: &str) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |db| {
            db.execute("DELETE FROM board_renders WHERE subject = ?1", params![subject])?;
            Ok(())
        })
        .await
    }

    async fn record_creation(&self, creation: &str, kind: Kind, subject: &str, now: i64) -> Result<(), ServerError> {
        let (creation, subject) = (creation.to_string(), subject.to_string());
        self.run(move |db| {
            db.execute(
                "INSERT OR IGNORE INTO creations (token, kind, subject, started_at) VALUES (?1, ?2, ?3, ?4)",
                params![creation, kind.as_str(), subject, now],
            )?;
            Ok(())
        })
        .await
    }

    async fn receive_delivery(&self, delivery: Delivery) -> Result<Option<StoredEvent>, ServerError> {
        self.run(move |db| {
            let tx = db.transaction()?;
            // The owner is read in the transaction that stores the event: read before it, a creation recorded and
            // claimed in between would leave this event unowned for good.
            tx.execute("DELETE FROM creations WHERE started_at < ?1", [delivery.seen_since])?;
            let subject = match owner_of(&tx, delivery.kind, &delivery.id)? {
                Some(owner) => owner,
                None => match creator(&tx, delivery.kind, delivery.creation.as_deref())? {
                    Some(creator) => {
                        tx.execute(
                            "INSERT OR IGNORE INTO owners (kind, id, subject) VALUES (?1, ?2, ?3)",
                            params![delivery.kind.as_str(), delivery.id, creator],
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
                let mut statement = tx.prepare_cached(
                    "UPDATE events SET subject = ?1 WHERE subject = '' AND resource = ?2
                     RETURNING id, subject, event_type, data",
                )?;
                for resource in &resources {
                    let rows = statement.query_map(params![subject, resource], read_event)?;
                    claimed.extend(rows.collect::<Result<Vec<_>, _>>()?);
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

    async fn reserve_upload(&self, upload: &UploadRecord, quota: Option<u64>) -> Result<Result<(), u64>, ServerError> {
        let upload = upload.clone();
        self.run(move |db| {
            let tx = db.transaction()?;
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

    async fn kept_files(&self, renders: &[String]) -> Result<Vec<KeptFile>, ServerError> {
        let renders = renders.to_vec();
        self.run(move |db| {
            let mut query =
                db.prepare_cached(&format!("SELECT {KEPT_COLUMNS} FROM kept_results WHERE render_id = ?1"))?;
            let mut files = Vec::new();
            for render in &renders {
                files.extend(query.query_map(params![render], read_kept)?.collect::<Result<Vec<_>, _>>()?);
            }
            Ok(files)
        })
        .await
    }

    async fn ever_kept(&self, render_id: &str, variation_id: &str) -> Result<bool, ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |db| {
            Ok(db.query_row(
                "SELECT EXISTS (SELECT 1 FROM kept_results WHERE render_id = ?1 AND variation_id = ?2)",
                params![render, variation],
                |row| row.get(0),
            )?)
        })
        .await
    }

    async fn record_kept(&self, files: &[KeptFile], reported: &[OutboxEntry]) -> Result<(), ServerError> {
        let (files, reported) = (files.to_vec(), reported.to_vec());
        self.run(move |db| {
            let tx = db.transaction()?;
            let mut new = 0;
            for file in &files {
                let insert = format!(
                    "INSERT OR IGNORE INTO kept_results ({KEPT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                );
                new += tx.execute(
                    &insert,
                    params![
                        file.render_id,
                        file.variation_id,
                        file.file,
                        file.image_index,
                        file.role,
                        file.subject,
                        file.bytes as i64,
                        file.kept_at,
                        file.removed
                    ],
                )?;
            }
            if new > 0 {
                outbox::enqueue(&tx, &reported)?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn kept_bytes(&self, subject: &str) -> Result<u64, ServerError> {
        let subject = subject.to_string();
        self.run(move |db| {
            let used: i64 = db.query_row(
                "SELECT COALESCE(SUM(bytes), 0) FROM kept_results WHERE subject = ?1 AND removed = 0",
                params![subject],
                |row| row.get(0),
            )?;
            Ok(used.max(0) as u64)
        })
        .await
    }

    async fn mark_kept_removed(&self, render_id: &str, variation_id: &str) -> Result<(), ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |db| {
            db.execute(
                "UPDATE kept_results SET removed = 1 WHERE render_id = ?1 AND variation_id = ?2",
                params![render, variation],
            )?;
            Ok(())
        })
        .await
    }

    async fn expired_kept(&self, cutoff: i64) -> Result<Vec<KeptFile>, ServerError> {
        self.run(move |db| {
            Ok(db
                .prepare_cached(&format!("SELECT {KEPT_COLUMNS} FROM kept_results WHERE removed = 0 AND kept_at < ?1"))?
                .query_map(params![cutoff], read_kept)?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn mark_kept_expired(&self, cutoff: i64) -> Result<(), ServerError> {
        self.run(move |db| {
            db.execute("UPDATE kept_results SET removed = 1 WHERE removed = 0 AND kept_at < ?1", params![cutoff])?;
            Ok(())
        })
        .await
    }

    async fn record_disclosure(
        &self,
        record: &DisclosureRecord,
        reported: &[OutboxEntry],
    ) -> Result<DisclosureRecord, ServerError> {
        let (record, reported) = (record.clone(), reported.to_vec());
        self.run(move |db| {
            let tx = db.transaction()?;
            let new = tx.execute(
                &format!(
                    "INSERT INTO disclosures ({DISCLOSURE_COLUMNS}, choice) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) \
                     ON CONFLICT (choice) DO NOTHING"
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
                    record.choice()
                ],
            )?;
            if new > 0 {
                outbox::enqueue(&tx, &reported)?;
            }
            let recorded = tx.query_row(
                &format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE choice = ?1"),
                params![record.choice()],
                read_disclosure,
            )?;
            tx.commit()?;
            Ok(recorded)
        })
        .await
    }

    async fn disclosure_of_choice(&self, choice: &str) -> Result<Option<DisclosureRecord>, ServerError> {
        let choice = choice.to_string();
        self.run(move |db| {
            Ok(db
                .query_row(
                    &format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE choice = ?1"),
                    params![choice],
                    read_disclosure,
                )
                .optional()?)
        })
        .await
    }

    async fn disclosures_since(&self, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError> {
        let subject = subject.to_string();
        self.run(move |db| {
            Ok(db.query_row(
                "SELECT COUNT(*), MIN(created_at) FROM disclosures WHERE subject = ?1 AND created_at >= ?2",
                params![subject, since],
                |row| Ok((row.get::<_, i64>(0)?.max(0) as u64, row.get(1)?)),
            )?)
        })
        .await
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

    async fn reserve(
        &self,
        reservation: &Reservation,
        defaults: Limits,
        period_start: i64,
        reports: LevelReports,
    ) -> Result<Reserved, ServerError> {
        let reservation = reservation.clone();
        self.run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let own = tx
                .query_row(
                    "SELECT staging, image_editing FROM allowances WHERE subject = ?1",
                    params![reservation.subject],
                    |row| Ok(SubjectAllowance::from_stored(row.get(0)?, row.get(1)?)),
                )
                .optional()?
                .unwrap_or_default();
            let mut reached = Vec::new();
            for (kind, photos) in reservation.cost.parts() {
                let Some(limit) = own.get(kind).limit(defaults.get(kind)) else { continue };
                let used: i64 = tx.query_row(
                    "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE subject = ?1 AND kind = ?2 AND at >= ?3",
                    params![reservation.subject, kind.as_str(), period_start],
                    |row| row.get(0),
                )?;
                let used = used.max(0) as u64;
                if used + photos > limit {
                    return Ok(Reserved::Refused { kind, used, limit });
                }
                reached.extend(LevelReached::by_charge(kind, used, photos, limit));
            }
            for (kind, photos) in reservation.cost.parts() {
                tx.execute(
                    "INSERT INTO ledger (reservation, subject, kind, amount, at, what) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        reservation.id,
                        reservation.subject,
                        kind.as_str(),
                        photos as i64,
                        reservation.at,
                        reservation.what
                    ],
                )?;
            }
            for level in &reached {
                outbox::enqueue(&tx, &reports(level))?;
            }
            tx.commit()?;
            Ok(Reserved::Charged { reached })
        })
        .await
    }

    async fn settle(&self, reservation: &str, render_ids: &[String]) -> Result<(), ServerError> {
        let (reservation, render_ids) = (reservation.to_string(), render_ids.join(","));
        self.run(move |db| {
            db.execute("UPDATE ledger SET render_ids = ?1 WHERE reservation = ?2", params![render_ids, reservation])?;
            Ok(())
        })
        .await
    }

    async fn refund(&self, reservation: &str, why: &str, at: i64) -> Result<(), ServerError> {
        let (reservation, why) = (reservation.to_string(), why.to_string());
        self.run(move |db| {
            db.execute(
                "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
                 SELECT reservation, subject, kind, -amount, render_ids, ?2, ?3 FROM ledger \
                 WHERE reservation = ?1 AND amount > 0 \
                 AND NOT EXISTS (SELECT 1 FROM ledger WHERE reservation = ?1 AND amount < 0)",
                params![reservation, at, why],
            )?;
            Ok(())
        })
        .await
    }

    async fn charge_of_render(&self, render_id: &str) -> Result<Option<String>, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |db| {
            Ok(db
                .prepare_cached("SELECT reservation FROM ledger WHERE render_ids = ?1 AND amount > 0 LIMIT 1")?
                .query_row(params![render_id], |row| row.get(0))
                .optional()?)
        })
        .await
    }

    async fn set_allowance(&self, subject: &str, allowance: SubjectAllowance) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |db| {
            db.execute(
                "INSERT INTO allowances (subject, staging, image_editing, set_at) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (subject) DO UPDATE SET staging = ?2, image_editing = ?3, set_at = ?4",
                params![
                    subject,
                    allowance.staging.stored(),
                    allowance.image_editing.stored(),
                    vstage_api::time::now_millis()
                ],
            )?;
            Ok(())
        })
        .await
    }

    async fn allowances(&self, subject: Option<&str>) -> Result<Vec<(String, SubjectAllowance)>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |db| {
            Ok(db
                .prepare_cached(
                    "SELECT subject, staging, image_editing FROM allowances \
                     WHERE ?1 IS NULL OR subject = ?1 ORDER BY subject",
                )?
                .query_map(params![subject], |row| {
                    Ok((row.get(0)?, SubjectAllowance::from_stored(row.get(1)?, row.get(2)?)))
                })?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn ledger(&self, subject: Option<&str>, from: i64, to: i64) -> Result<Vec<LedgerRow>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |db| {
            Ok(db
                .prepare_cached(
                    "SELECT subject, kind, amount, render_ids, at, what, reservation FROM ledger \
                     WHERE (?1 IS NULL OR subject = ?1) AND at >= ?2 AND at < ?3 ORDER BY at, seq",
                )?
                .query_map(params![subject, from, to], |row| {
                    let kind: String = row.get(1)?;
                    Ok(LedgerRow {
                        subject: row.get(0)?,
                        kind: UsageKind::parse(&kind).unwrap_or(UsageKind::Staging),
                        amount: row.get(2)?,
                        render_ids: row.get(3)?,
                        at: row.get(4)?,
                        what: row.get(5)?,
                        reservation: row.get(6)?,
                    })
                })?
                .collect::<Result<_, _>>()?)
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

/// The subject that created `id`, if it was made through this server; read inside the caller's transaction.
fn owner_of(db: &Connection, kind: Kind, id: &str) -> Result<Option<String>, ServerError> {
    Ok(db
        .query_row("SELECT subject FROM owners WHERE kind = ?1 AND id = ?2", params![kind.as_str(), id], |row| {
            row.get(0)
        })
        .optional()?)
}

/// The subject that started `creation`, if it is one of `kind`'s.
fn creator(db: &Connection, kind: Kind, creation: Option<&str>) -> Result<Option<String>, ServerError> {
    let Some(creation) = creation else { return Ok(None) };
    Ok(db
        .query_row(
            "SELECT subject FROM creations WHERE token = ?1 AND kind = ?2",
            params![creation, kind.as_str()],
            |row| row.get(0),
        )
        .optional()?)
}

fn read_board(db: &Connection, subject: &str) -> Result<Board, ServerError> {
    let renders = db
        .prepare_cached("SELECT render_id, label FROM board_renders WHERE subject = ?1 ORDER BY position")?
        .query_map(params![subject], |row| Ok(BoardRender { render_id: row.get(0)?, label: row.get(1)? }))?
        .collect::<Result<_, _>>()?;
    Ok(Board { renders })
}

fn read_event(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredEvent> {
    Ok(StoredEvent { id: row.get(0)?, subject: row.get(1)?, event_type: row.get(2)?, data: row.get(3)? })
}

/// The columns of `kept_results` in `KeptFile`'s order, as `read_kept` reads them.
const KEPT_COLUMNS: &str = "render_id, variation_id, file, image_index, role, subject, bytes, kept_at, removed";

fn read_kept(row: &rusqlite::Row<'_>) -> rusqlite::Result<KeptFile> {
    Ok(KeptFile {
        render_id: row.get(0)?,
        variation_id: row.get(1)?,
        file: row.get(2)?,
        image_index: row.get::<_, i64>(3)?.clamp(0, i64::from(u32::MAX)) as u32,
        role: row.get(4)?,
        subject: row.get(5)?,
        bytes: row.get::<_, i64>(6)?.max(0) as u64,
        kept_at: row.get(7)?,
        removed: row.get(8)?,
    })
}

/// The columns of `disclosures` in `DisclosureRecord`'s order, as `read_disclosure` reads them.
const DISCLOSURE_COLUMNS: &str = "id, subject, created_at, render_id, variation_id, image_index, variation_type, \
     style, furniture_removed, profile, lang, photo_file, original_file";

fn read_disclosure(row: &rusqlite::Row<'_>) -> rusqlite::Result<DisclosureRecord> {
    Ok(DisclosureRecord {
        id: row.get(0)?,
        subject: row.get(1)?,
        created_at: row.get(2)?,
        render_id: row.get(3)?,
        variation_id: row.get(4)?,
        image_index: row.get::<_, i64>(5)?.clamp(0, i64::from(u32::MAX)) as u32,
        variation_type: row.get(6)?,
        style: row.get(7)?,
        furniture_removed: row.get(8)?,
        profile: row.get(9)?,
        lang: row.get(10)?,
        photo_file: row.get(11)?,
        original_file: row.get(12)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each delivery forgets old deliveries, creations and events: a range of a time index, never a scan.
    #[tokio::test]
    async fn forgetting_what_is_old_reads_the_time_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let db = Sqlite::open(dir.path()).unwrap();
        let plans = db
            .run(|db| {
                let plan = |sql: &str| -> rusqlite::Result<String> {
                    db.query_row(&format!("EXPLAIN QUERY PLAN {sql}"), [], |row| row.get(3))
                };
                Ok([
                    plan("DELETE FROM deliveries_seen WHERE received_at < 5")?,
                    plan("DELETE FROM creations WHERE started_at < 5")?,
                    plan("DELETE FROM events WHERE received_at < 5")?,
                ])
            })
            .await
            .unwrap();
        for (plan, index) in plans.iter().zip(["deliveries_seen_by_time", "creations_by_time", "events_by_time"]) {
            assert!(plan.contains(index), "reads {index}: {plan}");
        }
    }
}
