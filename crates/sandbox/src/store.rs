//! The sandbox's storage: one SQLite database (WAL, busy timeout) in the data dir, or in memory without one.
//! Owns the schema; queries run on a blocking thread so the async handlers never wait on disk.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::Connection;

use crate::error::SandboxError;

#[derive(Clone)]
pub struct Store {
    connection: Arc<Mutex<Connection>>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Store")
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
    uid                TEXT PRIMARY KEY,
    webhook_secret     TEXT,
    used_staging       INTEGER NOT NULL DEFAULT 0,
    used_image_editing INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS renders (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL UNIQUE,
    account_uid TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    queued_at   INTEGER,
    image_url   TEXT NOT NULL,
    webhook_url TEXT
);
CREATE INDEX IF NOT EXISTS renders_by_account ON renders (account_uid, seq);
CREATE TABLE IF NOT EXISTS variations (
    seq               INTEGER PRIMARY KEY AUTOINCREMENT,
    id                TEXT NOT NULL UNIQUE,
    render_id         TEXT NOT NULL REFERENCES renders (id),
    kind              TEXT NOT NULL,
    status            TEXT NOT NULL,
    config            TEXT NOT NULL,
    base_variation_id TEXT,
    created_at        INTEGER NOT NULL,
    eta               INTEGER,
    result            TEXT,
    error_message     TEXT
);
CREATE INDEX IF NOT EXISTS variations_by_render ON variations (render_id, seq);
CREATE INDEX IF NOT EXISTS variations_by_status ON variations (status, seq);
CREATE TABLE IF NOT EXISTS deliveries (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    account_uid     TEXT NOT NULL,
    url             TEXT NOT NULL,
    payload         TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    state           TEXT NOT NULL DEFAULT 'pending'
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (state, next_attempt_at);
";

/// Changes to the schema after its first form, applied in order once each (`PRAGMA user_version` counts them).
const MIGRATIONS: &[&str] = &[
    // v1 renders: which API made the render, the settings of its first call, and whether it waits queued
    "ALTER TABLE renders ADD COLUMN api_version INTEGER NOT NULL DEFAULT 2;
     ALTER TABLE renders ADD COLUMN v1_settings TEXT;
     ALTER TABLE renders ADD COLUMN v1_queued INTEGER NOT NULL DEFAULT 0;",
];

impl Store {
    /// Opens (creating if needed) `data_dir/sandbox.sqlite3`, or a private in-memory database.
    pub fn open(data_dir: Option<&Path>) -> Result<Store, SandboxError> {
        let connection = match data_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| SandboxError::Startup(format!("cannot create the data dir {}: {e}", dir.display())))?;
                Connection::open(dir.join("sandbox.sqlite3"))
            }
            None => Connection::open_in_memory(),
        }
        .map_err(|e| SandboxError::Startup(format!("cannot open the sandbox database: {e}")))?;
        connection
            .busy_timeout(Duration::from_secs(5))
            .and_then(|()| connection.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| connection.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|()| connection.pragma_update(None, "foreign_keys", "ON"))
            .and_then(|()| connection.execute_batch(SCHEMA))
            .and_then(|()| migrate(&connection))
            .map_err(|e| SandboxError::Startup(format!("cannot prepare the sandbox database: {e}")))?;
        Ok(Store { connection: Arc::new(Mutex::new(connection)) })
    }

    /// Runs `work` with the connection on a blocking thread.
    pub async fn run<T, F>(&self, work: F) -> Result<T, SandboxError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, SandboxError> + Send + 'static,
    {
        let connection = self.connection.clone();
        tokio::task::spawn_blocking(move || {
            let mut connection = connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            work(&mut connection)
        })
        .await
        .map_err(|e| SandboxError::Internal(format!("a database task stopped: {e}")))?
    }

    /// Runs `work` right here (start-up, before the server serves).
    pub fn run_now<T>(&self, work: impl FnOnce(&mut Connection) -> Result<T, SandboxError>) -> Result<T, SandboxError> {
        let mut connection = self.connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        work(&mut connection)
    }
}

fn migrate(connection: &Connection) -> rusqlite::Result<()> {
    let applied: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(applied.max(0) as usize) {
        connection.execute_batch(&format!("BEGIN; {migration} PRAGMA user_version = {}; COMMIT;", index + 1))?;
    }
    Ok(())
}

impl From<rusqlite::Error> for SandboxError {
    fn from(error: rusqlite::Error) -> Self {
        SandboxError::Internal(format!("database: {error}"))
    }
}
