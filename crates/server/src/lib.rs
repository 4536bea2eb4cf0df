//! `vstage serve`: the backend-for-frontend between the widget and the image service (or the embedded sandbox).
//! It keeps the API key on the server, forwards an allow-list of calls and serves the widget's files.

mod capabilities;
pub mod cli;
mod proxy;
mod secret;
mod shutdown;
mod static_files;
mod upstream;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, bail};
use axum::Router;
use tokio::net::TcpListener;

use crate::cli::{Cli, Command, SandboxArgs, ServeArgs};
use crate::upstream::Upstream;

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => serve(args).await,
        Command::Sandbox(args) => sandbox(args).await,
    }
}

/// `vstage serve`.
async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    refuse_open_access_off_loopback(args.listen)?;
    let listener = bind(args.listen).await?;
    let (upstream, _embedded_sandbox) = match &args.upstream {
        Some(url) => (Upstream::remote(url, std::env::var("VSTAGE_API_KEY").ok())?, None),
        None => {
            let (upstream, running) = Upstream::embedded_sandbox(&args.data_dir).await?;
            (upstream, Some(running))
        }
    };
    let mode = upstream.mode();
    if !args.dist.join("index.html").is_file() {
        tracing::warn!(dist = %args.dist.display(), "no widget in this folder; build it with `cargo xtask run`");
    }
    let api = proxy::routes(Arc::new(upstream))?.route("/capabilities", capabilities::route(mode));
    let app = Router::new().nest("/api", api).merge(static_files::router(&args.dist));
    announce(&listener, mode)?;
    axum::serve(listener, app).with_graceful_shutdown(shutdown::signal()).await.context("serving")?;
    println!("vstage stopped");
    Ok(())
}

/// `vstage sandbox`: the sandbox alone, for direct use with an `Api-Key`.
async fn sandbox(args: SandboxArgs) -> anyhow::Result<()> {
    let listener = bind(args.listen).await?;
    let config = vstage_sandbox::SandboxConfig {
        api_keys: args.api_keys,
        photo_limit: args.photo_limit,
        data_dir: args.data_dir,
        processing_ms: args.processing_ms,
        webhook_retry_ms: args.webhook_retry_ms,
        sync_timeout: std::time::Duration::from_secs(args.sync_timeout_s),
    };
    let sandbox = vstage_sandbox::build(&config, &format!("http://{}", listener.local_addr()?))?;
    announce(&listener, "standalone sandbox")?;
    sandbox.serve(listener, shutdown::signal()).await.context("serving")?;
    Ok(())
}

/// Open access (no widget token) is safe only where nobody else can connect.
fn refuse_open_access_off_loopback(listen: SocketAddr) -> anyhow::Result<()> {
    if !listen.ip().is_loopback() {
        bail!(
            "refusing to listen on {listen}: without widget tokens anyone who reaches this address could spend the \
             account's photos. Listen on a loopback address (127.0.0.1) behind your own reverse proxy."
        );
    }
    Ok(())
}

async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}; is another program using it?"))
}

/// The line tools and tests wait for: the address actually bound (the port may have been 0).
fn announce(listener: &TcpListener, mode: &str) -> anyhow::Result<()> {
    let addr = listener.local_addr()?;
    println!("vstage listening on http://{addr} ({mode}); press Ctrl-C to stop");
    Ok(())
}
