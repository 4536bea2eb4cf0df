//! The server's own SQLite database in the data dir: who owns which render, webhook deliveries already seen,
//! the event log that live clients resume from, whose uploads take how much, each subject's listing board, and the results kept. Queries run on a blocking thread.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use rusqlite::Connection;

use crate::error::ServerError;

#[derive(Clone)]
pub struct Db {
    connection: Arc<Mutex<Connection>>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Db")
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
];

impl Db {
    /// Opens (creating if needed) `data_dir/vstage.sqlite3`.
    pub fn open(data_dir: &Path) -> anyhow::Result<Db> {
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
        Ok(Db { connection: Arc::new(Mutex::new(connection)) })
    }

    /// Runs `work` with the connection on a blocking thread.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ServerError>
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
