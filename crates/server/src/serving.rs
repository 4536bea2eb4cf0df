//! Serving the app on one single-threaded runtime per worker thread (one per core by default), all accepting from
//! the one listening socket, as nginx runs a worker per core: a call, its upstream request and its answer stay on
//! one thread, with no hand-off between threads. Each worker builds its own router (and with it its own connection
//! pool to the service); what the routes share (the database, live events, secrets) is shared through `Arc`s.

use std::future::Future;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

/// Builds one worker's router; called once on each worker's thread.
pub type AppFactory = Arc<dyn Fn() -> anyhow::Result<Router> + Send + Sync>;

/// How many workers to run when not told: one per core the process may use.
pub fn default_workers() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// Serves `app` on `listener` with `workers` threads until `stopping` completes, then lets every worker finish
/// its connections (graceful shutdown) and returns. A worker that fails stops the others and is the error.
pub async fn serve(
    listener: TcpListener,
    workers: NonZeroUsize,
    app: AppFactory,
    stopping: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let listener = listener.into_std().context("cannot hand the listening socket to the workers")?;
    let (stop, stop_requested) = watch::channel(false);
    let (ended, mut worker_ends) = mpsc::unbounded_channel();
    for index in 0..workers.get() {
        // A duplicate of the one socket: every worker waits for connections, one of them accepts each.
        let listener = listener.try_clone().context("cannot share the listening socket with a worker")?;
        let (app, stop_requested, ended) = (app.clone(), stop_requested.clone(), ended.clone());
        std::thread::Builder::new()
            .name(format!("vstage-worker-{index}"))
            .spawn(move || {
                let result = run_worker(listener, &app, stop_requested);
                let _ = ended.send(result.with_context(|| format!("worker {index}")));
            })
            .context("cannot start a worker thread")?;
    }
    drop(ended);

    let mut first_failure = tokio::select! {
        () = stopping => None,
        ended = worker_ends.recv() => ended.and_then(Result::err),
    };
    let _ = stop.send(true);
    // Every worker reports once; a closed channel means all have.
    while let Some(result) = worker_ends.recv().await {
        if let Err(error) = result {
            first_failure.get_or_insert(error);
        }
    }
    first_failure.map_or(Ok(()), Err)
}

/// One worker: its own runtime on this thread, its own router, the shared socket.
fn run_worker(
    listener: std::net::TcpListener,
    app: &AppFactory,
    mut stop_requested: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let app = app()?;
        let listener = TcpListener::from_std(listener)?.tap_io(|tcp| {
            // Answers go out as soon as they are written (no Nagle delay on small responses and event lines).
            if let Err(error) = tcp.set_nodelay(true) {
                tracing::debug!(%error, "could not set TCP_NODELAY");
            }
        });
        let stopped = async move {
            let _ = stop_requested.wait_for(|stop| *stop).await;
        };
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(stopped)
            .await
            .context("serving")
    })
}
