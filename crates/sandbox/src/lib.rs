//! The sandbox: a local implementation of the service's contract (`docs/service-api.md`), served over real HTTP.
//! It is to the real service what a payment provider's test mode is to live mode: same contract, same key check.

mod accounts;
mod analysis;
mod auth;
mod body;
mod clock;
mod error;
mod faults;
mod files;
mod furniture;
mod hold;
mod ids;
mod multi_view;
mod openapi;
mod renders;
mod samples;
mod source;
mod store;
mod v1;
mod v1_renders;
mod v2;
mod webhooks;
mod worker;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::http::{Method, header};
use tokio::net::TcpListener;
use tower_http::cors::{AllowHeaders, Any, CorsLayer};

use accounts::Accounts;
pub use clock::Clock;
pub use error::SandboxError;
pub use store::owner_only;

/// The largest request body the API takes: a photo of the largest size vstage allows (`MAX_PHOTO_BYTES`) as a
/// base64 `data:` URL and a mask of the same size beside it, with room for the rest of the JSON; a multipart v1
/// create with its file fits too. Public clients without hosting send photos so (superdevvs/Repro_Backend,
/// app/Services/Studio/Providers/VirtualStagingAiClient.php: `'data:image/jpeg;base64,'.base64_encode($jpeg)`).
pub const MAX_REQUEST_BYTES: usize = 2 * vstage_api::validate::MAX_PHOTO_BYTES.div_ceil(3) * 4 + 1024 * 1024;

/// How a sandbox is set up.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// One account per key.
    pub api_keys: Vec<String>,
    /// Photos each account may process per period, for each kind (staging, image editing).
    pub photo_limit: u64,
    /// Where the database and images live; `None` keeps everything in memory.
    pub data_dir: Option<PathBuf>,
    /// How long one variation takes.
    pub processing_ms: u64,
    /// The first delay between webhook retries; it doubles each time.
    pub webhook_retry_ms: u64,
    /// The longest a `wait_for_completion` request to the regular address waits.
    pub sync_timeout: std::time::Duration,
    /// The longest one to the long-running address (`/direct-sync`, the service's second server) waits.
    pub direct_sync_timeout: std::time::Duration,
    /// Addresses on this machine or a private network that photos and masks may be fetched from, as URL prefixes
    /// (e.g. `http://127.0.0.1:8080/api/uploads/`, the uploads of the `vstage serve` that embeds the sandbox).
    /// Every other address must be public; the sandbox's own samples and images are read without HTTP.
    pub local_photo_sources: Vec<String>,
    /// What the accounts' monthly periods are counted by: the system's clock, or a test's.
    pub clock: Clock,
}

impl SandboxConfig {
    pub const DEFAULT_PHOTO_LIMIT: u64 = 100;
    pub const DEFAULT_PROCESSING_MS: u64 = 1500;
    pub const DEFAULT_WEBHOOK_RETRY_MS: u64 = 2000;
    pub const DEFAULT_SYNC_TIMEOUT_S: u64 = 60;
    /// As long as `vstage serve` waits for an answer from `--direct-sync-url`.
    pub const DEFAULT_DIRECT_SYNC_TIMEOUT_S: u64 = 600;

    /// In memory, with the default limits and pace.
    pub fn new(api_keys: Vec<String>) -> Self {
        SandboxConfig {
            api_keys,
            photo_limit: Self::DEFAULT_PHOTO_LIMIT,
            data_dir: None,
            processing_ms: Self::DEFAULT_PROCESSING_MS,
            webhook_retry_ms: Self::DEFAULT_WEBHOOK_RETRY_MS,
            sync_timeout: std::time::Duration::from_secs(Self::DEFAULT_SYNC_TIMEOUT_S),
            direct_sync_timeout: std::time::Duration::from_secs(Self::DEFAULT_DIRECT_SYNC_TIMEOUT_S),
            local_photo_sources: Vec::new(),
            clock: Clock::system(),
        }
    }
}

/// What every handler and worker shares.
#[derive(Debug)]
struct SandboxState {
    accounts: Accounts,
    faults: faults::Faults,
    /// Accounts whose work waits (`/sandbox/hold`).
    held: hold::Held,
    store: store::Store,
    files: files::Files,
    fetcher: source::Fetcher,
    /// The OpenAPI document served at `/openapi.json`.
    openapi: serde_json::Value,
    samples: Vec<samples::Sample>,
    pace: renders::Pace,
    /// The sandbox's own address, for the URLs of its images.
    base_url: String,
    webhook_retry_ms: u64,
    /// Rung when variations are queued or finished, so idle workers (and waiting requests) look again.
    work_added: tokio::sync::Notify,
    /// Rung when webhook deliveries are queued.
    deliveries_added: tokio::sync::Notify,
}

/// The sandbox's routes (v2 under `/v2`, v1 under `/v1`, images under `/files` and `/samples`, test tools under
/// `/sandbox`), with its workers and webhook deliveries started. `base_url` is where it will be reached, e.g. `http://127.0.0.1:8787`. Needs a Tokio runtime.
///
/// Browsers may call it from any origin (the key travels in a header, never in a cookie), so it can be used directly
/// from a page in development.
pub fn build(config: &SandboxConfig, base_url: &str) -> Result<Sandbox, SandboxError> {
    let store = store::Store::open(config.data_dir.as_deref())?;
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let base_url = base_url.trim_end_matches('/').to_string();
    let files = files::Files::open(config.data_dir.as_deref())?;
    let samples = samples::generate(&base_url)?;
    let state = Arc::new(SandboxState {
        accounts: Accounts::load(&config.api_keys, config.photo_limit, &config.clock, &store)?,
        faults: faults::Faults::default(),
        held: hold::Held::default(),
        fetcher: source::Fetcher::new(&base_url, &samples, files.dir().to_path_buf(), &config.local_photo_sources)?,
        files,
        openapi: openapi::document(&base_url, &format!("{base_url}{DIRECT_SYNC_PATH}"))?,
        samples,
        store,
        pace: renders::Pace { processing_ms: config.processing_ms, workers: workers as u64 },
        base_url,
        webhook_retry_ms: config.webhook_retry_ms,
        work_added: tokio::sync::Notify::new(),
        deliveries_added: tokio::sync::Notify::new(),
    });
    let mut tasks = worker::start(&state, workers)?;
    tasks.push(webhooks::start(&state)?);
    let background = Background { tasks, store: state.store.clone() };
    // Whatever headers a page's preflight asks for (jQuery and XMLHttpRequest clients add `X-Requested-With`:
    // EbosetaleseDunjoyin/virtualstagingai, assets/main.js), as a service called from browsers answers.
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([header::RETRY_AFTER]);
    let router = Router::new()
        .merge(api(SyncWindow(config.sync_timeout)))
        .nest(DIRECT_SYNC_PATH, api(SyncWindow(config.direct_sync_timeout)))
        .nest("/sandbox", faults::routes().merge(hold::routes()))
        .nest("/samples", samples::routes())
        .route("/openapi.json", axum::routing::get(openapi::serve))
        .nest(
            "/files",
            Router::new()
                .fallback_service(tower_http::services::ServeDir::new(state.files.dir()))
                .layer(axum::middleware::from_fn(files::no_overlong_names)),
        )
        .fallback(error::not_found)
        .layer(axum::middleware::from_fn_with_state(state.clone(), faults::inject))
        .layer(cors)
        .with_state(state);
    Ok(Sandbox { router, background })
}

/// Where the sandbox serves its API a second time, as the service's long-running server for synchronous use
/// (its OpenAPI's second server): the same calls, waiting up to `direct_sync_timeout` rather than 60 s.
pub const DIRECT_SYNC_PATH: &str = "/direct-sync";

/// How long a `wait_for_completion` request may wait where it was sent (the regular or the long-running address).
#[derive(Debug, Clone, Copy)]
pub struct SyncWindow(pub std::time::Duration);

/// The service's API (v2 under `/v2`, v1 under `/v1`), its waiting requests held at most `window`.
fn api(window: SyncWindow) -> Router<Arc<SandboxState>> {
    Router::new()
        .nest("/v2", v2::routes())
        .nest("/v1", v1::routes())
        .layer(axum::Extension(window))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_REQUEST_BYTES))
}

/// A built sandbox: its routes, and its workers and webhook deliveries running until it is dropped.
#[derive(Debug)]
pub struct Sandbox {
    pub router: Router,
    background: Background,
}

/// The sandbox's background tasks and its database, stopped and closed on drop.
#[derive(Debug)]
struct Background {
    tasks: Vec<tokio::task::AbortHandle>,
    store: store::Store,
}

impl Drop for Background {
    fn drop(&mut self) {
        self.tasks.iter().for_each(tokio::task::AbortHandle::abort);
        self.store.close();
    }
}

impl Sandbox {
    /// Serves until `shutdown` completes; the background tasks stop with it.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let _background = self.background;
        axum::serve(listener, self.router).with_graceful_shutdown(shutdown).await
    }
}

/// A sandbox serving on a loopback port of its own, for embedding in `vstage serve` and for tests.
#[derive(Debug)]
pub struct RunningSandbox {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
    /// Dropped after the server task is aborted: the workers stop and the database closes at once.
    _background: Background,
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

/// Serves the sandbox on `listener` until the returned handle is dropped. Its image URLs start with
/// `public_url` when given (a server in front of it forwards `/files` and `/samples`), else its own address.
pub fn spawn(
    listener: TcpListener,
    config: &SandboxConfig,
    public_url: Option<&str>,
) -> Result<RunningSandbox, SandboxError> {
    let addr = listener.local_addr().map_err(|e| SandboxError::Startup(e.to_string()))?;
    let Sandbox { router, background } = build(config, public_url.unwrap_or(&format!("http://{addr}")))?;
    let task = tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router).await {
            tracing::error!(%error, "the sandbox stopped serving");
        }
    });
    Ok(RunningSandbox { addr, task, _background: background })
}
