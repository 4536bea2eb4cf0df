//! The sandbox: a local implementation of the service's contract (`shared/API.md`), served over real HTTP.
//! It is to the real service what a payment provider's test mode is to live mode: same contract, same key check.

mod accounts;
mod auth;
mod error;
mod v2;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use tokio::net::TcpListener;

pub use accounts::{Account, Accounts};
pub use error::SandboxError;

/// How a sandbox is set up.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// One account per key.
    pub api_keys: Vec<String>,
    /// Photos each account may process per period, for each kind (staging, image editing).
    pub photo_limit: u64,
}

impl SandboxConfig {
    pub const DEFAULT_PHOTO_LIMIT: u64 = 100;

    pub fn new(api_keys: Vec<String>) -> Self {
        SandboxConfig { api_keys, photo_limit: Self::DEFAULT_PHOTO_LIMIT }
    }
}

/// What every handler shares.
#[derive(Debug)]
struct SandboxState {
    accounts: Accounts,
}

/// The sandbox's routes: v2 under `/v2`.
pub fn router(config: &SandboxConfig) -> Result<Router, SandboxError> {
    let state = Arc::new(SandboxState { accounts: Accounts::new(&config.api_keys, config.photo_limit)? });
    Ok(Router::new().nest("/v2", v2::routes()).fallback(error::not_found).with_state(state))
}

/// A sandbox serving on a loopback port of its own, for embedding in `vstage serve` and for tests.
#[derive(Debug)]
pub struct RunningSandbox {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl RunningSandbox {
    /// The base URL under which `/v2` lives, e.g. `http://127.0.0.1:40123`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for RunningSandbox {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves the sandbox on `listener` until the returned handle is dropped.
pub fn spawn(listener: TcpListener, config: &SandboxConfig) -> Result<RunningSandbox, SandboxError> {
    let addr = listener.local_addr().map_err(|e| SandboxError::Startup(e.to_string()))?;
    let app = router(config)?;
    let task = tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            tracing::error!(%error, "the sandbox stopped serving");
        }
    });
    Ok(RunningSandbox { addr, task })
}
