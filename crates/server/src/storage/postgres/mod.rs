//! The database several servers share (`--database postgres://...`): the `Store` in SQL for PostgreSQL over a
//! pool of tokio-postgres connections, its versioned migrations, and the event feed through `LISTEN/NOTIFY`.
//!
//! What one SQLite connection did by being alone, locks do here: advisory locks (per subject, per resource)
//! serialize what must not interleave across servers, and one counter row hands out event ids in commit order.

mod boards;
mod disclosures;
mod events;
mod kept;
mod ledger;
mod outbox;
mod owners;
mod signer;
mod uploads;

use std::future::Future;
use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use tokio::runtime::Handle;
use tokio_postgres::{AsyncMessage, NoTls, Row};
use vstage_api::board::{Board, BoardRender};

use super::outbox::OutboxEntry;
use super::store::{
    ClaimReporter, Delivery, DisclosureCursor, DisclosureRecord, KeptFile, Kind, LedgerRow, LevelReached, LevelReports,
    Limits, LogBounds, OwnedPage, REFERENCES_AWAITED_MS, RenderPhoto, Reservation, Reserved, Store, StoredEvent,
    SubjectAllowance, UploadRecord, board_full, not_a_cursor, reference_json, reference_of_json,
};
use crate::error::ServerError;
use crate::metrics::PoolState;
use vstage_api::usage::UsageKind;

/// The channel events are announced on, with the event's id as the payload.
const CHANNEL: &str = "vstage_events";
/// Connections per server; a call holds one only for its statements.
const POOL_SIZE: usize = 16;

/// Applied in order, once each, numbered from 1 in `vstage_schema`; never edited once released.
pub(super) const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/postgres/0001_initial.sql"),
    include_str!("../../../migrations/postgres/0002_creations.sql"),
    include_str!("../../../migrations/postgres/0003_disclosures.sql"),
    include_str!("../../../migrations/postgres/0004_disclosure_choices.sql"),
    include_str!("../../../migrations/postgres/0005_allowances.sql"),
    include_str!("../../../migrations/postgres/0006_ledger_by_render.sql"),
    include_str!("../../../migrations/postgres/0007_host_outbox.sql"),
    include_str!("../../../migrations/postgres/0008_content_credentials.sql"),
    include_str!("../../../migrations/postgres/0009_render_charges.sql"),
    include_str!("../../../migrations/postgres/0010_disclosures_by_variation.sql"),
    include_str!("../../../migrations/postgres/0011_host_references.sql"),
    include_str!("../../../migrations/postgres/0012_awaited_references.sql"),
    include_str!("../../../migrations/postgres/0013_render_views.sql"),
    include_str!("../../../migrations/postgres/0014_outbox_by_render_kind.sql"),
];

pub struct Postgres {
    pool: Pool,
    /// For the event feed's own connection (a pooled one cannot wait for notifications).
    config: tokio_postgres::Config,
    /// Where the connections' tasks run: the server's main runtime, whichever worker asks.
    runtime: Handle,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL may hold a password.
        f.write_str("Postgres")
    }
}

impl Postgres {
    /// Connects to `url`, runs the migrations not applied yet, and keeps a pool.
    pub async fn connect(url: &str) -> anyhow::Result<Postgres> {
        let config: tokio_postgres::Config = url
            .parse()
            .context("--database is not a PostgreSQL URL this server reads (postgres://user:password@host/name)")?;
        let manager =
            Manager::from_config(config.clone(), NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(10)))
            .create_timeout(Some(Duration::from_secs(10)))
            .build()
            .context("cannot make the PostgreSQL connection pool")?;
        let described = describe(&config);
        let postgres = Postgres { pool, config, runtime: Handle::current() };
        postgres.migrate().await.with_context(|| {
            format!("cannot prepare the PostgreSQL database {described}; check --database (VSTAGE_DATABASE_URL)")
        })?;
        Ok(postgres)
    }

    /// Applies the migrations not applied yet, in one transaction under a lock, so servers starting together
    /// apply each once. The lock comes first, before even the schema table is made: two servers creating it at
    /// once would collide in PostgreSQL's catalogue (`pg_type_typname_nsp_index`) however `IF NOT EXISTS` reads.
    async fn migrate(&self) -> Result<(), ServerError> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('vstage_schema')::BIGINT)", &[]).await?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS vstage_schema (
                 version    INTEGER PRIMARY KEY,
                 applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
             )",
        )
        .await?;
        let applied: i32 = tx.query_one("SELECT COALESCE(MAX(version), 0) FROM vstage_schema", &[]).await?.get(0);
        if applied as usize > MIGRATIONS.len() {
            return Err(ServerError::Internal(format!(
                "the database's schema is version {applied}, newer than this server knows ({}); run the newer server",
                MIGRATIONS.len()
            )));
        }
        for (index, migration) in MIGRATIONS.iter().enumerate().skip(applied.max(0) as usize) {
            tx.batch_execute(migration).await?;
            tx.execute("INSERT INTO vstage_schema (version) VALUES ($1)", &[&(index as i32 + 1)]).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Runs `work` with the pool on the main runtime, where the connections' tasks live.
    async fn run<T, Work, Working>(&self, work: Work) -> Result<T, ServerError>
    where
        T: Send + 'static,
        Work: FnOnce(Pool) -> Working,
        Working: Future<Output = Result<T, ServerError>> + Send + 'static,
    {
        self.runtime
            .spawn(work(self.pool.clone()))
            .await
            .map_err(|e| ServerError::Internal(format!("a database task stopped: {e}")))?
    }
}

#[async_trait]
impl Store for Postgres {
    fn is_shared(&self) -> bool {
        true
    }

    fn pool_state(&self) -> Option<PoolState> {
        let status = self.pool.status();
        Some(PoolState { open: status.size, idle: status.available, max: status.max_size })
    }

    async fn ping(&self) -> Result<(), ServerError> {
        self.run(|pool| async move {
            pool.get().await?.query_one("SELECT 1", &[]).await?;
            Ok(())
        })
        .await
    }
}

/// Where a configuration leads, password left out: `"vstage" on 10.0.0.5:5432 as "studio"`.
fn describe(config: &tokio_postgres::Config) -> String {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(index, host)| {
            let port = config.get_ports().get(index).or(config.get_ports().first()).copied().unwrap_or(5432);
            match host {
                tokio_postgres::config::Host::Tcp(name) => format!("{name}:{port}"),
                tokio_postgres::config::Host::Unix(folder) => format!("{}/.s.PGSQL.{port}", folder.display()),
            }
        })
        .collect();
    format!(
        "\"{}\" on {} as \"{}\"",
        config.get_dbname().unwrap_or("(the user's own)"),
        if hosts.is_empty() { "localhost".to_string() } else { hosts.join(", ") },
        config.get_user().unwrap_or("(no user given)")
    )
}

/// Takes the transaction-long advisory lock named `what:key`.
async fn lock(tx: &tokio_postgres::Transaction<'_>, what: &str, key: &str) -> Result<(), ServerError> {
    tx.execute("SELECT pg_advisory_xact_lock(hashtext($1)::BIGINT)", &[&format!("{what}:{key}")]).await?;
    Ok(())
}

async fn read_board(client: &impl GenericClient, subject: &str) -> Result<Board, ServerError> {
    let rows = client
        .query("SELECT render_id, label FROM board_renders WHERE subject = $1 ORDER BY position", &[&subject])
        .await?;
    Ok(Board { renders: rows.iter().map(|row| BoardRender { render_id: row.get(0), label: row.get(1) }).collect() })
}

fn read_event(row: &Row) -> StoredEvent {
    StoredEvent { id: row.get(0), subject: row.get(1), event_type: row.get(2), data: row.get(3) }
}

/// The columns of `kept_results` in `KeptFile`'s order, as `read_kept` reads them.
const KEPT_COLUMNS: &str = "render_id, variation_id, file, image_index, role, subject, bytes, kept_at, removed";

fn read_kept(row: &Row) -> KeptFile {
    KeptFile {
        render_id: row.get(0),
        variation_id: row.get(1),
        file: row.get(2),
        image_index: row.get::<_, i64>(3).clamp(0, i64::from(u32::MAX)) as u32,
        role: row.get(4),
        subject: row.get(5),
        bytes: row.get::<_, i64>(6).max(0) as u64,
        kept_at: row.get(7),
        removed: row.get(8),
    }
}

/// The columns of `disclosures` in `DisclosureRecord`'s order, as `read_disclosure` reads them.
const DISCLOSURE_COLUMNS: &str = "id, subject, created_at, render_id, variation_id, image_index, variation_type, \
     style, furniture_removed, profile, lang, photo_file, original_file, optimized_file, thumbnail_file, listing_id, \
     reference, replaces";

fn read_disclosure(row: &Row) -> DisclosureRecord {
    DisclosureRecord {
        id: row.get(0),
        subject: row.get(1),
        created_at: row.get(2),
        render_id: row.get(3),
        variation_id: row.get(4),
        image_index: row.get::<_, i64>(5).clamp(0, i64::from(u32::MAX)) as u32,
        variation_type: row.get(6),
        style: row.get(7),
        furniture_removed: row.get(8),
        profile: row.get(9),
        lang: row.get(10),
        photo_file: row.get(11),
        original_file: row.get(12),
        optimized_file: row.get(13),
        thumbnail_file: row.get(14),
        reference: reference_of_json(row.get::<_, Option<String>>(16).as_deref()),
        replaces: row.get(17),
    }
}

/// How long `event_feed` waits for its feed to listen before handing it over anyway.
const FEED_READY: Duration = Duration::from_secs(30);

/// Listens on `CHANNEL` on a connection of its own and sends each announced event (read from the log with any
/// before it not sent yet) to `sender`, for as long as anyone receives. A lost connection, or a read that failed,
/// is made again after a second and said in the log; what was stored meanwhile (after the newest event sent, or the
/// newest stored when it first listened) is read from the log and sent then, so the streams miss nothing.
/// `first_listen` is told once, when the first LISTEN is acknowledged.
async fn feed_events(
    config: tokio_postgres::Config,
    pool: Pool,
    sender: tokio::sync::mpsc::Sender<StoredEvent>,
    first_listen: tokio::sync::oneshot::Sender<()>,
) {
    let mut first_listen = Some(first_listen);
    let mut newest_sent: Option<i64> = None;
    while !sender.is_closed() {
        let (client, mut connection) = match config.connect(NoTls).await {
            Ok(connected) => connected,
            Err(error) => {
                tracing::warn!(%error, "cannot listen for live events in PostgreSQL; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        // The connection is driven by polling its messages; LISTEN is sent while they are polled.
        let listen = format!("LISTEN {CHANNEL}");
        let listening = client.batch_execute(&listen);
        tokio::pin!(listening);
        let mut listened = false;
        loop {
            tokio::select! {
                done = &mut listening, if !listened => {
                    if let Err(error) = done {
                        tracing::warn!(%error, "cannot listen for live events in PostgreSQL");
                        break;
                    }
                    listened = true;
                    // Before the first listen is told: what is stored after the feed is handed over is either
                    // announced or read back once listening again.
                    match caught_up(&pool, &sender, &mut newest_sent).await {
                        Ok(true) => {}
                        Ok(false) => return,
                        Err(error) => {
                            tracing::warn!(%error, "the live events stored meanwhile could not be read; trying again");
                            break;
                        }
                    }
                    if let Some(tell) = first_listen.take() {
                        let _ = tell.send(());
                    }
                }
                message = messages.next() => match message {
                    Some(Ok(AsyncMessage::Notification(notification))) => {
                        let Ok(id) = notification.payload().parse::<i64>() else { continue };
                        if newest_sent.is_some_and(|newest| id <= newest) {
                            continue;
                        }
                        // Read on from the newest sent, not by its id: an event a failed read left out comes
                        // with the next, or when listening again.
                        match caught_up(&pool, &sender, &mut newest_sent).await {
                            Ok(true) => {}
                            Ok(false) => return,
                            Err(error) => {
                                tracing::warn!(%error, id, "an announced event could not be read; listening again");
                                break;
                            }
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(error)) => {
                        tracing::warn!(%error, "the live events connection to PostgreSQL failed; listening again");
                        break;
                    }
                    None => {
                        tracing::warn!("the live events connection to PostgreSQL closed; listening again");
                        break;
                    }
                },
            }
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Sends `event` on, `newest_sent` following it; false once nobody receives.
async fn sent(
    sender: &tokio::sync::mpsc::Sender<StoredEvent>,
    event: StoredEvent,
    newest_sent: &mut Option<i64>,
) -> bool {
    *newest_sent = Some(newest_sent.map_or(event.id, |newest| newest.max(event.id)));
    sender.send(event).await.is_ok()
}

/// Once listening (again), and on each announcement: every event stored after the newest sent, a page at a time,
/// is sent on; on the first listen, with nothing sent yet, the newest stored is where a later catch-up starts (what
/// is stored from now on is announced). False once nobody receives; a failed read is the caller's to listen again
/// after (nothing after the newest sent is lost: it is read then).
async fn caught_up(
    pool: &Pool,
    sender: &tokio::sync::mpsc::Sender<StoredEvent>,
    newest_sent: &mut Option<i64>,
) -> Result<bool, ServerError> {
    let Some(mut after) = *newest_sent else {
        *newest_sent = Some(newest_stored(pool).await?);
        return Ok(true);
    };
    loop {
        let missed = events_after(pool, after).await?;
        let whole_page = missed.len() as i64 == CATCH_UP_PAGE;
        for event in missed {
            after = event.id;
            if !sent(sender, event, newest_sent).await {
                return Ok(false);
            }
        }
        if !whole_page {
            return Ok(true);
        }
    }
}

/// The most events one read of the log brings when catching up.
const CATCH_UP_PAGE: i64 = 1000;

/// The owned events after `after`, in order, a page of them.
async fn events_after(pool: &Pool, after: i64) -> Result<Vec<StoredEvent>, ServerError> {
    let rows = pool
        .get()
        .await?
        .query(
            "SELECT id, subject, event_type, data FROM events WHERE id > $1 AND subject <> '' ORDER BY id LIMIT $2",
            &[&after, &CATCH_UP_PAGE],
        )
        .await?;
    Ok(rows.iter().map(read_event).collect())
}

/// The id of the newest event stored (0 before the first).
async fn newest_stored(pool: &Pool) -> Result<i64, ServerError> {
    Ok(pool.get().await?.query_one("SELECT newest FROM event_ids", &[]).await?.get(0))
}
