//! `vstage serve`: lays and checks the parts (`startup`), assembles the state once (`state`), and serves every
//! worker's app (`app`) until a stop signal, then closes the live streams and finishes the requests under way.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use vstage_sandbox::RunningSandbox;

use crate::access::cap::Cap;
use crate::cli::ServeArgs;
use crate::commands::{announce, bind, say};
use crate::serving::{self, shutdown};
use crate::startup::{Secrets, ServerParts};
use crate::state::AppState;
use crate::storage::store::Store;
use crate::{app, metrics};

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    let listener = bind(args.serving.listen).await?;
    let listening = listener.local_addr()?;
    let Started { state, store, embedded_sandbox } = start(&args, listening, Secrets::from_env()).await?;
    if let Some(address) = args.serving.metrics_listen {
        serve_metrics(bind(address).await?, serving_options(&args, &state), store)?;
    }

    announce(&listener, state.proxy.upstream.mode())?;
    if state.offers_the_demo() {
        say(&format!("demo listing page with two embedded studios: http://{listening}/demo/listing.html"));
    }
    let live_events = state.proxy.events.clone();
    let stopping = async move {
        shutdown::signal().await;
        live_events.close();
    };
    let options = serving_options(&args, &state);
    let per_address = (args.limits.max_connections_per_address > 0).then(|| serving::PerAddress {
        cap: Cap::new(args.limits.max_connections_per_address, 1),
        trusted_proxies: args.access.trusted_proxies.iter().map(|ip| ip.to_canonical()).collect(),
    });
    let for_each_worker: serving::AppFactory<_> = Arc::new(move || app::build(&state));
    serving::serve(listener, options, per_address, for_each_worker, stopping).await?;
    drop(embedded_sandbox);
    say("vstage stopped");
    Ok(())
}

/// Connections the metrics' address takes at once: a scraper or two, and the operator's curl.
const METRICS_CONNECTIONS: usize = 16;

/// Serves the metrics on their own address, with the main address's deadlines and a cap of its own, until the
/// process ends.
fn serve_metrics(
    listener: tokio::net::TcpListener,
    options: serving::Options,
    store: Arc<dyn Store>,
) -> anyhow::Result<()> {
    say(&format!("vstage metrics on http://{}/metrics", listener.local_addr()?));
    let options = serving::Options {
        workers: std::num::NonZeroUsize::MIN,
        max_connections: METRICS_CONNECTIONS,
        with_peer: false,
        ..options
    };
    let app: serving::AppFactory<_> = Arc::new(move || {
        let store = store.clone();
        Ok(metrics::routes(move || store.pool_state()))
    });
    tokio::spawn(async move {
        if let Err(error) = serving::serve(listener, options, None, app, std::future::pending()).await {
            tracing::error!("the metrics' address stopped serving: {error:#}");
        }
    });
    Ok(())
}

/// A server's state, assembled as `vstage serve` assembles it, with its work in the background under way.
pub struct Started {
    pub state: Arc<AppState>,
    /// The database's store, whose pool the metrics read.
    pub store: Arc<dyn Store>,
    /// With no `--upstream`: the sandbox in this process, stopped when dropped (after the server).
    pub embedded_sandbox: Option<RunningSandbox>,
}

/// Lays and checks the parts `args` and `secrets` name (`startup`), assembles the state once, and starts what runs
/// beside the requests: removing expired uploads and kept results, and delivering the host's webhooks. `listening`
/// is the address the server answers at.
pub async fn start(args: &ServeArgs, listening: SocketAddr, secrets: Secrets) -> anyhow::Result<Started> {
    let mut parts = ServerParts::make(args, &format!("http://{listening}"), secrets).await?;
    let embedded_sandbox = parts.embedded_sandbox.take();
    let store = parts.store.clone();
    let state = Arc::new(AppState::assemble(args, parts, embedded_sandbox.is_some(), listening).await?);
    tokio::spawn(state.uploads.clone().remove_expired_forever());
    tokio::spawn(state.proxy.kept.clone().remove_expired_forever());
    if let Some(hooks) = state.proxy.host_webhooks.clone() {
        tokio::spawn(hooks.deliver_forever());
    }
    Ok(Started { state, store, embedded_sandbox })
}

/// How `args` say connections are served, for the app of `state`.
pub fn serving_options(args: &ServeArgs, state: &AppState) -> serving::Options {
    serving::Options {
        workers: args.serving.workers.unwrap_or_else(serving::default_workers),
        header_timeout: Some(Duration::from_secs(args.timeouts.header_timeout_s)).filter(|timeout| !timeout.is_zero()),
        send_timeout: Some(Duration::from_secs(args.timeouts.send_timeout_s)).filter(|timeout| !timeout.is_zero()),
        max_connections: args.limits.max_connections.max(1),
        min_rate: (args.timeouts.min_transfer_bytes > 0).then(|| serving::min_rate::MinRate {
            bytes: args.timeouts.min_transfer_bytes,
            window: Duration::from_secs(args.timeouts.transfer_window_s),
        }),
        // The caller's address is read only to limit open access per client.
        with_peer: state.proxy.gate.needs_peer(),
    }
}
