//! The application's state: everything a request may need, made once by `vstage serve` from the checked parts
//! (`startup`) and shared by every worker, each of which adds its own connections to the service (`app`).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, Method};
use tower_http::cors::CorsLayer;
use vstage_api::Capabilities;

use crate::access::cap::Cap;
use crate::access::open_guard::OpenGuard;
use crate::access::rate_limit::RateLimit;
use crate::access::{Access, Gate};
use crate::allowance::Allowances;
use crate::cli::ServeArgs;
use crate::disclosure::Disclosures;
use crate::health::Readiness;
use crate::host_webhooks::HostWebhooks;
use crate::live::events::Events;
use crate::live::verification::Verification;
use crate::live::webhooks::{SignatureFormat, WebhookReceiver, WebhookSecret};
use crate::proxy::ProxyState;
use crate::results::fetch::ResultFetcher;
use crate::results::kept::{KeptLimits, KeptResults};
use crate::results::links::LinkKey;
use crate::secret;
use crate::site::loader::Loader;
use crate::startup::ServerParts;
use crate::storage::boards::Boards;
use crate::storage::ownership::Ownership;
use crate::storage::store::Store;
use crate::storage::uploads::{UploadLimits, Uploads};
use crate::upstream::Upstream;
use crate::upstream::http_client::HttpClient;

/// What every worker's app shares. The proxy's part is its own (`ProxyState`), held here, not copied.
pub struct AppState {
    pub proxy: Arc<ProxyState>,
    pub readiness: Arc<Readiness>,
    /// Open access only: this server's own names, no cross-site changes.
    pub guard: Option<OpenGuard>,
    pub boards: Boards,
    pub uploads: Arc<Uploads>,
    /// Chosen results' records, pages and QR codes.
    pub disclosures: Arc<Disclosures>,
    pub receiver: Arc<WebhookReceiver>,
    pub capabilities: Capabilities,
    /// The widget's release build, served as the studio's files.
    pub dist: std::path::PathBuf,
    pub loader: Loader,
    pub cors: Option<CorsLayer>,
    /// How long an upload's whole body may take (`--upload-timeout-s`).
    pub upload_timeout: Option<Duration>,
}

impl AppState {
    /// The state `args` describe, from the checked `parts`, for a server listening at `listening`. With the
    /// embedded sandbox (`embedded`) or `--set-webhook-secret`, the service's webhook secret is set here.
    pub async fn assemble(
        args: &ServeArgs,
        parts: ServerParts,
        embedded: bool,
        listening: SocketAddr,
    ) -> anyhow::Result<AppState> {
        let ServerParts {
            access,
            cors,
            public_url,
            store,
            files,
            upstream,
            http,
            loader,
            host_webhooks,
            credentials,
            ..
        } = parts;
        let from_env = parts.webhook_secret;
        let webhook_secret = Arc::new(webhook_secret(args, from_env, &upstream, &http, embedded).await?);
        let webhook_url = webhook_address(args, embedded, listening, &public_url).filter(|_| webhook_secret.is_set());
        let capabilities = Capabilities {
            mode: upstream.mode().into(),
            events: webhook_url.is_some(),
            uploads: true,
            board: true,
            access: access.name().into(),
            content_credentials: crate::results::credentials::IN_THIS_BUILD,
        };
        let window = (
            Duration::from_secs(args.events.event_keep_alive_s.max(1)),
            Duration::from_secs(args.events.event_window_s),
        );
        let events = Events::new(store.clone(), args.events.max_event_streams, window, host_webhooks.clone());
        let upstream = Arc::new(upstream);
        let verification = Arc::new(Verification::default());
        let readiness = Arc::new(
            Readiness::new(store.clone(), files.results.clone(), upstream.clone(), http.clone())
                .reporting(verification.clone()),
        );
        let uploads = Arc::new(Uploads::new(files.uploads, &public_url, store.clone(), upload_limits(args)));
        let links = result_links(&access, &args.storage.database.data_dir)?;
        let fetcher = ResultFetcher::new(http, upstream.sandbox().cloned(), public_url.clone())?;
        let kept = Arc::new(
            KeptResults::new(files.results, store.clone(), fetcher, &public_url, links.clone(), kept_limits(args))
                .reporting_to(host_webhooks.clone())
                .signing(credentials, uploads.clone(), &public_url),
        );
        let shared = CommonParts { args, store: &store, kept: &kept, host_webhooks: &host_webhooks };
        let disclosures = shared.disclosures(links, &public_url);
        let receiver = shared.receiver(webhook_secret.clone(), access.clone(), events.clone(), verification);
        let guard = match *access {
            Access::Open { .. } => {
                Some(OpenGuard::new(listening, args.serving.public_url.as_deref(), &args.access.allow_origins))
            }
            Access::Token(_) => None,
        };
        let allowances = shared.allowances();
        let proxy = Arc::new(ProxyState {
            upstream,
            gate: gate(args, access, embedded),
            ownership: Ownership::new(store.clone()),
            events,
            webhook_secret,
            webhook_url,
            public_url,
            body_timeout: seconds(args.timeouts.body_timeout_s),
            upload_timeout: seconds(args.timeouts.upload_timeout_s),
            kept,
            allowances,
            host_webhooks,
        });
        Ok(AppState {
            proxy,
            readiness,
            guard,
            boards: Boards::new(store),
            uploads,
            disclosures,
            receiver,
            capabilities,
            dist: args.serving.dist.clone(),
            loader,
            cors,
            upload_timeout: seconds(args.timeouts.upload_timeout_s),
        })
    }

    /// Whether the demo listing page is served, with tokens minted for its agents.
    pub fn offers_the_demo(&self) -> bool {
        self.proxy.gate.demo_subjects
    }
}

/// What several of the state's parts are made with.
struct CommonParts<'a> {
    args: &'a ServeArgs,
    store: &'a Arc<dyn Store>,
    kept: &'a Arc<KeptResults>,
    host_webhooks: &'a Option<Arc<HostWebhooks>>,
}

impl CommonParts<'_> {
    /// Chosen results' records, their pages and QR codes, with links signed by `links`.
    fn disclosures(&self, links: LinkKey, public_url: &str) -> Arc<Disclosures> {
        Arc::new(Disclosures {
            store: self.store.clone(),
            kept: self.kept.clone(),
            links,
            public_url: public_url.to_string(),
            default_profile: self.args.disclosure.disclosure_profile,
            max_a_day: self.args.disclosure.max_disclosures_a_day,
            decoding: tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, usize::from)),
            host_webhooks: self.host_webhooks.clone(),
            verdicts: Default::default(),
        })
    }

    /// The service's webhooks, verified with `secret` and told to `events`.
    fn receiver(
        &self,
        secret: Arc<WebhookSecret>,
        access: Arc<Access>,
        events: Arc<Events>,
        verification: Arc<Verification>,
    ) -> Arc<WebhookReceiver> {
        Arc::new(WebhookReceiver {
            secret,
            access,
            events,
            kept: self.kept.clone(),
            verification,
            signature: SignatureFormat {
                header: self.args.service.webhook_signature_header.clone(),
                encoding: self.args.service.webhook_signature_encoding,
            },
            host_webhooks: self.host_webhooks.clone(),
        })
    }

    /// Each subject's allowance (`--allowance`, `--allowance-period`).
    fn allowances(&self) -> Arc<Allowances> {
        Arc::new(Allowances {
            store: self.store.clone(),
            defaults: self.args.limits.allowance,
            period: self.args.limits.allowance_period,
            host_webhooks: self.host_webhooks.clone(),
        })
    }
}

/// Where the service sends its webhooks: the embedded sandbox reaches this server on loopback, the real service
/// only at the public address (without one, live events are off).
fn webhook_address(args: &ServeArgs, embedded: bool, listening: SocketAddr, public_url: &str) -> Option<String> {
    match (embedded, &args.serving.public_url) {
        (true, _) => Some(format!("http://{listening}/api/webhooks/service")),
        (false, Some(_)) => Some(format!("{public_url}/api/webhooks/service")),
        (false, None) => {
            tracing::warn!(
                "without --public-url the service can neither fetch uploads nor send webhooks here; live events are off"
            );
            None
        }
    }
}

/// Who may call, how often and how many calls at once (`--rate-limit`, `--max-in-flight`).
fn gate(args: &ServeArgs, access: Arc<Access>, embedded: bool) -> Arc<Gate> {
    Arc::new(Gate {
        // The demo page mints tokens for anyone who asks: only where nothing real is at stake.
        demo_subjects: embedded && !access.is_token() && access.widget_secret().is_some(),
        access,
        rate_limit: RateLimit::per_minute(args.access.rate_limit).map(Arc::new),
        in_flight: (args.access.max_in_flight > 0).then(|| Cap::new(args.access.max_in_flight, 1)),
    })
}

fn upload_limits(args: &ServeArgs) -> UploadLimits {
    UploadLimits {
        quota: megabytes(args.storage.upload_quota_mb),
        retention: Some(args.storage.upload_retention).filter(|retention| !retention.is_zero()),
    }
}

fn kept_limits(args: &ServeArgs) -> KeptLimits {
    KeptLimits {
        quota: megabytes(args.results.results_quota_mb),
        retention: Some(args.results.results_retention).filter(|retention| !retention.is_zero()),
    }
}

/// `--…-s` as a limit; 0 is none.
fn seconds(limit: u64) -> Option<Duration> {
    Some(Duration::from_secs(limit)).filter(|limit| !limit.is_zero())
}

/// `--…-quota-mb` in bytes; 0 is no quota.
fn megabytes(quota: u64) -> Option<u64> {
    Some(quota.saturating_mul(1024 * 1024)).filter(|quota| *quota > 0)
}

/// The key kept results' links are signed with: from the widget secret, so that every server of a deployment
/// signs alike, else from one made once and kept in the data dir.
fn result_links(access: &Access, data_dir: &Path) -> anyhow::Result<LinkKey> {
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
    from_env: Option<String>,
    upstream: &Upstream,
    http: &HttpClient,
    embedded: bool,
) -> anyhow::Result<WebhookSecret> {
    let given = from_env.is_some();
    let kept_at = args.storage.database.data_dir.join("webhook-secret.json");
    let kept = WebhookSecret::load(from_env, Some(kept_at.clone()))?;
    let secret = match kept.current() {
        Some(secret) => secret,
        None if embedded => {
            let secret = secret::random("whs_")?;
            kept.replace(Some(secret.clone()))?;
            secret
        }
        None if args.service.set_webhook_secret => {
            bail!("--set-webhook-secret sets VSTAGE_WEBHOOK_SECRET on the service; set that variable too")
        }
        None => {
            tracing::warn!("VSTAGE_WEBHOOK_SECRET is not set: webhooks cannot be verified, so live events are off");
            return Ok(kept);
        }
    };
    if !embedded && !args.service.set_webhook_secret {
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
    let signer = if embedded { "the embedded sandbox's" } else { "the service's" };
    match given {
        true => tracing::info!("{signer} webhook secret is set to VSTAGE_WEBHOOK_SECRET"),
        false => tracing::info!("{signer} webhook secret is set to the one kept in {}", kept_at.display()),
    }
    Ok(kept)
}
