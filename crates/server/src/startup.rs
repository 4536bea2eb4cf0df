//! What `vstage serve` and `vstage check` make of the options before anything listens: the access rules and
//! CORS, the database, the host's webhooks, the object store, the service (or the embedded sandbox) and the
//! widget's loader, each checked as it is made (`checks`), so that a wrong setting stops the start with a sentence
//! that names it.

use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;
use axum::http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderName, HeaderValue, Method};
use tower_http::cors::{AllowOrigin, CorsLayer};
use vstage_sandbox::RunningSandbox;

use crate::access::Access;
use crate::access::token::WidgetSecret;
use crate::checks;
use crate::cli::{AccessMode, ServeArgs, SkippableCheck};
use crate::host_webhooks::{self, HostWebhooks};
use crate::request_log::REQUEST_ID;
use crate::results::credentials::{self, ContentCredentials};
use crate::secret;
use crate::site::loader::Loader;
use crate::storage::objects::{self, Stores};
use crate::storage::{self, store::Store};
use crate::upstream::http_client::HttpClient;
use crate::upstream::{Upstream, checked_base};

/// The secrets `vstage serve` takes from its environment, never from its arguments (which other users of the machine
/// can read): read once at start (`from_env`), so that a server can also be started in-process with its own.
#[derive(Clone, Default)]
pub struct Secrets {
    /// `VSTAGE_WIDGET_SECRET`, which widget tokens are signed with.
    pub widget: Option<String>,
    /// `VSTAGE_API_KEY`, the service's key.
    pub api_key: Option<String>,
    /// `VSTAGE_WEBHOOK_SECRET`, which the service signs its webhooks with.
    pub webhook: Option<String>,
    /// `VSTAGE_HOST_WEBHOOK_SECRET`, which the host's webhooks are signed with.
    pub host_webhook: Option<String>,
}

impl Secrets {
    pub fn from_env() -> Self {
        let read = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
        Secrets {
            widget: read("VSTAGE_WIDGET_SECRET"),
            api_key: read("VSTAGE_API_KEY"),
            webhook: read("VSTAGE_WEBHOOK_SECRET"),
            host_webhook: read(host_webhooks::SECRET_VARIABLE),
        }
    }
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secrets(..)")
    }
}

/// The parts the server is assembled from, each known to work.
pub struct ServerParts {
    pub access: Arc<Access>,
    pub cors: Option<CorsLayer>,
    /// The address browsers and the service reach this server at.
    pub public_url: String,
    pub store: Arc<dyn Store>,
    pub files: Stores,
    pub upstream: Upstream,
    /// With no `--upstream`: the sandbox started in this process, stopped when dropped.
    pub embedded_sandbox: Option<RunningSandbox>,
    pub http: HttpClient,
    pub loader: Loader,
    /// The listing site's backend's webhooks, when `--host-webhook-url` names it.
    pub host_webhooks: Option<Arc<HostWebhooks>>,
    /// `VSTAGE_WEBHOOK_SECRET`, for the state (`AppState::assemble`).
    pub webhook_secret: Option<String>,
    /// What signs the kept results' content credentials.
    pub credentials: Arc<ContentCredentials>,
}

impl ServerParts {
    /// Everything `args` and `secrets` name, made and checked in order; `local_url` is where this server listens.
    pub async fn make(args: &ServeArgs, local_url: &str, secrets: Secrets) -> anyhow::Result<ServerParts> {
        let access = Arc::new(access_from(args, secrets.widget)?);
        let cors = cors_layer(&args.access.allow_origins)?;
        let public_url = match &args.serving.public_url {
            Some(url) => checked_base("--public-url", url)?,
            None => local_url.to_string(),
        };
        let store = storage::open(args.storage.database.database.as_deref(), &args.storage.database.data_dir).await?;
        let host_webhooks = HostWebhooks::new(
            &args.host_webhooks.host_webhook_urls,
            secrets.host_webhook.as_deref(),
            store.clone(),
            host_webhooks::Pacing {
                first_retry: Duration::from_millis(args.host_webhooks.host_webhook_retry_ms.max(1)),
                attempt_timeout: Duration::from_secs(args.host_webhooks.host_webhook_timeout_s),
                per_receiver: usize::try_from(args.host_webhooks.host_webhook_concurrency).unwrap_or(1),
            },
        )?;
        let files = objects::open(args.storage.objects.as_deref(), &args.storage.database.data_dir)?;
        let location = match &args.storage.objects {
            Some(location) => location.clone(),
            None => format!("the folder results/ of --data-dir {}", args.storage.database.data_dir.display()),
        };
        checks::store_works(files.results.as_ref(), &location).await?;
        let (upstream, embedded_sandbox) = match &args.service.upstream {
            Some(url) => (Upstream::remote(url, secrets.api_key)?, None),
            None => {
                let uploads = format!("{public_url}/api/uploads/");
                let (upstream, running) = Upstream::embedded_sandbox(
                    &args.storage.database.data_dir,
                    &format!("{public_url}/sandbox"),
                    &uploads,
                )
                .await?;
                (upstream, Some(running))
            }
        };
        let upstream = upstream.with_direct_sync_url(args.service.direct_sync_url.as_deref())?;
        let http = HttpClient::new()?;
        if args.serving.skip_checks.contains(&SkippableCheck::Upstream) {
            checks::skipped("the service and its key");
        } else {
            checks::upstream_accepts_the_key(&upstream, &http).await?;
        }
        let credentials = Arc::new(content_credentials(args, store.as_ref(), embedded_sandbox.is_some()).await?);
        let loader = Loader::from_dist(&args.serving.dist).allowing(&args.access.allow_origins);
        if args.serving.skip_checks.contains(&SkippableCheck::Widget) {
            checks::skipped("the widget's files");
        } else {
            checks::widget_is_built(&args.serving.dist, &loader)?;
        }
        Ok(ServerParts {
            access,
            cors,
            public_url,
            store,
            files,
            upstream,
            embedded_sandbox,
            http,
            loader,
            host_webhooks,
            webhook_secret: secrets.webhook,
            credentials,
        })
    }
}

/// What signs the kept results' content credentials: `--c2pa-cert`/`--c2pa-key`, or the signer kept in `store`;
/// naming as their maker the service, or the embedded sandbox in its place. A build without them refuses the
/// operator's certificate rather than start and sign nothing with it.
async fn content_credentials(
    args: &ServeArgs,
    store: &dyn Store,
    embedded: bool,
) -> anyhow::Result<ContentCredentials> {
    let maker = if embedded { "vstage sandbox" } else { "Virtual Staging AI" };
    let signer_files = (args.results.c2pa_cert.as_deref(), args.results.c2pa_key.as_deref());
    if !credentials::IN_THIS_BUILD && signer_files != (None, None) {
        bail!(
            "--c2pa-cert and --c2pa-key sign content credentials, which are not in this build of vstage: build the \
             server with `--features content-credentials` (`cargo build --release -p vstage-server --features \
             content-credentials`; `cargo xtask dist` does), or leave them out"
        );
    }
    ContentCredentials::for_server(signer_files, store, &args.storage.database.data_dir, maker).await
}

/// Open access (no widget token) is safe only where nobody else can connect; tokens need the secret. In open
/// access tokens are taken too when there is a secret: `VSTAGE_WIDGET_SECRET`, or with the embedded sandbox one
/// made once and kept in the data dir (the demo listing page mints its agents' tokens with it).
fn access_from(args: &ServeArgs, from_env: Option<String>) -> anyhow::Result<Access> {
    let checked = |secret: String| WidgetSecret::new(&secret).map_err(anyhow::Error::msg);
    match args.access.access {
        AccessMode::Open if !args.serving.listen.ip().is_loopback() => bail!(
            "refusing to listen on {} with open access: anyone who reaches this address could spend the \
             account's photos. Listen on 127.0.0.1 behind your own reverse proxy, or use --access token.",
            args.serving.listen
        ),
        AccessMode::Open => {
            let secret = match (from_env, &args.service.upstream) {
                (Some(secret), _) => Some(secret),
                (None, None) => {
                    Some(secret::load_or_generate(&args.storage.database.data_dir.join("widget-secret"), "wgs_")?)
                }
                (None, Some(_)) => None,
            };
            Ok(Access::Open { tokens: secret.map(checked).transpose()? })
        }
        AccessMode::Token => {
            let secret = from_env.ok_or_else(|| {
                anyhow::anyhow!(
                    "--access token needs VSTAGE_WIDGET_SECRET, the secret your site signs widget tokens with"
                )
            })?;
            Ok(Access::Token(checked(secret)?))
        }
    }
}

/// CORS for the listed page origins only; none listed, no cross-site calls.
fn cors_layer(origins: &[String]) -> anyhow::Result<Option<CorsLayer>> {
    if origins.is_empty() {
        return Ok(None);
    }
    let origins = origins
        .iter()
        .map(|origin| {
            let url = url::Url::parse(origin)
                .ok()
                .filter(|url| matches!(url.scheme(), "http" | "https") && url.path() == "/" && url.query().is_none());
            let Some(url) = url else {
                bail!(
                    "--allow-origin {origin} is not an origin; give scheme, host and port only, e.g. https://a.example"
                );
            };
            Ok(HeaderValue::from_str(&url.origin().ascii_serialization())?)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Some(
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_methods([Method::GET, Method::POST, Method::DELETE])
            .allow_headers([
                AUTHORIZATION,
                CONTENT_TYPE,
                ACCEPT,
                HeaderName::from_static("last-event-id"),
                HeaderName::from_static(vstage_api::host_reference::HEADER),
            ])
            .expose_headers([
                RETRY_AFTER,
                WWW_AUTHENTICATE,
                REQUEST_ID.clone(),
                HeaderName::from_static(crate::allowance::EVENT_ID_HEADER),
            ])
            .max_age(Duration::from_secs(600)),
    ))
}
