//! Serving the app on worker threads (one per core by default), each with its own single-threaded runtime, as
//! nginx runs a worker per core: a call, its upstream request and its answer stay on one thread, with no hand-off
//! between threads. One acceptor deals the connections out in turn, at most `max_connections` open at once and at
//! most `per_address` from one client address; each worker serves its connections with hyper's HTTP/1 directly
//! and hands every request to its own copy of the app. Every connection has deadlines: for a request's headers
//! (which is also how long it may sit idle between requests) and for each write of an answer (a client that stops
//! reading loses its connection, and its answer's work stops with it), and a least rate for its request bodies and
//! answers once they wait (`min_rate`).

pub mod body_deadline;
pub mod min_rate;
pub mod shutdown;
#[cfg(test)]
mod tests;

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroUsize;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, anyhow};
use axum::extract::ConnectInfo;
use axum::response::Response;
use axum::serve::Listener;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tower::ServiceExt;

use crate::access::cap::{Cap, Slot};
use crate::error::ServerError;
use min_rate::{MinRate, PacedWrites};

/// What each worker serves: any service that answers every request (an axum `Router`, usually), made once on
/// each worker's thread by the factory `serve` is given.
pub trait App:
    tower::Service<axum::extract::Request, Response = Response, Error = Infallible, Future: Send + 'static>
    + Clone
    + Send
    + 'static
{
}

/// Makes one worker's app; called once on each worker's thread.
pub type AppFactory<A> = Arc<dyn Fn() -> anyhow::Result<A> + Send + Sync>;

impl<S> App for S where
    S: tower::Service<axum::extract::Request, Response = Response, Error = Infallible, Future: Send + 'static>
        + Clone
        + Send
        + 'static
{
}

/// A connection handed to a worker: the socket (taken off the acceptor's runtime), the peer's address, and its
/// places under the connection caps, given back when the connection ends.
type Handover = (std::net::TcpStream, SocketAddr, Places);

/// A connection's place under the cap of all connections and under its address's.
type Places = (OwnedSemaphorePermit, Option<Slot>);

/// How many workers to run when not told: one per core the process may use.
pub fn default_workers() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// How connections are served.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Worker threads.
    pub workers: NonZeroUsize,
    /// How long a client may take to send a request's headers, from when the connection is ready for them (so
    /// also how long a kept-alive connection may sit idle); `None` for no limit.
    pub header_timeout: Option<Duration>,
    /// How long one write of an answer may wait for the client to take bytes; `None` for no limit.
    pub send_timeout: Option<Duration>,
    /// Connections open at once; beyond it the acceptor waits, and new ones queue in the system's backlog.
    pub max_connections: usize,
    /// The least a request body or an answer must move in a window once it waits; `None` for no least.
    pub min_rate: Option<MinRate>,
    /// Whether requests carry the address they come from (`ConnectInfo<SocketAddr>`), for an app that reads it.
    pub with_peer: bool,
}

/// Connections one client address may hold at once, but for the addresses that carry many clients.
#[derive(Debug, Clone)]
pub struct PerAddress {
    pub cap: Arc<Cap>,
    pub trusted_proxies: Arc<[IpAddr]>,
}

impl PerAddress {
    /// A place for one more connection from `peer` (counted with its network's, `addresses::client_network`);
    /// `None` for a trusted proxy; refused when it holds its cap.
    fn enter(&self, peer: &SocketAddr) -> Result<Option<Slot>, ServerError> {
        let ip = peer.ip().to_canonical();
        if self.trusted_proxies.contains(&ip) {
            return Ok(None);
        }
        self.cap.enter(&crate::addresses::client_network(ip).to_string()).map(Some)
    }
}

/// What a connection over its address's cap is told before it is closed.
const TOO_MANY_CONNECTIONS: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\nconnection: close\r\nretry-after: 1\r\n\
    content-type: text/plain; charset=utf-8\r\ncontent-length: 67\r\n\r\n\
    Too many connections from this address; close some and try again.\r\n";

/// Serves `app` on `listener` with `options.workers` threads until `stopping` completes, then stops accepting,
/// lets every worker finish its connections (graceful shutdown) and returns. A worker that fails stops the
/// others and is the error.
pub async fn serve<A: App>(
    mut listener: TcpListener,
    options: Options,
    per_address: Option<PerAddress>,
    app: AppFactory<A>,
    stopping: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let workers = options.workers;
    let (stop, stop_requested) = watch::channel(false);
    let (ended, mut worker_ends) = mpsc::unbounded_channel();
    let mut handovers = Vec::with_capacity(workers.get());
    for index in 0..workers.get() {
        let (handover, connections) = mpsc::unbounded_channel();
        handovers.push(handover);
        let listener = WorkerConnections { connections };
        let (app, stop_requested, ended) = (app.clone(), stop_requested.clone(), ended.clone());
        std::thread::Builder::new()
            .name(format!("vstage-worker-{index}"))
            .spawn(move || {
                let run = || run_worker(listener, &*app, options, stop_requested);
                let result =
                    std::panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| Err(anyhow!("it panicked")));
                let _ = ended.send(result.with_context(|| format!("worker {index}")));
            })
            .context("cannot start a worker thread")?;
    }
    drop(ended);

    let places = Arc::new(Semaphore::new(options.max_connections));
    let accepting = async {
        for handover in handovers.iter().cycle() {
            let Ok(place) = places.clone().acquire_owned().await else { break };
            // axum's accept logs and waits out errors such as too many open files.
            let (stream, peer) = Listener::accept(&mut listener).await;
            let address_place = match per_address.as_ref().map(|cap| cap.enter(&peer)).transpose() {
                Ok(place) => place.flatten(),
                Err(_) => {
                    // Said without waiting: a client that does not read this is closed all the same.
                    let _ = stream.try_write(TOO_MANY_CONNECTIONS);
                    tracing::debug!(%peer, "refused a connection over its address's cap");
                    continue;
                }
            };
            // Answers go out as soon as they are written (no Nagle delay on small responses and event lines).
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "could not set TCP_NODELAY");
            }
            match stream.into_std() {
                Ok(stream) => {
                    if handover.send((stream, peer, (place, address_place))).is_err() {
                        return anyhow!("a worker stopped taking connections");
                    }
                }
                Err(error) => tracing::warn!(%error, "could not hand a connection to a worker"),
            }
        }
        anyhow!("no workers")
    };
    let mut first_failure = tokio::select! {
        () = stopping => None,
        failure = accepting => Some(failure),
        ended = worker_ends.recv() => ended.and_then(Result::err),
    };
    drop(listener);
    let _ = stop.send(true);
    // Every worker reports once; a closed channel means all have.
    while let Some(result) = worker_ends.recv().await {
        if let Err(error) = result {
            first_failure.get_or_insert(error);
        }
    }
    first_failure.map_or(Ok(()), Err)
}

/// One worker: its own runtime on this thread, its own app, the connections the acceptor hands it.
fn run_worker<A: App>(
    mut listener: WorkerConnections,
    app: &(dyn Fn() -> anyhow::Result<A> + Send + Sync),
    options: Options,
    mut stop_requested: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build()?;
    runtime.block_on(async move {
        let app = app()?;
        tokio::spawn(keep_timers_armed());
        let mut http = http1::Builder::new();
        http.timer(TokioTimer::new()).header_read_timeout(options.header_timeout);
        let connections = GracefulShutdown::new();
        loop {
            let (stream, peer, place) = tokio::select! {
                handed = listener.accept() => handed,
                _ = stop_requested.wait_for(|stop| *stop) => break,
            };
            let app = app.clone();
            let (rate, with_peer) = (options.min_rate, options.with_peer);
            let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
                let mut request = min_rate::pace_body(request.map(axum::body::Body::new), rate);
                if with_peer {
                    request.extensions_mut().insert(ConnectInfo(peer));
                }
                app.clone().oneshot(request)
            });
            let unsent = min_rate::Unsent::of(&stream);
            let stream = PacedWrites::new(stream, unsent, rate, options.send_timeout);
            let connection = connections.watch(http.serve_connection(TokioIo::new(stream), service));
            tokio::spawn(async move {
                if let Err(error) = connection.await {
                    tracing::debug!(%error, "a connection ended with an error");
                }
                drop(place);
            });
        }
        // Open connections finish the call in hand; idle ones close.
        connections.shutdown().await;
        Ok(())
    })
}

/// Keeps a timer due within the second on this worker. Every call has a time-out, usually far later than that:
/// without a sooner timer, each new one would be the earliest and wake the runtime's event loop through its
/// eventfd (a system call and an extra turn of the loop per call); behind this tick, registering one is enough.
async fn keep_timers_armed() {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
    }
}

/// A worker's side of the acceptor: connections arrive on a channel instead of from a socket.
struct WorkerConnections {
    connections: mpsc::UnboundedReceiver<Handover>,
}

impl WorkerConnections {
    async fn accept(&mut self) -> (TcpStream, SocketAddr, Places) {
        loop {
            let Some((stream, peer, place)) = self.connections.recv().await else {
                // The acceptor has stopped; the stop request ends this worker.
                return std::future::pending().await;
            };
            match TcpStream::from_std(stream) {
                Ok(stream) => return (stream, peer, place),
                Err(error) => tracing::warn!(%error, "a worker could not take a connection"),
            }
        }
    }
}
