//! The database several servers share (`--database postgres://...`): the `Store` in SQL for PostgreSQL over a
//! pool of tokio-postgres connections, its versioned migrations, and the event feed through `LISTEN/NOTIFY`.
//!
//! What one SQLite connection did by being alone, locks do here: advisory locks (per subject, per resource)
//! serialize what must not interleave across servers, and one counter row hands out event ids in commit order.

mod outbox;

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
    Limits, LogBounds, OwnedPage, Reservation, Reserved, Store, StoredEvent, SubjectAllowance, UploadRecord,
    board_full, not_a_cursor,
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
        limit: u32,
        cursor: Option<&str>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError> {
        let (subject, cursor) = (subject.to_string(), cursor.map(str::to_string));
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
                 ORDER BY seq {} LIMIT $4",
                if ascending { ">" } else { "<" },
                if ascending { "ASC" } else { "DESC" }
            );
            let ids = client
                .query(&sql, &[&kind.as_str(), &subject, &after, &(i64::from(limit) + 1)])
                .await?
                .iter()
                .map(|row| row.get(0))
                .collect();
            let total: i64 = client
                .query_one("SELECT COUNT(*) FROM owners WHERE kind = $1 AND subject = $2", &[&kind.as_str(), &subject])
                .await?
                .get(0);
            Ok(OwnedPage::from_rows(ids, limit, total))
        })
        .await
    }

    async fn board(&self, subject: &str) -> Result<Board, ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move { read_board(&pool.get().await?, &subject).await }).await
    }

    async fn board_add(&self, subject: &str, renders: &[BoardRender], max: usize) -> Result<Board, ServerError> {
        let (subject, renders) = (subject.to_string(), renders.to_vec());
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // One change to a subject's board at a time, whichever server makes it.
            lock(&tx, "board", &subject).await?;
            let row = tx
                .query_one("SELECT COUNT(*), MAX(position) FROM board_renders WHERE subject = $1", &[&subject])
                .await?;
            let (count, last): (i64, Option<i64>) = (row.get(0), row.get(1));
            let mut position = last.unwrap_or(0);
            let mut added = 0u64;
            for render in &renders {
                position += 1;
                added += tx
                    .execute(
                        "INSERT INTO board_renders (subject, render_id, label, position) VALUES ($1, $2, $3, $4)
                         ON CONFLICT (subject, render_id) DO NOTHING",
                        &[&subject, &render.render_id, &render.label, &position],
                    )
                    .await?;
            }
            if count.max(0) as usize + added as usize > max {
                return Err(board_full(max));
            }
            let board = read_board(&tx, &subject).await?;
            tx.commit().await?;
            Ok(board)
        })
        .await
    }

    async fn board_remove(&self, subject: &str, render_id: &str) -> Result<Board, ServerError> {
        let (subject, render_id) = (subject.to_string(), render_id.to_string());
        self.run(move |pool| async move {
            let client = pool.get().await?;
            client
                .execute("DELETE FROM board_renders WHERE subject = $1 AND render_id = $2", &[&subject, &render_id])
                .await?;
            read_board(&client, &subject).await
        })
        .await
    }

    async fn board_clear(&self, subject: &str) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move {
            pool.get().await?.execute("DELETE FROM board_renders WHERE subject = $1", &[&subject]).await?;
            Ok(())
        })
        .await
    }

    async fn record_creation(&self, creation: &str, kind: Kind, subject: &str, now: i64) -> Result<(), ServerError> {
        let (creation, subject) = (creation.to_string(), subject.to_string());
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute(
                    "INSERT INTO creations (token, kind, subject, started_at) VALUES ($1, $2, $3, $4)
                     ON CONFLICT DO NOTHING",
                    &[&creation, &kind.as_str(), &subject, &now],
                )
                .await?;
            Ok(())
        })
        .await
    }

    async fn receive_delivery(&self, delivery: Delivery) -> Result<Option<StoredEvent>, ServerError> {
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // Under the resource's lock, which a claim takes too: the owner read here is recorded and claimed
            // either wholly before (and seen) or wholly after (and this event is claimed then).
            lock(&tx, "resource", &delivery.resource).await?;
            let owner: Option<String> = tx
                .query_opt(
                    "SELECT subject FROM owners WHERE kind = $1 AND id = $2",
                    &[&delivery.kind.as_str(), &delivery.id],
                )
                .await?
                .map(|row| row.get(0));
            tx.execute("DELETE FROM creations WHERE started_at < $1", &[&delivery.seen_since]).await?;
            let creator: Option<String> = match (&owner, &delivery.creation) {
                (None, Some(creation)) => tx
                    .query_opt(
                        "SELECT subject FROM creations WHERE token = $1 AND kind = $2",
                        &[creation, &delivery.kind.as_str()],
                    )
                    .await?
                    .map(|row| row.get(0)),
                _ => None,
            };
            if let Some(creator) = &creator {
                tx.execute(
                    "INSERT INTO owners (kind, id, subject) VALUES ($1, $2, $3) ON CONFLICT (kind, id) DO NOTHING",
                    &[&delivery.kind.as_str(), &delivery.id, creator],
                )
                .await?;
            }
            let subject = owner.or(creator).unwrap_or_else(|| delivery.unowned_subject.clone());
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
            for resource in &resources {
                lock(&tx, "resource", resource).await?;
                let rows = tx
                    .query(
                        "UPDATE events SET subject = $1 WHERE subject = '' AND resource = $2
                         RETURNING id, subject, event_type, data",
                        &[&subject, resource],
                    )
                    .await?;
                claimed.extend(rows.iter().map(read_event));
            }
            claimed.sort_by_key(|event| event.id);
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

    async fn reserve_upload(&self, upload: &UploadRecord, quota: Option<u64>) -> Result<Result<(), u64>, ServerError> {
        let upload = upload.clone();
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // Two uploads of one subject at once, on any servers, cannot both squeeze under the quota.
            lock(&tx, "uploads", &upload.subject).await?;
            if let Some(quota) = quota {
                let used: i64 = tx
                    .query_one(
                        "SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM uploads WHERE subject = $1",
                        &[&upload.subject],
                    )
                    .await?
                    .get(0);
                let used = used.max(0) as u64;
                if used + upload.bytes > quota {
                    return Ok(Err(used));
                }
            }
            tx.execute(
                "INSERT INTO uploads (name, subject, bytes, stored_at) VALUES ($1, $2, $3, $4)",
                &[&upload.name, &upload.subject, &(upload.bytes as i64), &upload.stored_at],
            )
            .await?;
            tx.commit().await?;
            Ok(Ok(()))
        })
        .await
    }

    async fn forget_uploads(&self, names: &[String]) -> Result<(), ServerError> {
        let names = names.to_vec();
        self.run(move |pool| async move {
            pool.get().await?.execute("DELETE FROM uploads WHERE name = ANY($1)", &[&names]).await?;
            Ok(())
        })
        .await
    }

    async fn kept_files(&self, renders: &[String]) -> Result<Vec<KeptFile>, ServerError> {
        let renders = renders.to_vec();
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(&format!("SELECT {KEPT_COLUMNS} FROM kept_results WHERE render_id = ANY($1)"), &[&renders])
                .await?;
            Ok(rows.iter().map(read_kept).collect())
        })
        .await
    }

    async fn ever_kept(&self, render_id: &str, variation_id: &str) -> Result<bool, ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |pool| async move {
            Ok(pool
                .get()
                .await?
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM kept_results WHERE render_id = $1 AND variation_id = $2)",
                    &[&render, &variation],
                )
                .await?
                .get(0))
        })
        .await
    }

    async fn record_kept(&self, files: &[KeptFile], reported: &[OutboxEntry]) -> Result<(), ServerError> {
        let (files, reported) = (files.to_vec(), reported.to_vec());
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let mut new = 0;
            for file in &files {
                new += tx
                    .execute(
                        &format!(
                            "INSERT INTO kept_results ({KEPT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                         ON CONFLICT DO NOTHING"
                        ),
                        &[
                            &file.render_id,
                            &file.variation_id,
                            &file.file,
                            &i64::from(file.image_index),
                            &file.role,
                            &file.subject,
                            &(file.bytes as i64),
                            &file.kept_at,
                            &file.removed,
                        ],
                    )
                    .await?;
            }
            if new > 0 {
                outbox::enqueue(&tx, &reported).await?;
            }
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn kept_bytes(&self, subject: &str) -> Result<u64, ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move {
            let used: i64 = pool
                .get()
                .await?
                .query_one(
                    "SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM kept_results WHERE subject = $1 AND NOT removed",
                    &[&subject],
                )
                .await?
                .get(0);
            Ok(used.max(0) as u64)
        })
        .await
    }

    async fn mark_kept_removed(&self, render_id: &str, variation_id: &str) -> Result<(), ServerError> {
        let (render, variation) = (render_id.to_string(), variation_id.to_string());
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute(
                    "UPDATE kept_results SET removed = TRUE WHERE render_id = $1 AND variation_id = $2",
                    &[&render, &variation],
                )
                .await?;
            Ok(())
        })
        .await
    }

    async fn expired_kept(&self, cutoff: i64) -> Result<Vec<KeptFile>, ServerError> {
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(
                    &format!("SELECT {KEPT_COLUMNS} FROM kept_results WHERE NOT removed AND kept_at < $1"),
                    &[&cutoff],
                )
                .await?;
            Ok(rows.iter().map(read_kept).collect())
        })
        .await
    }

    async fn mark_kept_expired(&self, cutoff: i64) -> Result<(), ServerError> {
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute("UPDATE kept_results SET removed = TRUE WHERE NOT removed AND kept_at < $1", &[&cutoff])
                .await?;
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
        self.run(move |pool| async move {
            let index = i64::from(record.image_index);
            let choice = record.choice();
            let mut connection = pool.get().await?;
            let tx = connection.transaction().await?;
            let new = tx
                .execute(
                    &format!(
                        "INSERT INTO disclosures ({DISCLOSURE_COLUMNS}, choice) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
                         ON CONFLICT (choice) DO NOTHING"
                    ),
                    &[
                        &record.id,
                        &record.subject,
                        &record.created_at,
                        &record.render_id,
                        &record.variation_id,
                        &index,
                        &record.variation_type,
                        &record.style,
                        &record.furniture_removed,
                        &record.profile,
                        &record.lang,
                        &record.photo_file,
                        &record.original_file,
                        &choice,
                    ],
                )
                .await?;
            if new > 0 {
                outbox::enqueue(&tx, &reported).await?;
            }
            let row = tx
                .query_one(&format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE choice = $1"), &[&choice])
                .await?;
            tx.commit().await?;
            Ok(read_disclosure(&row))
        })
        .await
    }

    async fn disclosure_of_choice(&self, choice: &str) -> Result<Option<DisclosureRecord>, ServerError> {
        let choice = choice.to_string();
        self.run(move |pool| async move {
            let row = pool
                .get()
                .await?
                .query_opt(&format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE choice = $1"), &[&choice])
                .await?;
            Ok(row.as_ref().map(read_disclosure))
        })
        .await
    }

    async fn disclosures_since(&self, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move {
            let row = pool
                .get()
                .await?
                .query_one(
                    "SELECT COUNT(*), MIN(created_at) FROM disclosures WHERE subject = $1 AND created_at >= $2",
                    &[&subject, &since],
                )
                .await?;
            Ok((row.get::<_, i64>(0).max(0) as u64, row.get(1)))
        })
        .await
    }

    async fn disclosure(&self, id: &str) -> Result<Option<DisclosureRecord>, ServerError> {
        let id = id.to_string();
        self.run(move |pool| async move {
            let row = pool
                .get()
                .await?
                .query_opt(&format!("SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE id = $1"), &[&id])
                .await?;
            Ok(row.as_ref().map(read_disclosure))
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
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // One reservation of a subject's at a time, whichever server makes it: what it reads as used stays so.
            lock(&tx, "allowance", &reservation.subject).await?;
            let own = tx
                .query_opt("SELECT staging, image_editing FROM allowances WHERE subject = $1", &[&reservation.subject])
                .await?
                .map(|row| SubjectAllowance::from_stored(row.get(0), row.get(1)))
                .unwrap_or_default();
            let mut reached = Vec::new();
            for (kind, photos) in reservation.cost.parts() {
                let Some(limit) = own.get(kind).limit(defaults.get(kind)) else { continue };
                let row = tx
                    .query_one(
                        "SELECT COALESCE(SUM(amount), 0)::BIGINT FROM ledger \
                         WHERE subject = $1 AND kind = $2 AND at >= $3",
                        &[&reservation.subject, &kind.as_str(), &period_start],
                    )
                    .await?;
                let used = row.get::<_, i64>(0).max(0) as u64;
                if used + photos > limit {
                    return Ok(Reserved::Refused { kind, used, limit });
                }
                reached.extend(LevelReached::by_charge(kind, used, photos, limit));
            }
            for (kind, photos) in reservation.cost.parts() {
                tx.execute(
                    "INSERT INTO ledger (reservation, subject, kind, amount, at, what) VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &reservation.id,
                        &reservation.subject,
                        &kind.as_str(),
                        &(photos as i64),
                        &reservation.at,
                        &reservation.what,
                    ],
                )
                .await?;
            }
            for level in &reached {
                outbox::enqueue(&tx, &reports(level)).await?;
            }
            tx.commit().await?;
            Ok(Reserved::Charged { reached })
        })
        .await
    }

    async fn settle(&self, reservation: &str, render_ids: &[String]) -> Result<(), ServerError> {
        let (reservation, render_ids) = (reservation.to_string(), render_ids.join(","));
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute("UPDATE ledger SET render_ids = $1 WHERE reservation = $2", &[&render_ids, &reservation])
                .await?;
            Ok(())
        })
        .await
    }

    async fn refund(&self, reservation: &str, why: &str, at: i64) -> Result<(), ServerError> {
        let (reservation, why) = (reservation.to_string(), why.to_string());
        self.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            lock(&tx, "refund", &reservation).await?;
            tx.execute(
                "INSERT INTO ledger (reservation, subject, kind, amount, render_ids, at, what) \
                 SELECT reservation, subject, kind, -amount, render_ids, $2, $3 FROM ledger \
                 WHERE reservation = $1 AND amount > 0 \
                 AND NOT EXISTS (SELECT 1 FROM ledger WHERE reservation = $1 AND amount < 0)",
                &[&reservation, &at, &why],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn charge_of_render(&self, render_id: &str) -> Result<Option<String>, ServerError> {
        let render_id = render_id.to_string();
        self.run(move |pool| async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT reservation FROM ledger WHERE render_ids = $1 AND amount > 0 LIMIT 1", &[&render_id])
                .await?;
            Ok(row.map(|row| row.get(0)))
        })
        .await
    }

    async fn set_allowance(&self, subject: &str, allowance: SubjectAllowance) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.run(move |pool| async move {
            pool.get()
                .await?
                .execute(
                    "INSERT INTO allowances (subject, staging, image_editing, set_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (subject) DO UPDATE SET staging = $2, image_editing = $3, set_at = $4",
                    &[
                        &subject,
                        &allowance.staging.stored(),
                        &allowance.image_editing.stored(),
                        &vstage_api::time::now_millis(),
                    ],
                )
                .await?;
            Ok(())
        })
        .await
    }

    async fn allowances(&self, subject: Option<&str>) -> Result<Vec<(String, SubjectAllowance)>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(
                    "SELECT subject, staging, image_editing FROM allowances \
                     WHERE $1::TEXT IS NULL OR subject = $1 ORDER BY subject",
                    &[&subject],
                )
                .await?;
            Ok(rows.iter().map(|row| (row.get(0), SubjectAllowance::from_stored(row.get(1), row.get(2)))).collect())
        })
        .await
    }

    async fn ledger(&self, subject: Option<&str>, from: i64, to: i64) -> Result<Vec<LedgerRow>, ServerError> {
        let subject = subject.map(str::to_string);
        self.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(
                    "SELECT subject, kind, amount, render_ids, at, what, reservation FROM ledger \
                     WHERE ($1::TEXT IS NULL OR subject = $1) AND at >= $2 AND at < $3 ORDER BY at, seq",
                    &[&subject, &from, &to],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|row| LedgerRow {
                    subject: row.get(0),
                    kind: UsageKind::parse(row.get(1)).unwrap_or(UsageKind::Staging),
                    amount: row.get(2),
                    render_ids: row.get(3),
                    at: row.get(4),
                    what: row.get(5),
                    reservation: row.get(6),
                })
                .collect())
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
        self.run(move |pool| async move {
            let limit = i64::from(limit);
            let rows = pool
                .get()
                .await?
                .query(
                    &format!(
                        "SELECT {DISCLOSURE_COLUMNS} FROM disclosures WHERE ($1::TEXT IS NULL OR subject = $1) \
                         AND ($3::BIGINT IS NULL OR created_at < $3 OR (created_at = $3 AND id > $4::TEXT)) \
                         ORDER BY created_at DESC, id LIMIT $2"
                    ),
                    &[&subject, &limit, &at, &id],
                )
                .await?;
            Ok(rows.iter().map(read_disclosure).collect())
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
     style, furniture_removed, profile, lang, photo_file, original_file";

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
    }
}

/// How long `event_feed` waits for its feed to listen before handing it over anyway.
const FEED_READY: Duration = Duration::from_secs(30);

/// Listens on `CHANNEL` on a connection of its own and sends each announced event (read by its id) to `sender`,
/// for as long as anyone receives. A lost connection is made again after a second and said in the log; what was
/// stored meanwhile (after the newest event sent) is read from the log and sent then, so the streams miss nothing.
/// `first_listen` is told once, when the first LISTEN is acknowledged.
async fn feed_events(
    config: tokio_postgres::Config,
    pool: Pool,
    sender: tokio::sync::mpsc::Sender<StoredEvent>,
    first_listen: tokio::sync::oneshot::Sender<()>,
) {
    let mut first_listen = Some(first_listen);
    let mut newest_sent: Option<i64> = None;
    let send = async |event: StoredEvent, newest_sent: &mut Option<i64>| {
        *newest_sent = Some(newest_sent.map_or(event.id, |newest| newest.max(event.id)));
        sender.send(event).await.is_ok()
    };
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
                    if let Some(tell) = first_listen.take() {
                        let _ = tell.send(());
                    }
                    // Listening again: what was stored while nobody listened.
                    if let Some(after) = newest_sent {
                        match events_after(&pool, after).await {
                            Ok(missed) => {
                                for event in missed {
                                    if !send(event, &mut newest_sent).await {
                                        return;
                                    }
                                }
                            }
                            Err(error) => tracing::warn!(%error, "the events stored meanwhile could not be read"),
                        }
                    }
                }
                message = messages.next() => match message {
                    Some(Ok(AsyncMessage::Notification(notification))) => {
                        let Ok(id) = notification.payload().parse::<i64>() else { continue };
                        match event_by_id(&pool, id).await {
                            Ok(Some(event)) => {
                                if !send(event, &mut newest_sent).await {
                                    return;
                                }
                            }
                            Ok(None) => {}
                            Err(error) => tracing::warn!(%error, id, "an announced event could not be read"),
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

/// The owned events after `after`, in order (as many as a stream would replay).
async fn events_after(pool: &Pool, after: i64) -> Result<Vec<StoredEvent>, ServerError> {
    let rows = pool
        .get()
        .await?
        .query(
            "SELECT id, subject, event_type, data FROM events WHERE id > $1 AND subject <> '' ORDER BY id LIMIT 1000",
            &[&after],
        )
        .await?;
    Ok(rows.iter().map(read_event).collect())
}

async fn event_by_id(pool: &Pool, id: i64) -> Result<Option<StoredEvent>, ServerError> {
    let row =
        pool.get().await?.query_opt("SELECT id, subject, event_type, data FROM events WHERE id = $1", &[&id]).await?;
    Ok(row.as_ref().map(read_event))
}
