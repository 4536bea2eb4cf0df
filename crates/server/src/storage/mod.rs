//! What the server keeps: its database behind one interface (`store`, a trait per concern; SQLite in `sqlite`, or
//! PostgreSQL shared by several servers in `postgres`, each with a file per concern and its schema's migrations in
//! `crates/server/migrations/`), who created what (`ownership`), each subject's listing board (`boards`), the
//! browsers' uploads (`uploads`, cleared of location metadata by `metadata`), the host's webhooks waiting to be
//! delivered (`outbox`), and the object store that uploads and kept results go to (`objects`: a directory or S3).

pub mod boards;
#[cfg(test)]
mod contract_tests;
pub mod metadata;
pub mod objects;
pub mod outbox;
pub mod ownership;
pub mod postgres;
pub mod sqlite;
pub mod store;
pub mod uploads;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::error::ServerError;

/// Runs `sweep` every tenth of `retention` (at least every second, at most hourly), for ever; a failure is logged
/// as one about `what` and the next round tries again.
pub async fn sweep_forever<Sweep, Sweeping>(retention: Duration, what: &str, sweep: Sweep)
where
    Sweep: Fn() -> Sweeping,
    Sweeping: Future<Output = Result<(), ServerError>>,
{
    let every = (retention / 10).clamp(Duration::from_secs(1), Duration::from_secs(3600));
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        if let Err(error) = sweep().await {
            tracing::warn!(%error, "could not remove expired {what}");
        }
    }
}

/// The database a server keeps, for the commands that read or change what it keeps (`allowance`, `usage`,
/// `deliveries`): as `open`, but an SQLite database that is not there yet is refused, not made, so that a command
/// given another data dir than the server's says so instead of answering from an empty one.
pub async fn open_existing(database: Option<&str>, data_dir: &Path) -> anyhow::Result<Arc<dyn store::Store>> {
    let file = data_dir.join(sqlite::FILE);
    if database.is_none() && !file.is_file() {
        anyhow::bail!(
            "there is no database at {}: give the data dir `vstage serve` keeps its data in (--data-dir, \
             VSTAGE_DATA_DIR or `data-dir` in --config; the systemd unit's is /var/lib/vstage), or its --database; \
             on a new install, `vstage check` with serve's settings makes it",
            file.display()
        );
    }
    open(database, data_dir).await
}

/// The database `--database` names: `postgres://...` (or `postgresql://...`), else SQLite in `data_dir`.
pub async fn open(database: Option<&str>, data_dir: &Path) -> anyhow::Result<Arc<dyn store::Store>> {
    match database {
        None => Ok(Arc::new(sqlite::Sqlite::open(data_dir)?)),
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Ok(Arc::new(postgres::Postgres::connect(url).await?))
        }
        Some(_) => anyhow::bail!(
            "--database takes a PostgreSQL URL (postgres://user:password@host:5432/name); leave it out for the \
             SQLite database in the data dir"
        ),
    }
}
