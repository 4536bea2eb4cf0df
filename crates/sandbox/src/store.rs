//! The sandbox's storage: one SQLite database (WAL, busy timeout) in the data dir, or in memory without one.
//! Owns the schema and the database thread: every query runs there, one at a time, so handlers never wait on disk.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;
use rusqlite::config::DbConfig;
use tokio::sync::oneshot;

use crate::error::SandboxError;

/// What the database thread is asked to do.
enum Message {
    Job(Box<dyn FnOnce(&mut Connection) + Send>),
    Close,
}

/// A handle on the database thread. The thread owns the one connection and takes jobs in the order they come,
/// back to back while there are more, so a busy sandbox neither hands the connection between threads nor
/// contends for a lock; it ends, closing the database, on `close` or when the last handle is dropped.
#[derive(Clone)]
pub struct Store {
    jobs: mpsc::Sender<Message>,
    thread: Arc<Mutex<Option<JoinHandle<()>>>>,
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
    // multi-view staging: every photo of the render (JSON array), the first being `image_url`
    "ALTER TABLE renders ADD COLUMN image_urls TEXT;",
    // monthly periods: when the account's first began (the day of the month each renews on), and which one the
    // counts belong to
    "ALTER TABLE accounts ADD COLUMN period_anchor INTEGER;
     ALTER TABLE accounts ADD COLUMN period_index INTEGER NOT NULL DEFAULT 0;",
];

/// Room for every statement the handlers and the worker prepare (`prepare_cached`), so none is parsed twice.
const STATEMENT_CACHE: usize = 64;

impl Store {
    /// Opens (creating if needed) `data_dir/sandbox.sqlite3`, or a private in-memory database.
    pub fn open(data_dir: Option<&Path>) -> Result<Store, SandboxError> {
        let connection = match data_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| SandboxError::Startup(format!("cannot create the data dir {}: {e}", dir.display())))?;
                let path = dir.join("sandbox.sqlite3");
                owner_only(&path)
                    .map_err(|e| SandboxError::Startup(format!("cannot make {} private: {e}", path.display())))?;
                Connection::open(path)
            }
            None => Connection::open_in_memory(),
        }
        .map_err(|e| SandboxError::Startup(format!("cannot open the sandbox database: {e}")))?;
        // The sandbox is the database's only user: it keeps the file locked while it runs (no locking per query,
        // and a second sandbox on the same data dir is refused). Query plans stay fixed, so a cached statement is
        // not compiled again when its parameters change.
        connection
            .busy_timeout(Duration::from_secs(5))
            .and_then(|()| connection.pragma_update(None, "locking_mode", "EXCLUSIVE"))
            .and_then(|()| connection.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| connection.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|()| connection.pragma_update(None, "foreign_keys", "ON"))
            .and_then(|()| connection.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true).map(|_| ()))
            .and_then(|()| connection.execute_batch(SCHEMA))
            .and_then(|()| migrate(&connection))
            .map(|()| connection.set_prepared_statement_cache_capacity(STATEMENT_CACHE))
            .map_err(|e| match (e.sqlite_error_code(), data_dir) {
                (Some(rusqlite::ErrorCode::DatabaseBusy), Some(dir)) => SandboxError::Startup(format!(
                    "another sandbox is using the data dir {}; stop it or give this one another --data-dir",
                    dir.display()
                )),
                _ => SandboxError::Startup(format!("cannot prepare the sandbox database: {e}")),
            })?;
        let (jobs, queue) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("sandbox-db".into())
            .spawn(move || {
                let mut connection = connection;
                while let Ok(Message::Job(job)) = queue.recv() {
                    // A job that panics fails its own call (its answer is never sent), not the ones after it.
                    let _ = catch_unwind(AssertUnwindSafe(|| job(&mut connection)));
                }
            })
            .map_err(|e| SandboxError::Startup(format!("cannot start the database thread: {e}")))?;
        Ok(Store { jobs, thread: Arc::new(Mutex::new(Some(thread))) })
    }

    /// Closes the database once the jobs already sent have run, and waits until it is closed (its file unlocked);
    /// later calls on any handle fail. For a sandbox that stops while its tasks may still hold handles.
    pub fn close(&self) {
        let _ = self.jobs.send(Message::Close);
        let thread = self.thread.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some(thread) = thread.filter(|thread| thread.thread().id() != std::thread::current().id()) {
            let _ = thread.join();
        }
    }

    /// Runs `work` on the database thread and waits for its outcome without holding up the caller's thread.
    pub async fn run<T, F>(&self, work: F) -> Result<T, SandboxError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, SandboxError> + Send + 'static,
    {
        let (answer, outcome) = oneshot::channel();
        self.send(Box::new(move |connection| {
            let _ = answer.send(work(connection));
        }))?;
        outcome.await.map_err(|_| stopped())?
    }

    /// Runs `work` on the database thread and blocks until it is done (start-up, before the server serves).
    pub fn run_now<T, F>(&self, work: F) -> Result<T, SandboxError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, SandboxError> + Send + 'static,
    {
        let (answer, outcome) = mpsc::sync_channel(1);
        self.send(Box::new(move |connection| {
            let _ = answer.send(work(connection));
        }))?;
        outcome.recv().map_err(|_| stopped())?
    }

    fn send(&self, job: Box<dyn FnOnce(&mut Connection) + Send>) -> Result<(), SandboxError> {
        self.jobs.send(Message::Job(job)).map_err(|_| stopped())
    }
}

fn stopped() -> SandboxError {
    SandboxError::Internal("a database call stopped before it answered (see the log above)".into())
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

/// Keeps the database file and its journals readable by their owner only (they hold secrets): the file is made so
/// before SQLite opens it, and an older file's mode is corrected. The server's database is kept so too.
pub fn owner_only(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new().create(true).append(true).mode(0o600).open(path)?;
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut file = path.as_os_str().to_owned();
            file.push(suffix);
            match std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)) {
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                done => done?,
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_database_is_readable_by_its_owner_only_even_when_made_before() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sandbox.sqlite3");
        std::fs::write(&path, b"").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let _store = Store::open(Some(dir.path())).unwrap();
        for file in std::fs::read_dir(dir.path()).unwrap() {
            let file = file.unwrap();
            let mode = file.metadata().unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{:?}", file.file_name());
        }
    }

    #[tokio::test]
    async fn queries_run_in_order_and_a_failing_one_fails_alone() {
        let store = Store::open(None).unwrap();
        store.run(|db| Ok(db.execute("INSERT INTO meta (key, value) VALUES ('a', '1')", [])?)).await.unwrap();
        let error = store.run(|db| Ok(db.execute("INSERT INTO meta (key, value) VALUES ('a', '2')", [])?)).await;
        assert!(matches!(error, Err(SandboxError::Internal(_))), "{error:?}");
        let panicked: Result<(), _> = store.run(|_| panic!("a bug in one query")).await;
        assert!(panicked.is_err());
        let value: String = store
            .run(|db| Ok(db.query_row("SELECT value FROM meta WHERE key = 'a'", [], |r| r.get(0))?))
            .await
            .unwrap();
        assert_eq!(value, "1");
    }

    #[test]
    fn a_second_sandbox_on_the_same_data_dir_is_refused_with_a_sentence() {
        let dir = tempfile::tempdir().unwrap();
        let first = Store::open(Some(dir.path())).unwrap();
        first.run_now(|db| Ok(db.execute("INSERT INTO meta (key, value) VALUES ('a', '1')", [])?)).unwrap();
        let second = Store::open(Some(dir.path())).map(|_| ()).unwrap_err().to_string();
        assert!(second.contains("another sandbox is using the data dir"), "{second}");
        drop(first);
        // Once the first has stopped, its data is there for the next one.
        let mut reopened = Err(SandboxError::Internal(String::new()));
        for _ in 0..50 {
            reopened = Store::open(Some(dir.path()));
            if reopened.is_ok() {
                break;
            }
        }
        let value: String = reopened
            .unwrap()
            .run_now(|db| Ok(db.query_row("SELECT value FROM meta WHERE key = 'a'", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(value, "1");
    }
}
