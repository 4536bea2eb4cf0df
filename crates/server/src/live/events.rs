//! Live events: verified webhook deliveries, stored with an id and fanned out to the subject's `GET /api/events`
//! streams (Server-Sent Events) with `Last-Event-ID` resume, keep-alive comments and a cap on streams per subject.
//! A stream ends when its token expires (`token_expired`); a resume the kept log cannot serve says `reset`. With a
//! database other servers share, every stored event reaches this server's streams through the database's feed.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime};

use axum::Extension;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use futures_util::StreamExt;
use serde::Deserialize;
use tokio::sync::broadcast;

use crate::access::Subject;
use crate::access::cap::{Cap, Slot};
use crate::error::ServerError;
use crate::host_webhooks::HostWebhooks;
use crate::metrics::metrics;
pub use crate::storage::store::StoredEvent;
use crate::storage::store::{ClaimReporter, Delivery, LogBounds, Store};

/// The stream's own events, beside the service's: events were missed (read everything again), and the token
/// expired (connect again). The service's deliveries never go under these names (`webhooks::event_name`).
const RESET: &str = "reset";
const TOKEN_EXPIRED: &str = "token_expired";
pub(crate) const OWN_EVENTS: [&str; 2] = [RESET, TOKEN_EXPIRED];

/// The most events one resume replays; a client further behind is told to `reset`.
const REPLAY_LIMIT: i64 = 1000;

#[derive(Debug)]
pub struct Events {
    store: Arc<dyn Store>,
    live: broadcast::Sender<Arc<StoredEvent>>,
    /// Streams open per subject.
    streams: Arc<Cap>,
    keep_alive: Duration,
    /// How long events are kept for clients that resume (`--event-window-s`).
    window: Duration,
    /// Set when the server stops, so open streams end and graceful shutdown can finish.
    closing: tokio::sync::watch::Sender<bool>,
    /// Told of a failed variation whose event waited for its owner, once the owner claims it.
    host_webhooks: Option<Arc<HostWebhooks>>,
    /// The newest event this server has sent to streams (or found in the log at its first use); -1 before.
    newest: AtomicI64,
    /// Held from storing events to announcing them, when this server alone writes the log: streams hear the events
    /// in the order of their ids (the order they were stored), so one that is past an id has heard every id before.
    /// (A shared log's feed brings them in that order already.)
    in_order: tokio::sync::Mutex<()>,
}

impl Events {
    /// The server's live events over `store`; when other servers share the store, what any of them stores
    /// reaches this one's streams through the store's feed.
    pub fn new(
        store: Arc<dyn Store>,
        max_streams_per_subject: usize,
        (keep_alive, window): (Duration, Duration),
        host_webhooks: Option<Arc<HostWebhooks>>,
    ) -> Arc<Self> {
        let (live, _) = broadcast::channel(1024);
        let (closing, _) = tokio::sync::watch::channel(false);
        let streams = Cap::new(max_streams_per_subject, 30);
        let newest = AtomicI64::new(-1);
        let in_order = tokio::sync::Mutex::new(());
        let events =
            Arc::new(Events { store, live, streams, keep_alive, window, closing, host_webhooks, newest, in_order });
        if events.store.is_shared() {
            tokio::spawn(events.clone().relay_feed());
        }
        events
    }

    /// Sends what the shared store announces to this server's streams, until the server stops.
    async fn relay_feed(self: Arc<Self>) {
        let feed = match self.store.event_feed().await {
            Ok(Some(feed)) => feed,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(%error, "live events from other servers cannot be followed");
                return;
            }
        };
        let mut closing = self.closing.subscribe();
        let mut feed = std::pin::pin!(feed.take_until(async move {
            let _ = closing.wait_for(|closing| *closing).await;
        }));
        while let Some(event) = feed.next().await {
            self.broadcast(event);
        }
    }

    /// Ends every open stream (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// How long events are kept for clients that resume.
    pub fn window(&self) -> Duration {
        self.window
    }

    /// Stores a verified delivery as an event (`None` for a duplicate) and sends it to its subject's open streams;
    /// with a shared store, the store's feed sends it (to the streams on every server, this one's included).
    pub async fn receive(&self, delivery: Delivery) -> Result<Option<StoredEvent>, ServerError> {
        let _in_order = self.in_order.lock().await;
        let stored = self.store.receive_delivery(delivery).await?;
        if let Some(event) = stored.as_ref() {
            self.announce(event.clone());
        }
        Ok(stored)
    }

    fn announce(&self, event: StoredEvent) {
        if !self.store.is_shared() {
            self.broadcast(event);
        }
    }

    fn broadcast(&self, event: StoredEvent) {
        self.newest.fetch_max(event.id, Ordering::AcqRel);
        if !event.subject.is_empty() {
            // No receiver is fine: nobody is watching right now, and the event waits in the log.
            let _ = self.live.send(Arc::new(event));
        }
    }

    /// Gives `subject` the events that arrived about `resources` before their owner was recorded, reporting to the
    /// host's webhooks, in the same transaction, the failures among them.
    pub async fn claim(&self, resources: Vec<String>, subject: &str) -> Result<(), ServerError> {
        let reported = self.host_webhooks.clone().map(|hooks| {
            let now = vstage_api::time::now_millis();
            Arc::new(move |event: &StoredEvent| hooks.claimed_event(event, now)) as Arc<ClaimReporter>
        });
        let in_order = self.in_order.lock().await;
        let claimed = self.store.claim_events(&resources, subject, reported).await?;
        let any = !claimed.is_empty();
        claimed.into_iter().for_each(|event| self.announce(event));
        drop(in_order);
        if let Some(hooks) = self.host_webhooks.as_ref().filter(|_| any) {
            hooks.wake();
        }
        Ok(())
    }

    /// The newest event this server has sent to its streams: every event up to it is about a change the service
    /// made before now, so what a caller reads from now on shows it, and a stream opened with this id as
    /// `last_event_id` brings every event after it. (With a shared database it may lag the database's newest: the
    /// stream then brings a few events more, never fewer.) The answers of `GET /api/usage`, which the studio reads
    /// as it starts, carry it as `Vstage-Event-Id`.
    pub async fn newest(&self) -> Result<i64, ServerError> {
        let known = self.newest.load(Ordering::Acquire);
        if known >= 0 {
            return Ok(known);
        }
        let newest = self.log_bounds().await?.newest.max(0);
        Ok(self.newest.fetch_max(newest, Ordering::AcqRel).max(newest))
    }

    async fn since(&self, subject: &str, after: i64) -> Result<Vec<StoredEvent>, ServerError> {
        self.store.events_since(subject, after, REPLAY_LIMIT).await
    }

    async fn log_bounds(&self) -> Result<LogBounds, ServerError> {
        self.store.event_log_bounds().await
    }
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
    // An id this server never gave (not a number) resumes from nothing it has: the stream says to start again.
    let resume_from = match headers.get("last-event-id") {
        Some(value) => Some(value.to_str().ok().and_then(|value| value.trim().parse::<i64>().ok()).unwrap_or(-1)),
        None => query.last_event_id,
    };
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
                backlog.push_back(ToSend::Reset { newest: bounds.newest });
                bounds.newest
            } else {
                backlog.extend(missed.into_iter().map(ToSend::Event));
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
    let state = StreamState {
        events,
        subject,
        _slot: slot,
        _counted: Counted::open(),
        live,
        closing,
        expires,
        backlog,
        last_sent,
        ended: false,
    };
    let stream = futures_util::stream::unfold(state, next_event);
    Ok(Sse::new(stream).keep_alive(keep_alive))
}

/// What a stream sends besides keep-alive comments.
enum ToSend {
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
    _counted: Counted,
    live: broadcast::Receiver<Arc<StoredEvent>>,
    closing: tokio::sync::watch::Receiver<bool>,
    /// When the stream's token expires.
    expires: Option<tokio::time::Instant>,
    backlog: VecDeque<ToSend>,
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
                ToSend::Event(event) => {
                    state.last_sent = event.id;
                    to_sse(&event)
                }
                ToSend::Reset { newest } => Event::default()
                    .id(newest.to_string())
                    .event(RESET)
                    .data(r#"{"message":"Some live events were missed and are no longer kept; reload."}"#),
                ToSend::TokenExpired => {
                    state.ended = true;
                    Event::default()
                        .event(TOKEN_EXPIRED)
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
                state.backlog.push_back(ToSend::TokenExpired);
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
                    VecDeque::from([ToSend::Reset { newest }])
                } else {
                    missed.into_iter().map(ToSend::Event).collect()
                };
            }
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// One of the server's open streams, counted in the metrics while it lives.
struct Counted;

impl Counted {
    fn open() -> Counted {
        metrics().event_streams_open.inc();
        Counted
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        metrics().event_streams_open.dec();
    }
}

/// An event as a stream sends it (and counted as sent).
fn to_sse(event: &StoredEvent) -> Event {
    metrics().events_sent.inc();
    Event::default().id(event.id.to_string()).event(&event.event_type).data(&event.data)
}

/// Through the whole app, in-process.
#[cfg(test)]
mod tests;
