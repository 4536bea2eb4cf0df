//! Live events: verified webhook deliveries, stored with an id and fanned out to the subject's `GET /api/events`
//! streams (Server-Sent Events) with `Last-Event-ID` resume, keep-alive comments and a cap on streams per subject.
//! A stream ends when its token expires (`token_expired`); a resume the kept log cannot serve says `reset`.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::Extension;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use rusqlite::{Connection, params};
use serde::Deserialize;
use tokio::sync::broadcast;
use vstage_api::time::now_millis;

use crate::access::Subject;
use crate::access::cap::{Cap, Slot};
use crate::error::ServerError;
use crate::storage::db::Db;

/// The most events one resume replays; a client further behind is told to `reset`.
const REPLAY_LIMIT: i64 = 1000;

/// One stored event.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub id: i64,
    pub subject: String,
    pub event_type: String,
    /// The webhook's JSON, as the service sent it.
    pub data: String,
}

#[derive(Debug)]
pub struct Events {
    db: Db,
    live: broadcast::Sender<Arc<StoredEvent>>,
    /// Streams open per subject.
    streams: Arc<Cap>,
    keep_alive: Duration,
    /// How long events are kept for clients that resume (`--event-window-s`).
    window: Duration,
    /// Set when the server stops, so open streams end and graceful shutdown can finish.
    closing: tokio::sync::watch::Sender<bool>,
}

impl Events {
    pub fn new(db: Db, max_streams_per_subject: usize, keep_alive: Duration, window: Duration) -> Arc<Self> {
        let (live, _) = broadcast::channel(1024);
        let (closing, _) = tokio::sync::watch::channel(false);
        let streams = Cap::new(max_streams_per_subject, 30);
        Arc::new(Events { db, live, streams, keep_alive, window, closing })
    }

    /// Ends every open stream (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Stores an event inside the caller's transaction, and drops those older than the window; `subject` is `""`
    /// while its owner is unknown.
    pub fn insert(
        &self,
        db: &Connection,
        subject: &str,
        resource: &str,
        event_type: &str,
        data: &str,
    ) -> rusqlite::Result<StoredEvent> {
        let now = now_millis();
        db.execute(
            "INSERT INTO events (subject, resource, event_type, data, received_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![subject, resource, event_type, data, now],
        )?;
        let id = db.last_insert_rowid();
        // Indexed by time: usually an empty range.
        let window = i64::try_from(self.window.as_millis()).unwrap_or(i64::MAX);
        db.execute("DELETE FROM events WHERE received_at < ?1", [now.saturating_sub(window)])?;
        Ok(StoredEvent { id, subject: subject.into(), event_type: event_type.into(), data: data.into() })
    }

    /// Sends a stored event to its subject's open streams.
    pub fn announce(&self, event: StoredEvent) {
        if !event.subject.is_empty() {
            // No receiver is fine: nobody is watching right now, and the event waits in the log.
            let _ = self.live.send(Arc::new(event));
        }
    }

    /// Gives `subject` the events that arrived about `resources` before their owner was recorded.
    pub async fn claim(&self, resources: Vec<String>, subject: &str) -> Result<(), ServerError> {
        let subject = subject.to_string();
        let claimed = self
            .db
            .run(move |db| {
                let mut claimed = Vec::new();
                let mut statement = db.prepare(
                    "UPDATE events SET subject = ?1 WHERE subject = '' AND resource = ?2
                     RETURNING id, subject, event_type, data",
                )?;
                for resource in &resources {
                    let rows = statement.query_map(params![subject, resource], read_event)?;
                    claimed.extend(rows.collect::<Result<Vec<_>, _>>()?);
                }
                claimed.sort_by_key(|event| event.id);
                Ok(claimed)
            })
            .await?;
        claimed.into_iter().for_each(|event| self.announce(event));
        Ok(())
    }

    async fn since(&self, subject: &str, after: i64) -> Result<Vec<StoredEvent>, ServerError> {
        let subject = subject.to_string();
        self.db
            .run(move |db| {
                let mut statement = db.prepare(
                    "SELECT id, subject, event_type, data FROM events WHERE subject = ?1 AND id > ?2
                     ORDER BY id LIMIT ?3",
                )?;
                let events = statement.query_map(params![subject, after, REPLAY_LIMIT], read_event)?;
                Ok(events.collect::<Result<_, _>>()?)
            })
            .await
    }

    /// The newest event id ever given, where a client without `Last-Event-ID` starts, and the newest one dropped
    /// from the log (every id up to it is gone): a client that saw less than that has missed events.
    async fn log_bounds(&self) -> Result<LogBounds, ServerError> {
        self.db
            .run(|db| {
                // AUTOINCREMENT ids are never reused: below the smallest kept id, all were dropped; with none kept,
                // all up to the last one given were.
                let given: i64 = db.query_row(
                    "SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence WHERE name = 'events'",
                    [],
                    |row| row.get(0),
                )?;
                let oldest_kept: Option<i64> = db.query_row("SELECT MIN(id) FROM events", [], |row| row.get(0))?;
                Ok(LogBounds { newest: given, dropped_through: oldest_kept.map_or(given, |oldest| oldest - 1) })
            })
            .await
    }
}

struct LogBounds {
    newest: i64,
    dropped_through: i64,
}

fn read_event(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredEvent> {
    Ok(StoredEvent { id: row.get(0)?, subject: row.get(1)?, event_type: row.get(2)?, data: row.get(3)? })
}

#[derive(Debug, Deserialize)]
pub struct StreamQuery {
    /// For clients that cannot set the `Last-Event-ID` header on a first connection.
    last_event_id: Option<i64>,
}

/// `GET /api/events`.
pub async fn stream(
    State(events): State<Arc<Events>>,
    Extension(subject): Extension<Subject>,
    Query(query): Query<StreamQuery>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ServerError> {
    let slot = events.streams.enter(subject.as_str())?;
    let resume_from = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<i64>().ok())
        .or(query.last_event_id);
    // Subscribe before reading the log, so nothing falls between the two.
    let live = events.live.subscribe();
    let bounds = events.log_bounds().await?;
    let mut backlog = VecDeque::new();
    let last_sent = match resume_from {
        None => bounds.newest,
        Some(after) => {
            let missed = events.since(subject.as_str(), after).await?;
            // What was missed is no longer all here (dropped, too much, or from a log since replaced): the client
            // starts again from what it reads now.
            if after < bounds.dropped_through || after > bounds.newest || missed.len() as i64 >= REPLAY_LIMIT {
                backlog.push_back(Outgoing::Reset { newest: bounds.newest });
                bounds.newest
            } else {
                backlog.extend(missed.into_iter().map(Outgoing::Event));
                after
            }
        }
    };
    let expires = subject.expires_at().map(|at| {
        let left = at.duration_since(SystemTime::now()).unwrap_or_default();
        tokio::time::Instant::now() + left
    });
    let closing = events.closing.subscribe();
    let subject = subject.as_str().to_string();
    let keep_alive = KeepAlive::new().interval(events.keep_alive).text("keep-alive");
    let state = StreamState { events, subject, _slot: slot, live, closing, expires, backlog, last_sent, ended: false };
    let stream = futures_util::stream::unfold(state, next_event);
    Ok(Sse::new(stream).keep_alive(keep_alive))
}

/// What a stream sends besides keep-alive comments.
enum Outgoing {
    Event(StoredEvent),
    /// Events this client missed are no longer kept: it reloads what it shows, then goes on from `newest`.
    Reset {
        newest: i64,
    },
    /// The token the stream was opened with has expired: the client opens another with its current token.
    TokenExpired,
}

struct StreamState {
    events: Arc<Events>,
    subject: String,
    /// The stream's place under its subject's cap, given back when the stream ends.
    _slot: Slot,
    live: broadcast::Receiver<Arc<StoredEvent>>,
    closing: tokio::sync::watch::Receiver<bool>,
    /// When the stream's token expires.
    expires: Option<tokio::time::Instant>,
    backlog: VecDeque<Outgoing>,
    last_sent: i64,
    /// `token_expired` was sent: the stream ends.
    ended: bool,
}

async fn next_event(mut state: StreamState) -> Option<(Result<Event, Infallible>, StreamState)> {
    loop {
        if state.ended {
            return None;
        }
        if let Some(outgoing) = state.backlog.pop_front() {
            let event = match outgoing {
                Outgoing::Event(event) => {
                    state.last_sent = event.id;
                    to_sse(&event)
                }
                Outgoing::Reset { newest } => Event::default()
                    .id(newest.to_string())
                    .event("reset")
                    .data(r#"{"message":"Some live events were missed and are no longer kept; reload."}"#),
                Outgoing::TokenExpired => {
                    state.ended = true;
                    Event::default()
                        .event("token_expired")
                        .data(r#"{"message":"The widget token has expired; connect again with a new one."}"#)
                }
            };
            return Some((Ok(event), state));
        }
        if *state.closing.borrow() {
            return None;
        }
        let expiry = async {
            match state.expires {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let received = tokio::select! {
            received = state.live.recv() => received,
            _ = state.closing.changed() => return None,
            () = expiry => {
                state.backlog.push_back(Outgoing::TokenExpired);
                continue;
            }
        };
        match received {
            Ok(event) if event.subject == state.subject && event.id > state.last_sent => {
                state.last_sent = event.id;
                return Some((Ok(to_sse(&event)), state));
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => {
                // Too slow for the live feed: catch up from the log.
                let events = state.events.clone();
                let missed = events.since(&state.subject, state.last_sent).await.ok()?;
                state.backlog = if missed.len() as i64 >= REPLAY_LIMIT {
                    let newest = events.log_bounds().await.ok()?.newest;
                    state.last_sent = newest;
                    VecDeque::from([Outgoing::Reset { newest }])
                } else {
                    missed.into_iter().map(Outgoing::Event).collect()
                };
            }
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

fn to_sse(event: &StoredEvent) -> Event {
    Event::default().id(event.id.to_string()).event(&event.event_type).data(&event.data)
}
