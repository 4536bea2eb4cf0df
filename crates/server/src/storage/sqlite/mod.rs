//! The server's own SQLite database in the data dir (the default, for one server): the `Store` in SQL for SQLite,
//! on one connection used from a blocking thread, with its migrations counted by `PRAGMA user_version`.

mod boards;
mod disclosures;
mod events;
mod kept;
mod ledger;
mod outbox;
mod owners;
mod signer;
mod uploads;

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
    Limits, LogBounds, OwnedPage, REFERENCES_AWAITED_MS, RenderPhoto, Reservation, Reserved, Store, StoredEvent,
    SubjectAllowance, UploadRecord, board_full, not_a_cursor, reference_json, reference_of_json,
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

/// The database's file in the data dir.
pub const FILE: &str = "vstage.sqlite3";

/// Applied in order, once each (`PRAGMA user_version` counts them); never edited once released, only added to.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/sqlite/0001_initial.sql"),
    include_str!("../../../migrations/sqlite/0002_events_by_time.sql"),
    include_str!("../../../migrations/sqlite/0003_uploads.sql"),
    include_str!("../../../migrations/sqlite/0004_deliveries_seen_by_time.sql"),
    include_str!("../../../migrations/sqlite/0005_board.sql"),
    include_str!("../../../migrations/sqlite/0006_kept_results.sql"),
    include_str!("../../../migrations/sqlite/0007_creations.sql"),
    include_str!("../../../migrations/sqlite/0008_disclosures.sql"),
    include_str!("../../../migrations/sqlite/0009_disclosure_choices.sql"),
    include_str!("../../../migrations/sqlite/0010_allowances.sql"),
    include_str!("../../../migrations/sqlite/0011_ledger_by_render.sql"),
    include_str!("../../../migrations/sqlite/0012_host_outbox.sql"),
    include_str!("../../../migrations/sqlite/0013_content_credentials.sql"),
    include_str!("../../../migrations/sqlite/0014_render_charges.sql"),
    include_str!("../../../migrations/sqlite/0015_disclosures_by_variation.sql"),
    include_str!("../../../migrations/sqlite/0016_host_references.sql"),
    include_str!("../../../migrations/sqlite/0017_awaited_references.sql"),
    include_str!("../../../migrations/sqlite/0018_render_views.sql"),
    include_str!("../../../migrations/sqlite/0019_outbox_by_render_kind.sql"),
];

impl Sqlite {
    /// Opens (creating if needed) `data_dir/vstage.sqlite3`.
    pub fn open(data_dir: &Path) -> anyhow::Result<Sqlite> {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create the data dir {}", data_dir.display()))?;
        let path = data_dir.join(FILE);
        vstage_sandbox::owner_only(&path).with_context(|| format!("cannot make {} private", path.display()))?;
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
     style, furniture_removed, profile, lang, photo_file, original_file, optimized_file, thumbnail_file, listing_id, \
     reference, replaces";

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
        optimized_file: row.get(13)?,
        thumbnail_file: row.get(14)?,
        reference: reference_of_json(row.get::<_, Option<String>>(16)?.as_deref()),
        replaces: row.get(17)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_database_is_readable_by_its_owner_only_even_when_made_before() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vstage.sqlite3");
        std::fs::write(&path, b"").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let _store = Sqlite::open(dir.path()).unwrap();
        for file in std::fs::read_dir(dir.path()).unwrap() {
            let file = file.unwrap();
            let mode = file.metadata().unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{:?}", file.file_name());
        }
    }

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
