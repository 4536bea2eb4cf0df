//! `vstage serve`: the backend-for-frontend between the widget and the image service (or the embedded sandbox).
//! It keeps the API key on the server, forwards an allow-list of calls, receives webhooks, pushes live events,
//! stores uploads and serves the widget's files.

mod access;
pub mod allocator;
mod board;
mod capabilities;
mod checks;
pub mod cli;
mod downloads;
mod error;
mod health;
mod live;
mod metrics;
mod proxy;
mod request_log;
mod results;
mod secret;
mod serving;
mod site;
mod startup;
mod storage;
mod upstream;

pub use access::token;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderName, HeaderValue, Method};
use axum::routing::{get, post};
use futures_util::FutureExt;
use tokio::net::TcpListener;
use tower::ServiceExt;
use tower_http::cors::CorsLayer;
use vstage_api::Capabilities;

use crate::access::cap::Cap;
use crate::access::open_guard::OpenGuard;
use crate::access::rate_limit::RateLimit;
use crate::access::token::WidgetSecret;
use crate::access::{Access, Gate};
use crate::cli::{Cli, Command, SandboxArgs, ServeArgs, TokenArgs};
use crate::error::ServerError;
use crate::health::Readiness;
use crate::live::events::Events;
use crate::live::verification::Verification;
use crate::live::webhooks::{Receiver, WebhookSecret};
use crate::live::{events, webhooks};
use crate::proxy::Proxy;
use crate::request_log::RequestIds;
use crate::results::fetch::ResultFetcher;
use crate::results::kept::{KeptLimits, KeptResults};
use crate::results::links::LinkKey;
use crate::serving::shutdown;
use crate::site::{demo, embed, static_files};
use crate::startup::Foundation;
use crate::storage::boards::Boards;
use crate::storage::ownership::Ownership;
use crate::storage::uploads;
use crate::storage::uploads::{UploadLimits, Uploads};
use crate::upstream::Upstream;
use crate::upstream::http_client::HttpClient;
use crate::upstream::sandbox_files;

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => serve(*args).await,
        Command::Check(args) => check(*args).await,
        Command::Sandbox(args) => sandbox(args).await,
        Command::Token(args) => token(args),
    }
}

/// `vstage serve`.
async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let listener = bind(args.listen).await?;
    let local_url = format!("http://{}", listener.local_addr()?);
    let Foundation { access, cors, public_url, store, files, upstream, embedded_sandbox, http, embed } =
        Foundation::lay(&args, &local_url).await?;
    let webhook_secret = Arc::new(webhook_secret(&args, &upstream, &http, embedded_sandbox.is_some()).await?);
    // The embedded sandbox reaches us on loopback; the real service only at the public address.
    let webhook_url = match (&embedded_sandbox, &args.public_url) {
        (Some(_), _) => Some(format!("{local_url}/api/webhooks/service")),
        (None, Some(_)) => Some(format!("{public_url}/api/webhooks/service")),
        (None, None) => None,
    }
    .filter(|_| webhook_secret.is_set());
    if embedded_sandbox.is_none() && args.public_url.is_none() {
        tracing::warn!(
            "without --public-url the service can neither fetch uploads nor send webhooks here; live events are off"
        );
    }

    let capabilities = Capabilities {
        mode: upstream.mode().into(),
        events: webhook_url.is_some(),
        uploads: true,
        board: true,
        access: access.name().into(),
    };
    let ownership = Ownership::new(store.clone());
    let boards = Boards::new(store.clone());
    let events = Events::new(
        store.clone(),
        args.max_event_streams,
        Duration::from_secs(args.event_keep_alive_s.max(1)),
        Duration::from_secs(args.event_window_s),
    );
    let limits = UploadLimits {
        quota: Some(args.upload_quota_mb.saturating_mul(1024 * 1024)).filter(|quota| *quota > 0),
        retention: Some(args.upload_retention).filter(|retention| !retention.is_zero()),
    };
    let upstream = Arc::new(upstream);
    let readiness = Arc::new(Readiness::new(store.clone(), files.results.clone(), upstream.clone(), http.clone()));
    let uploads = Arc::new(Uploads::new(files.uploads, &public_url, store.clone(), limits));
    tokio::spawn(uploads.clone().remove_expired_forever());
    let kept = Arc::new(KeptResults::new(
        files.results,
        store.clone(),
        ResultFetcher { http: http.clone(), sandbox: upstream.sandbox().cloned(), public_url: public_url.clone() },
        &public_url,
        result_links(&access, &args.data_dir)?,
        KeptLimits {
            quota: Some(args.results_quota_mb.saturating_mul(1024 * 1024)).filter(|quota| *quota > 0),
            retention: Some(args.results_retention).filter(|retention| !retention.is_zero()),
        },
    ));
    tokio::spawn(kept.clone().remove_expired_forever());
    if let Some(address) = args.metrics_listen {
        let listener = bind(address).await?;
        say(&format!("vstage metrics on http://{}/metrics", listener.local_addr()?));
        let store = store.clone();
        let app = metrics::routes(move || store.pool_state());
        tokio::spawn(async move { axum::serve(listener, app).await });
    }
    let receiver = Arc::new(Receiver {
        secret: webhook_secret.clone(),
        access: access.clone(),
        store,
        events: events.clone(),
        kept: kept.clone(),
        verification: Arc::new(Verification::default()),
    });
    // The demo page mints tokens for anyone who asks: only where nothing real is at stake.
    let demo_offered = embedded_sandbox.is_some() && !access.is_token() && access.widget_secret().is_some();
    let gate = Arc::new(Gate {
        access: access.clone(),
        demo_subjects: demo_offered,
        rate_limit: RateLimit::per_minute(args.rate_limit),
        in_flight: (args.max_in_flight > 0).then(|| Cap::new(args.max_in_flight, 1)),
    });
    let mode = upstream.mode();
    let live_events = events.clone();
    let guard = match *access {
        Access::Open { .. } => {
            Some(OpenGuard::new(listener.local_addr()?, args.public_url.as_deref(), &args.allow_origins))
        }
        Access::Token(_) => None,
    };
    let shared = Arc::new(Shared {
        upstream,
        readiness,
        guard,
        gate,
        ownership,
        boards,
        kept,
        events,
        webhook_secret,
        webhook_url,
        public_url: public_url.clone(),
        body_timeout: Some(Duration::from_secs(args.body_timeout_s)).filter(|limit| !limit.is_zero()),
        uploads,
        receiver,
        capabilities,
        dist: args.dist.clone(),
        embed,
        cors,
    });
    let app: serving::AppFactory = Arc::new(move || shared.worker_app());

    announce(&listener, mode)?;
    if demo_offered {
        say(&format!("demo listing page with two embedded studios: {local_url}/demo/listing.html"));
    }
    let stopping = async move {
        shutdown::signal().await;
        live_events.close();
    };
    let options = serving::Options {
        workers: args.workers.unwrap_or_else(serving::default_workers),
        header_timeout: Some(Duration::from_secs(args.header_timeout_s)).filter(|timeout| !timeout.is_zero()),
        max_connections: args.max_connections.max(1),
    };
    serving::serve(listener, options, app, stopping).await?;
    drop(embedded_sandbox);
    say("vstage stopped");
    Ok(())
}

/// `vstage check`: what `serve` checks before it listens, then nothing more.
async fn check(args: ServeArgs) -> anyhow::Result<()> {
    let foundation = Foundation::lay(&args, &format!("http://{}", args.listen)).await?;
    drop(foundation);
    say("vstage check: the database, the store, the service with its key and the widget are ready");
    Ok(())
}

/// What every worker's app shares: configuration, the database's users, live events, secrets.
struct Shared {
    upstream: Arc<Upstream>,
    readiness: Arc<Readiness>,
    /// Open access only: this server's own names, no cross-site changes.
    guard: Option<OpenGuard>,
    gate: Arc<Gate>,
    ownership: Ownership,
    boards: Boards,
    kept: Arc<KeptResults>,
    events: Arc<Events>,
    webhook_secret: Arc<WebhookSecret>,
    webhook_url: Option<String>,
    public_url: String,
    /// `--body-timeout-s`; `None` for no limit.
    body_timeout: Option<Duration>,
    uploads: Arc<Uploads>,
    receiver: Arc<Receiver>,
    capabilities: Capabilities,
    dist: std::path::PathBuf,
    embed: embed::EmbedScript,
    cors: Option<CorsLayer>,
}

impl Shared {
    /// One worker's app around its own HTTP client: the proxy's endpoints first (the hot path), then the router
    /// for everything else; CORS around both when origins are allowed.
    fn worker_app(&self) -> anyhow::Result<serving::App> {
        let http = HttpClient::new()?;
        let proxy = Arc::new(Proxy {
            upstream: self.upstream.clone(),
            http: http.clone(),
            gate: self.gate.clone(),
            ownership: self.ownership.clone(),
            events: self.events.clone(),
            webhook_secret: self.webhook_secret.clone(),
            webhook_url: self.webhook_url.clone(),
            public_url: self.public_url.clone(),
            body_timeout: self.body_timeout,
            kept: self.kept.clone(),
        });
        let router = self.router(proxy.clone(), http);
        let routes = proxy::Routes::new(proxy);
        let forward_or_route = move |request: hyper::Request<hyper::body::Incoming>| -> serving::ResponseFuture {
            match routes.route(request) {
                Ok(forwarded) => Box::pin(forwarded),
                Err(request) => Box::pin(
                    router.clone().oneshot(request).map(|answer| answer.unwrap_or_else(|never| match never {})),
                ),
            }
        };
        let answer: Arc<dyn Fn(hyper::Request<hyper::body::Incoming>) -> serving::ResponseFuture + Send + Sync> =
            match self.cors.clone() {
                None => Arc::new(forward_or_route),
                Some(cors) => {
                    let service = tower::ServiceBuilder::new()
                        .layer(cors)
                        .service_fn(move |request| forward_or_route(request).map(Ok::<_, Infallible>));
                    Arc::new(move |request| {
                        let answer = service.clone().oneshot(request);
                        Box::pin(answer.map(|answer| answer.unwrap_or_else(|never| match never {})))
                    })
                }
            };
        // The caller's address is read only to limit open access per client.
        let needs_peer = self.gate.needs_peer();
        let guard = self.guard.clone();
        let ids = RequestIds::new()?;
        Ok(Arc::new(move |mut request, peer| {
            let begun = ids.begin(&request);
            if let Some(Err(refused)) =
                guard.as_ref().map(|guard| guard.check(request.method(), request.uri(), request.headers()))
            {
                let refused = not_sniffed(axum::response::IntoResponse::into_response(refused));
                return Box::pin(std::future::ready(begun.end(refused)));
            }
            if needs_peer {
                request.extensions_mut().insert(ConnectInfo(peer));
            }
            Box::pin(answer(request).map(move |response| begun.end(not_sniffed(response))))
        }))
    }

    /// The routes besides the proxy's: uploads, live events, the board, kept results and ZIPs, capabilities, the webhook
    /// receiver, the sandbox's images and demo page, the widget's files and `/embed.js`.
    fn router(&self, proxy: Arc<Proxy>, http: HttpClient) -> Router {
        let for_a_subject = Router::new()
            .route(
                "/uploads",
                post(uploads::upload)
                    .with_state(self.uploads.clone())
                    .layer(DefaultBodyLimit::max(uploads::BODY_LIMIT)),
            )
            .route("/events", get(events::stream).with_state(self.events.clone()))
            .merge(downloads::routes(proxy.clone(), self.boards.clone()))
            .merge(board::routes(self.boards.clone(), self.ownership.clone()))
            .merge(results::kept::routes(self.kept.clone()))
            .merge(proxy::listing::v1_route(self.ownership.clone(), move |path: String, query: String| {
                let proxy = proxy.clone();
                async move { proxy.get(&path, &query).await }
            }))
            .layer(axum::middleware::from_fn_with_state(self.gate.clone(), access::authenticate));
        let mut api = for_a_subject
            .route("/capabilities", capabilities::route(self.capabilities.clone(), self.receiver.verification.clone()))
            .route(
                "/webhooks/service",
                post(webhooks::receive)
                    .with_state(self.receiver.clone())
                    .layer(DefaultBodyLimit::max(webhooks::BODY_LIMIT)),
            )
            .route(
                "/uploads/{name}",
                get(uploads::serve).with_state(self.uploads.clone()).layer(static_files::for_any_origin()),
            )
            .merge(results::kept::link_routes(self.kept.clone()).layer(static_files::for_any_origin()))
            .fallback(|| async { ServerError::NotFound("No such API endpoint on this vstage server.".into()) });
        if let Some(limit) = self.body_timeout {
            // Between two parts of a body (the proxy also limits a whole body): uploads and webhooks.
            api = api.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(limit));
        }
        let embed = self.embed.clone();
        let mut app = Router::new().route(
            "/embed.js",
            get(move |headers: axum::http::HeaderMap| {
                let embed = embed.clone();
                async move { embed.respond(&headers) }
            })
            .layer(static_files::for_any_origin()),
        );
        if let Some(sandbox) = self.upstream.sandbox() {
            let (images, samples_index) = sandbox_files::routes(sandbox.clone(), http);
            api = api.merge(samples_index);
            app = app.merge(images.layer(static_files::for_any_origin()));
            if let Some(secret) = self.gate.access.widget_secret().filter(|_| self.gate.demo_subjects) {
                app = app.merge(demo::routes(secret.clone()));
            }
        }
        app.nest("/api", api)
            .merge(health::routes(self.readiness.clone()))
            .merge(static_files::router(&self.dist))
            .layer(axum::middleware::from_fn(metrics::name_the_route))
    }
}

/// Every answer is read as the type it says (`X-Content-Type-Options: nosniff`): a relayed body is never run as
/// a script or page of this origin because a browser guessed.
fn not_sniffed(mut response: axum::response::Response) -> axum::response::Response {
    response
        .headers_mut()
        .insert(HeaderName::from_static("x-content-type-options"), HeaderValue::from_static("nosniff"));
    response
}

/// The key kept results' links are signed with: from the widget secret, so that every server of a deployment
/// signs alike, else from one made once and kept in the data dir.
fn result_links(access: &Access, data_dir: &std::path::Path) -> anyhow::Result<LinkKey> {
    Ok(match access.widget_secret() {
        Some(secret) => LinkKey::derived_from(secret.as_key()),
        None => LinkKey::derived_from(secret::load_or_generate(&data_dir.join("result-link-key"), "rlk_")?.as_bytes()),
    })
}

/// The secret the service signs webhooks with: `VSTAGE_WEBHOOK_SECRET` or the one last set through this server
/// (see `WebhookSecret`), kept in the data dir. With `--set-webhook-secret` it is set on the service at start; for
/// the embedded sandbox one is made when there is none, and set on the sandbox at every start, exactly as an
/// operator would.
async fn webhook_secret(
    args: &ServeArgs,
    upstream: &Upstream,
    http: &HttpClient,
    embedded: bool,
) -> anyhow::Result<WebhookSecret> {
    let from_env = std::env::var("VSTAGE_WEBHOOK_SECRET").ok().filter(|secret| !secret.is_empty());
    let kept = WebhookSecret::load(from_env, Some(args.data_dir.join("webhook-secret.json")))?;
    let secret = match kept.current() {
        Some(secret) => secret,
        None if embedded => {
            let secret = secret::random("whs_")?;
            kept.replace(Some(secret.clone()))?;
            secret
        }
        None if args.set_webhook_secret => {
            bail!("--set-webhook-secret sets VSTAGE_WEBHOOK_SECRET on the service; set that variable too")
        }
        None => {
            tracing::warn!("VSTAGE_WEBHOOK_SECRET is not set: webhooks cannot be verified, so live events are off");
            return Ok(kept);
        }
    };
    if !embedded && !args.set_webhook_secret {
        return Ok(kept);
    }
    let mut request = upstream.own_request(Method::POST, "/v2/user/webhook-secret")?;
    request.headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    request.body = serde_json::json!({ "webhook_secret": secret }).to_string().into();
    let base = upstream.base();
    let answer = http
        .call(base.origin(), request, &[], Duration::from_secs(10))
        .await
        .with_context(|| format!("cannot reach the service at {base} to set its webhook secret"))?;
    if !answer.status.is_success() {
        bail!(
            "the service at {base} refused the webhook secret (HTTP {}); check VSTAGE_WEBHOOK_SECRET",
            answer.status.as_u16()
        );
    }
    tracing::info!("the service's webhook secret is set to VSTAGE_WEBHOOK_SECRET");
    Ok(kept)
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
        sync_timeout: Duration::from_secs(args.sync_timeout_s),
        local_photo_sources: args.local_photos,
    };
    let sandbox = vstage_sandbox::build(&config, &format!("http://{}", listener.local_addr()?))?;
    announce(&listener, "standalone sandbox")?;
    sandbox.serve(listener, shutdown::signal()).await.context("serving")?;
    Ok(())
}

/// `vstage token`.
fn token(args: TokenArgs) -> anyhow::Result<()> {
    let secret = std::env::var("VSTAGE_WIDGET_SECRET")
        .map_err(|_| anyhow::anyhow!("set VSTAGE_WIDGET_SECRET to the secret `vstage serve --access token` uses"))?;
    let secret = WidgetSecret::new(&secret).map_err(anyhow::Error::msg)?;
    if args.sub.is_empty() {
        bail!("--sub must name someone");
    }
    println!("{}", secret.mint(&args.sub, args.ttl, args.origin.as_deref()));
    Ok(())
}

async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}; is another program using it?"))
}

/// The line tools and tests wait for: the address actually bound (the port may have been 0).
fn announce(listener: &TcpListener, mode: &str) -> anyhow::Result<()> {
    let addr = listener.local_addr()?;
    say(&format!("vstage listening on http://{addr} ({mode}); press Ctrl-C to stop"));
    Ok(())
}

/// A line for whoever watches the server. Its output may have been closed (a supervisor that read the address):
/// then the line is lost, and the server carries on, where `println!` would panic.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}
