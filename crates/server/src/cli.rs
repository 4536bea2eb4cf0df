//! The command line of the `vstage` binary: `vstage serve`, `vstage check`, `vstage sandbox`, `vstage token` and the
//! database's commands. Every option has a default that works on a developer's machine and a `VSTAGE_...`
//! environment variable (the tests below hold both); serve's can also come from a TOML file (`--config`,
//! `config_file.rs`). Secrets come only from the environment.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use vstage_api::disclosure::DisclosureProfile;
use vstage_api::usage::UsageKind;

use crate::allowance::AllowancePeriod;
use crate::storage::store::{Limits, Setting, SubjectAllowance};

#[derive(Debug, Parser)]
#[command(name = "vstage", version, about = "The vstage virtual-staging studio: server, proxy and sandbox")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// How log lines are written to standard error: `text` for people, `json` (one object a line) for log
    /// shippers. RUST_LOG chooses what is logged (default: info).
    #[arg(long, env = "VSTAGE_LOG_FORMAT", global = true, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// A TOML file of serve's options, keys named as the long flags (`listen = "127.0.0.1:8080"`); the command line
    /// and the environment come before it. Read by serve and check, and for their `data-dir` and `database` by
    /// allowance, usage and deliveries; sandbox and token do not read it. Secrets are refused there.
    #[arg(long, env = "VSTAGE_CONFIG", global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the widget and the /api proxy (with the embedded sandbox unless --upstream is given).
    Serve(Box<ServeArgs>),
    /// Make serve's start-up checks (database, store, service and key, widget) with the same options, and exit:
    /// non-zero with a sentence on the first failure. For deploy pipelines. Like serve, it brings the database's
    /// schema up to date.
    Check(Box<ServeArgs>),
    /// Run the sandbox alone, for direct use with an `Api-Key` header.
    Sandbox(SandboxArgs),
    /// Print a widget token signed with VSTAGE_WIDGET_SECRET (for tests and examples; a host site's backend mints
    /// its own, see docs/server.md).
    Token(TokenArgs),
    /// Set or list subjects' own allowances of photos a period (the database serve uses).
    Allowance(AllowanceArgs),
    /// Report the photos charged and refunded per subject and kind over a span of days, for billing.
    Usage(UsageArgs),
    /// Show the host's webhooks and what became of them, or send one again (the database serve uses).
    Deliveries(DeliveriesArgs),
}

/// The database: serve's, and that of the commands that read what serve keeps.
#[derive(Debug, Args)]
pub struct DatabaseArgs {
    /// Where the server and its embedded sandbox keep their data, the SQLite database among it.
    #[arg(long, env = "VSTAGE_DATA_DIR", global = true, default_value = "vstage-data")]
    pub data_dir: PathBuf,
    /// The database: postgres://user@host:5432/name, which several servers share (ownership, the event log,
    /// boards, kept results); by default SQLite in DATA_DIR, for one server alone. A password goes in
    /// VSTAGE_DATABASE_URL only: the command line is in every process list, and a password there is refused.
    #[arg(long, global = true, env = "VSTAGE_DATABASE_URL", hide_env_values = true)]
    pub database: Option<String>,
}

#[derive(Debug, Args)]
pub struct AllowanceArgs {
    #[command(subcommand)]
    pub action: AllowanceAction,
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Subcommand)]
pub enum AllowanceAction {
    /// A subject's own allowance: `vstage allowance set agent-17 staging=30,image-editing=unlimited`; a kind left
    /// out, or `default`, follows serve's --allowance.
    Set {
        subject: String,
        #[arg(value_parser = subject_allowance)]
        allowance: SubjectAllowance,
    },
    /// Every subject's own allowance.
    List,
}

#[derive(Debug, Args)]
pub struct DeliveriesArgs {
    #[command(subcommand)]
    pub action: DeliveriesAction,
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Subcommand)]
pub enum DeliveriesAction {
    /// The newest deliveries, a line each: `pending`, `sent` or `failed` ones, or all.
    List {
        #[arg(long, value_parser = ["pending", "sent", "failed"])]
        outcome: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Send event ID (`msg_...`) again to each of its receivers (or to the one `--to` names), whatever became of
    /// it; an attempt under way is left to end, and what it ends with stands.
    Retry {
        id: String,
        /// Only to this receiver (its `--host-webhook-url`, as `list` shows it).
        #[arg(long, value_name = "URL")]
        to: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct UsageArgs {
    /// The first day counted (UTC), e.g. 2026-11-01.
    #[arg(long, value_parser = day)]
    pub from: i64,
    /// The day after the last counted (UTC), e.g. 2026-12-01.
    #[arg(long, value_parser = day)]
    pub to: i64,
    #[arg(long, value_enum, default_value_t = ReportFormat::Csv)]
    pub format: ReportFormat,
    /// Only this subject's.
    #[arg(long)]
    pub subject: Option<String>,
    /// Only the renders of this listing (the host's `listing_id`); the totals are this listing's.
    #[arg(long)]
    pub listing: Option<String>,
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Csv,
    Json,
}

/// A day, `YYYY-MM-DD`, as the epoch milliseconds of its start in UTC.
fn day(text: &str) -> Result<i64, String> {
    let date = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| "write a day as 2026-11-01")?;
    Ok(date.and_hms_opt(0, 0, 0).map_or(0, |start| start.and_utc().timestamp_millis()))
}

/// `vstage allowance set`'s allowance: `KIND=PHOTOS|unlimited|default` pairs, comma-separated.
fn subject_allowance(text: &str) -> Result<SubjectAllowance, String> {
    let mut allowance = SubjectAllowance::default();
    for pair in text.split(',').map(str::trim).filter(|pair| !pair.is_empty()) {
        let (kind, value) = pair.split_once('=').ok_or("write KIND=PHOTOS, e.g. staging=30,image-editing=unlimited")?;
        let kind = UsageKind::parse(kind.trim()).ok_or("the kinds are staging and image-editing")?;
        let setting = match value.trim() {
            "default" => Setting::Default,
            "unlimited" => Setting::Unlimited,
            photos => Setting::Photos(photos.parse().map_err(|_| format!("{photos:?} is not a number of photos"))?),
        };
        match kind {
            UsageKind::Staging => allowance.staging = setting,
            UsageKind::ImageEditing => allowance.image_editing = setting,
        }
    }
    Ok(allowance)
}

/// The start-up checks `--skip-check` can leave out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SkippableCheck {
    /// `GET /v2/user` with the key: for a service that is down while this server starts.
    Upstream,
    /// The widget's files in --dist: for `cargo xtask dev`, whose widget Trunk builds and serves.
    Widget,
}

/// Who may call `/api`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AccessMode {
    /// Anyone who can connect (loopback addresses only).
    Open,
    /// Callers with a widget token signed with VSTAGE_WIDGET_SECRET.
    Token,
}

/// `vstage serve`'s (and `vstage check`'s) options, in groups: each group's options show under its heading in
/// `--help`, and the configuration file may hold them in a table of the group's name (`[storage]`).
#[derive(Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub serving: ServingOptions,
    #[command(flatten)]
    pub service: ServiceOptions,
    #[command(flatten)]
    pub storage: StorageOptions,
    #[command(flatten)]
    pub access: AccessOptions,
    #[command(flatten)]
    pub limits: LimitOptions,
    #[command(flatten)]
    pub timeouts: TimeOutOptions,
    #[command(flatten)]
    pub events: EventOptions,
    #[command(flatten)]
    pub results: ResultOptions,
    #[command(flatten)]
    pub disclosure: DisclosureOptions,
    #[command(flatten)]
    pub host_webhooks: HostWebhookOptions,
}

/// How this server listens and what it serves.
#[derive(Debug, Args)]
#[command(next_help_heading = "Serving")]
pub struct ServingOptions {
    /// Address to listen on. Port 0 picks a free port (the chosen address is printed).
    #[arg(long, env = "VSTAGE_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The built widget (`cargo xtask run` builds it into `dist/`). By default the widget beside the binary, as
    /// `cargo xtask dist` lays them out (`share/vstage/widget` next to `bin/vstage`), else `dist`.
    #[arg(long, env = "VSTAGE_DIST", default_value_os_t = default_dist())]
    pub dist: PathBuf,
    /// Serve the metrics (Prometheus' text format) at http://ADDRESS/metrics: an address of their own, for the
    /// scraper only. Off without it.
    #[arg(long, env = "VSTAGE_METRICS_LISTEN", value_name = "ADDRESS")]
    pub metrics_listen: Option<SocketAddr>,
    /// The address browsers and the service reach this server at (e.g. https://staging.example.com), used in
    /// upload URLs and as the webhook address. Defaults to the listening address.
    #[arg(long, env = "VSTAGE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Worker threads serving connections, each with its own event loop; defaults to one per core.
    #[arg(long, env = "VSTAGE_WORKERS", value_parser = workers)]
    pub workers: Option<NonZeroUsize>,
    /// A start-up check not to make (repeatable): `upstream` (the service answers and takes the key) or
    /// `widget` (the widget is built in --dist). The database and the store are always checked.
    #[arg(long = "skip-check", env = "VSTAGE_SKIP_CHECK", value_delimiter = ',', value_name = "CHECK")]
    pub skip_checks: Vec<SkippableCheck>,
}

/// The service this server relays to, and how its webhooks are read.
#[derive(Debug, Args)]
#[command(next_help_heading = "Service")]
pub struct ServiceOptions {
    /// The real service's base URL (under which /v2 and /v1 live). Without it, the embedded sandbox is used.
    /// The key is read from the environment variable VSTAGE_API_KEY only, so it never shows in a process list.
    #[arg(long, env = "VSTAGE_UPSTREAM")]
    pub upstream: Option<String>,
    /// The service's direct address for synchronous v2 calls (`wait_for_completion`), which may take longer
    /// than the regular address allows.
    #[arg(long, env = "VSTAGE_DIRECT_SYNC_URL")]
    pub direct_sync_url: Option<String>,
    /// At start, set the service's webhook secret (`POST /v2/user/webhook-secret`) to VSTAGE_WEBHOOK_SECRET, so
    /// that the deliveries it signs verify here. Every server of a deployment may do it: they set the same secret.
    /// (With the embedded sandbox this always happens.)
    #[arg(long, env = "VSTAGE_SET_WEBHOOK_SECRET")]
    pub set_webhook_secret: bool,
    /// The header the service's webhook deliveries carry their signature in. The contract names
    /// X-SERVICE-Signature; the real service's public docs do not confirm a name, so a deployment sets it here.
    #[arg(long, env = "VSTAGE_WEBHOOK_SIGNATURE_HEADER", default_value = vstage_api::signature::HEADER, value_parser = header_name)]
    pub webhook_signature_header: axum::http::HeaderName,
    /// How that signature is written: `hex` (64 hex digits), `sha256-hex` (`sha256=` then hex), `base64`, or
    /// `any` of them.
    #[arg(long, env = "VSTAGE_WEBHOOK_SIGNATURE_ENCODING", default_value = "any")]
    pub webhook_signature_encoding: vstage_api::signature::Encoding,
}

/// Where data is kept: the database, and uploads and results.
#[derive(Debug, Args)]
#[command(next_help_heading = "Storage")]
pub struct StorageOptions {
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// Where uploads and finished results are kept (results outlive the service's addresses): a directory
    /// (default DATA_DIR/uploads and DATA_DIR/results) or s3://bucket/prefix, an S3-compatible store several
    /// servers share (credentials, region and endpoint from the usual AWS_* variables).
    #[arg(long = "storage", env = "VSTAGE_STORAGE", value_name = "DIR|S3_URL")]
    pub objects: Option<String>,
    /// Megabytes of uploads a subject may keep (in open access, all callers together); 0 for no limit.
    #[arg(long, env = "VSTAGE_UPLOAD_QUOTA_MB", default_value_t = 1024)]
    pub upload_quota_mb: u64,
    /// How long uploads are kept before they are removed, e.g. 30d, 12h; 0s to keep them for ever.
    #[arg(long, env = "VSTAGE_UPLOAD_RETENTION", default_value = "30d", value_parser = humantime::parse_duration)]
    pub upload_retention: Duration,
}

/// Who may call /api, and how often.
#[derive(Debug, Args)]
#[command(next_help_heading = "Access")]
pub struct AccessOptions {
    /// `open` (no token; loopback only) or `token` (widget tokens signed with VSTAGE_WIDGET_SECRET).
    #[arg(long, env = "VSTAGE_ACCESS", value_enum, default_value_t = AccessMode::Open)]
    pub access: AccessMode,
    /// A page origin allowed to call /api from another site (CORS), e.g. https://listings.example.com; repeat.
    #[arg(long = "allow-origin", env = "VSTAGE_ALLOW_ORIGIN", value_delimiter = ',')]
    pub allow_origins: Vec<String>,
    /// Requests a minute allowed per subject (per client address in open access); 0 for no limit.
    #[arg(long, env = "VSTAGE_RATE_LIMIT", default_value_t = 600)]
    pub rate_limit: u32,
    /// Calls a subject (a client address in open access) may have under way at once; more are answered 429.
    /// 0 for no limit.
    #[arg(long, env = "VSTAGE_MAX_IN_FLIGHT", default_value_t = 32)]
    pub max_in_flight: usize,
    /// An address whose connections carry many clients (a load balancer, a reverse proxy): not held to
    /// `--max-connections-per-address`; repeat for several.
    #[arg(long = "trusted-proxy", env = "VSTAGE_TRUSTED_PROXY", value_delimiter = ',')]
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

/// What the whole server, one client address and one subject may have at once, and each subject's allowance.
#[derive(Debug, Args)]
#[command(next_help_heading = "Limits")]
pub struct LimitOptions {
    /// Connections served at once; more wait in the system's queue until one closes.
    #[arg(long, env = "VSTAGE_MAX_CONNECTIONS", default_value_t = 4096, value_parser = at_most::<1, MOST_CONNECTIONS>)]
    pub max_connections: usize,
    /// Connections one client address may hold at once; more are answered 429 and closed. A load balancer's
    /// address (`--trusted-proxy`) is not counted. 0 for no limit.
    #[arg(long, env = "VSTAGE_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 64)]
    pub max_connections_per_address: usize,
    /// Photos each subject may use a period (--allowance-period), per kind: `staging=30,image-editing=100`; a kind
    /// left out is not limited. A subject's own (`vstage allowance set`) comes first. None by default.
    #[arg(long, env = "VSTAGE_ALLOWANCE", value_parser = allowance_limits, default_value = "")]
    pub allowance: Limits,
    /// How long an allowance lasts, in UTC: `month` (a calendar month), `month:D` (from day D, 1 to 28, of each
    /// month), `week` (from Monday) or `day`. Servers sharing a database must be given the same.
    #[arg(long, env = "VSTAGE_ALLOWANCE_PERIOD", value_parser = AllowancePeriod::parse, default_value = "month")]
    pub allowance_period: AllowancePeriod,
}

/// How long a client may take, and the least it must move.
#[derive(Debug, Args)]
#[command(next_help_heading = "Time-outs")]
pub struct TimeOutOptions {
    /// Seconds a client has to send a request's headers, counted from when the connection is ready for one: it
    /// also closes kept-alive connections idle that long. Stops clients that hold connections open by sending
    /// slowly. 0 for no limit.
    #[arg(long, env = "VSTAGE_HEADER_TIMEOUT_S", default_value_t = 30, value_parser = clap::value_parser!(u64).range(0..=A_DAY_S))]
    pub header_timeout_s: u64,
    /// Seconds a client has to send a request's whole body (uploads have `--upload-timeout-s`): a body sent
    /// slowly is answered 408 instead of holding the connection. 0 for no limit.
    #[arg(long, env = "VSTAGE_BODY_TIMEOUT_S", default_value_t = 60, value_parser = clap::value_parser!(u64).range(0..=A_DAY_S))]
    pub body_timeout_s: u64,
    /// Seconds an upload's whole body may take (a photo of up to 25 MB on a slow connection); 408 after that.
    /// 0 for no limit.
    #[arg(long, env = "VSTAGE_UPLOAD_TIMEOUT_S", default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=A_DAY_S))]
    pub upload_timeout_s: u64,
    /// Seconds an answer may wait for the client to take the next of its bytes: a client that stops reading (a
    /// ZIP, a file, pipelined requests) loses its connection, and the work for it stops. 0 for no limit.
    #[arg(long, env = "VSTAGE_SEND_TIMEOUT_S", default_value_t = 30, value_parser = clap::value_parser!(u64).range(0..=A_DAY_S))]
    pub send_timeout_s: u64,
    /// The least a request's body, or an answer, must move once it waits for the client: fewer bytes than this in
    /// a window of --transfer-window-s waiting (a body dripped, an answer left unread) and the connection is cut (a
    /// body answered 408), however long its whole time-out. 0 for no least.
    #[arg(long, env = "VSTAGE_MIN_TRANSFER_BYTES", default_value_t = 1024)]
    pub min_transfer_bytes: u64,
    /// Seconds of waiting in which a transfer must move --min-transfer-bytes.
    #[arg(long, env = "VSTAGE_TRANSFER_WINDOW_S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub transfer_window_s: u64,
}

/// The live-event streams.
#[derive(Debug, Args)]
#[command(next_help_heading = "Live events")]
pub struct EventOptions {
    /// Live-event streams a subject may hold open at once.
    #[arg(long, env = "VSTAGE_MAX_EVENT_STREAMS", default_value_t = 32)]
    pub max_event_streams: usize,
    /// Seconds between keep-alive comments on live-event streams.
    #[arg(long, env = "VSTAGE_EVENT_KEEP_ALIVE_S", default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub event_keep_alive_s: u64,
    /// Seconds live events are kept for clients that resume; one that missed older ones is told to reload.
    #[arg(long, env = "VSTAGE_EVENT_WINDOW_S", default_value_t = 24 * 60 * 60)]
    pub event_window_s: u64,
}

/// Finished results kept, and their content credentials.
#[derive(Debug, Args)]
#[command(next_help_heading = "Results")]
pub struct ResultOptions {
    /// Megabytes of kept results a subject may have (in open access, all callers together); 0 for no limit.
    #[arg(long, env = "VSTAGE_RESULTS_QUOTA_MB", default_value_t = 4096)]
    pub results_quota_mb: u64,
    /// How long results are kept, e.g. 365d; 0s to keep them for ever.
    #[arg(long, env = "VSTAGE_RESULTS_RETENTION", default_value = "365d", value_parser = humantime::parse_duration)]
    pub results_retention: Duration,
    /// The certificate chain (PEM, signer first) that signs the content credentials (C2PA) of kept results; with
    /// --c2pa-key. Without both, the server makes its own at first start in --data-dir (trusted by no reader
    /// elsewhere, and each server makes its own: give these where a listing's readers should trust them).
    #[arg(long, env = "VSTAGE_C2PA_CERT", value_name = "PEM", requires = "c2pa_key")]
    pub c2pa_cert: Option<PathBuf>,
    /// The signer's private key for --c2pa-cert, as PKCS#8 PEM.
    #[arg(long, env = "VSTAGE_C2PA_KEY", value_name = "PEM", requires = "c2pa_cert")]
    pub c2pa_key: Option<PathBuf>,
}

/// How chosen results are disclosed.
#[derive(Debug, Args)]
#[command(next_help_heading = "Disclosure")]
pub struct DisclosureOptions {
    /// How a chosen result is disclosed when the widget's `disclosure` attribute names no profile: ab723, crmls,
    /// smart-mls, mls-now, stellar, realtracs, rmls, maar or none (docs/embedding.md).
    #[arg(long, env = "VSTAGE_DISCLOSURE_PROFILE", default_value = "ab723", value_parser = disclosure_profile)]
    pub disclosure_profile: DisclosureProfile,
    /// New results a subject may choose for listings (disclosure records) in any 24 hours; a result chosen again
    /// is not new.
    #[arg(long, env = "VSTAGE_MAX_DISCLOSURES_A_DAY", default_value_t = 1000)]
    pub max_disclosures_a_day: u64,
}

/// The listing site's webhooks.
#[derive(Debug, Args)]
#[command(next_help_heading = "Host webhooks")]
pub struct HostWebhookOptions {
    /// An address of the listing site's backend that the studio's events are posted to, signed to the Standard
    /// Webhooks specification with VSTAGE_HOST_WEBHOOK_SECRET (docs/embedding.md); repeat for several. Private
    /// addresses are allowed: the operator sets them, never a browser or a token.
    #[arg(long = "host-webhook-url", env = "VSTAGE_HOST_WEBHOOK_URL", value_delimiter = ',', value_name = "URL")]
    pub host_webhook_urls: Vec<String>,
    /// The first delay before a host webhook that was not taken is sent again, in milliseconds; it doubles each
    /// time, up to an hour, for three days.
    #[arg(long, env = "VSTAGE_HOST_WEBHOOK_RETRY_MS", default_value_t = 5000)]
    pub host_webhook_retry_ms: u64,
    /// Seconds each host webhook receiver has to answer an attempt; one that does not is tried again later.
    #[arg(long, env = "VSTAGE_HOST_WEBHOOK_TIMEOUT_S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub host_webhook_timeout_s: u64,
    /// Attempts under way at once to each host webhook receiver (each about another render): a receiver that
    /// hangs holds at most this many of its own, and delays no other receiver.
    #[arg(long, env = "VSTAGE_HOST_WEBHOOK_CONCURRENCY", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub host_webhook_concurrency: u64,
}

/// The folder a release lays the widget in beside the binary (`cargo xtask dist`: `bin/vstage` and
/// `share/vstage/widget`), when it holds a widget; otherwise `dist` in the working directory, where `cargo xtask run`
/// and Trunk build it.
fn default_dist() -> PathBuf {
    let beside_the_binary = std::env::current_exe()
        .ok()
        .and_then(|binary| Some(binary.parent()?.parent()?.join(WIDGET_BESIDE_THE_BINARY)))
        .filter(|widget| widget.join("index.html").is_file());
    beside_the_binary.unwrap_or_else(|| PathBuf::from("dist"))
}

/// Where a release keeps the widget, from the folder that holds `bin/`.
pub const WIDGET_BESIDE_THE_BINARY: &str = "share/vstage/widget";

/// Where it listens and what it serves, never `--database`, which may carry a password.
impl std::fmt::Debug for ServeArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let serving = &self.serving;
        f.debug_struct("ServeArgs")
            .field("listen", &serving.listen)
            .field("dist", &serving.dist)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The subject: the host site's id for the person using the widget.
    #[arg(long)]
    pub sub: String,
    /// How long the token is valid, e.g. 15m, 1h, 12h.
    #[arg(long, default_value = "1h", value_parser = humantime::parse_duration)]
    pub ttl: Duration,
    /// The page origin the token may be used from, e.g. https://listings.example.com.
    #[arg(long)]
    pub origin: Option<String>,
    /// Prints a standard JWT (HS256, the origin as `aud`) rather than vstage's own `v1.` token.
    #[arg(long)]
    pub jwt: bool,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    #[arg(long, env = "VSTAGE_SANDBOX_LISTEN", default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,
    /// An account's API key; repeat for more accounts.
    #[arg(
        long = "api-key",
        env = "VSTAGE_SANDBOX_API_KEYS",
        value_delimiter = ',',
        required = true,
        hide_env_values = true
    )]
    pub api_keys: Vec<String>,
    /// Photos each account may process per period, per kind.
    #[arg(long, env = "VSTAGE_SANDBOX_PHOTO_LIMIT", default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_PHOTO_LIMIT)]
    pub photo_limit: u64,
    /// Where the sandbox keeps its database and images; without it, everything is in memory.
    #[arg(long, env = "VSTAGE_SANDBOX_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// How long one variation takes to process, in milliseconds.
    #[arg(long, env = "VSTAGE_SANDBOX_PROCESSING_MS", default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_PROCESSING_MS)]
    pub processing_ms: u64,
    /// The first delay between webhook retries, in milliseconds; it doubles each time.
    #[arg(long, env = "VSTAGE_SANDBOX_WEBHOOK_RETRY_MS", default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_WEBHOOK_RETRY_MS)]
    pub webhook_retry_ms: u64,
    /// The longest a `wait_for_completion` request waits, in seconds.
    #[arg(long, env = "VSTAGE_SANDBOX_SYNC_TIMEOUT_S", default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_SYNC_TIMEOUT_S, value_parser = clap::value_parser!(u64).range(0..=A_DAY_S))]
    pub sync_timeout_s: u64,
    /// The longest a `wait_for_completion` request to the long-running address (`/direct-sync`, what
    /// `vstage serve --direct-sync-url` is pointed at) waits, in seconds.
    #[arg(long, env = "VSTAGE_SANDBOX_DIRECT_SYNC_TIMEOUT_S", default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_DIRECT_SYNC_TIMEOUT_S, value_parser = clap::value_parser!(u64).range(0..=A_DAY_S))]
    pub direct_sync_timeout_s: u64,
    /// An address prefix on this machine or a private network that photos and masks may be fetched from (e.g.
    /// http://127.0.0.1:8080/api/uploads/); repeat for more. Every other address must be public.
    #[arg(long = "local-photos", env = "VSTAGE_SANDBOX_LOCAL_PHOTOS", value_delimiter = ',', value_name = "PREFIX")]
    pub local_photos: Vec<String>,
}

/// `--allowance`'s value: `KIND=PHOTOS` pairs, comma-separated.
fn allowance_limits(text: &str) -> Result<Limits, String> {
    let mut limits = Limits::default();
    for pair in text.split(',').map(str::trim).filter(|pair| !pair.is_empty()) {
        let (kind, photos) = pair.split_once('=').ok_or("write KIND=PHOTOS, e.g. staging=30,image-editing=100")?;
        let kind = UsageKind::parse(kind.trim()).ok_or("the kinds are staging and image-editing")?;
        let photos = photos.trim().parse().map_err(|_| format!("{photos:?} is not a number of photos"))?;
        match kind {
            UsageKind::Staging => limits.staging = Some(photos),
            UsageKind::ImageEditing => limits.image_editing = Some(photos),
        }
    }
    Ok(limits)
}

/// `--disclosure-profile`'s value.
fn disclosure_profile(name: &str) -> Result<DisclosureProfile, String> {
    DisclosureProfile::parse(name).ok_or_else(|| {
        let names: Vec<&str> = DisclosureProfile::ALL.iter().map(|profile| profile.as_str()).collect();
        format!("not a disclosure profile; use one of {}", names.join(", "))
    })
}

/// A header's name, as `--webhook-signature-header` takes it.
fn header_name(name: &str) -> Result<axum::http::HeaderName, String> {
    axum::http::HeaderName::try_from(name).map_err(|_| format!("`{name}` is not an HTTP header name"))
}

/// The longest time-out in seconds an option takes: a day (a longer one is a mistake, and a time that far ahead
/// is past what the clock can add).
const A_DAY_S: u64 = 24 * 60 * 60;
/// The most connections `--max-connections` takes (far more than one machine's file descriptors).
const MOST_CONNECTIONS: usize = 1 << 20;
/// The most worker threads `--workers` takes.
const MOST_WORKERS: usize = 1024;

/// A count from `LEAST` to `MOST`.
fn at_most<const LEAST: usize, const MOST: usize>(text: &str) -> Result<usize, String> {
    let count: usize = text.trim().parse().map_err(|_| format!("{text:?} is not a whole number"))?;
    if (LEAST..=MOST).contains(&count) { Ok(count) } else { Err(format!("{count} is not from {LEAST} to {MOST}")) }
}

/// `--workers`: 1 to `MOST_WORKERS`.
fn workers(text: &str) -> Result<NonZeroUsize, String> {
    at_most::<1, MOST_WORKERS>(text).map(|count| NonZeroUsize::new(count).unwrap_or(NonZeroUsize::MIN))
}

#[cfg(test)]
mod tests {
    use clap::{ArgAction, CommandFactory, Parser};

    use super::Cli;

    /// Options that say what one invocation asks (whose token, which days, which delivery) rather than how a
    /// deployment runs: a variable left set would silently answer the next invocation's question.
    const OF_ONE_INVOCATION: &[(&str, &str)] = &[
        ("token", "sub"),
        ("token", "ttl"),
        ("token", "origin"),
        ("token", "jwt"),
        ("usage", "from"),
        ("usage", "to"),
        ("usage", "format"),
        ("usage", "subject"),
        ("usage", "listing"),
        ("deliveries list", "outcome"),
        ("deliveries list", "limit"),
        ("deliveries retry", "to"),
    ];

    /// The variables that hold secrets: read by the server itself, never an option's.
    const SECRETS: &[&str] =
        &["VSTAGE_API_KEY", "VSTAGE_WIDGET_SECRET", "VSTAGE_WEBHOOK_SECRET", "VSTAGE_HOST_WEBHOOK_SECRET"];

    /// Every option of every command, with the command's path (`deliveries list`) and its long flag.
    fn options() -> Vec<(String, String, clap::Arg)> {
        fn walk(command: &clap::Command, path: &str, found: &mut Vec<(String, String, clap::Arg)>) {
            for arg in command.get_arguments().filter(|arg| !arg.is_positional()) {
                let long = arg.get_long().expect("every option has a long flag").to_string();
                found.push((path.to_string(), long, arg.clone()));
            }
            for sub in command.get_subcommands() {
                let path =
                    if path.is_empty() { sub.get_name().to_string() } else { format!("{path} {}", sub.get_name()) };
                walk(sub, &path, found);
            }
        }
        let mut found = Vec::new();
        walk(&Cli::command(), "", &mut found);
        assert!(found.len() > 60, "the walk found only {} options", found.len());
        found
    }

    fn variable(arg: &clap::Arg) -> Option<String> {
        arg.get_env().map(|name| name.to_string_lossy().into_owned())
    }

    #[test]
    fn times_and_counts_past_what_the_server_can_hold_are_refused_by_name() {
        let huge = u64::MAX.to_string();
        for option in [
            "--header-timeout-s",
            "--body-timeout-s",
            "--upload-timeout-s",
            "--send-timeout-s",
            "--event-keep-alive-s",
            "--max-connections",
            "--workers",
        ] {
            for value in [huge.as_str(), "86401000"] {
                let refused = Cli::try_parse_from(["vstage", "serve", option, value]).unwrap_err().to_string();
                assert!(refused.contains(option) && refused.contains("invalid value"), "{option} {value}: {refused}");
            }
        }
        for option in ["--sync-timeout-s", "--direct-sync-timeout-s"] {
            assert!(Cli::try_parse_from(["vstage", "sandbox", option, &huge]).is_err(), "{option}");
        }
        let taken = Cli::try_parse_from(["vstage", "serve", "--workers", "4", "--header-timeout-s", "86400"]);
        assert!(taken.is_ok(), "{:?}", taken.err());
    }

    #[test]
    fn every_option_has_a_variable_but_those_of_one_invocation() {
        let mut missing = Vec::new();
        for (path, long, arg) in options() {
            let exempt = OF_ONE_INVOCATION.contains(&(path.as_str(), long.as_str()));
            match (variable(&arg), exempt) {
                (None, false) => missing.push(format!("{path} --{long}")),
                (Some(name), true) => panic!("{path} --{long} has {name}: take it off OF_ONE_INVOCATION"),
                (Some(name), false) => assert!(name.starts_with("VSTAGE_"), "{path} --{long}: {name}"),
                (None, true) => {}
            }
        }
        assert!(missing.is_empty(), "give these an `env = \"VSTAGE_...\"`: {missing:?}");
    }

    #[test]
    fn serve_s_variables_are_its_flags_in_capitals() {
        for (path, long, arg) in options() {
            let expected = match (path.as_str(), long.as_str()) {
                (_, "database") => "VSTAGE_DATABASE_URL".to_string(),
                ("sandbox", "api-key") => "VSTAGE_SANDBOX_API_KEYS".to_string(),
                ("sandbox", _) => format!("VSTAGE_SANDBOX_{}", long.to_uppercase().replace('-', "_")),
                (_, _) if variable(&arg).is_none() => continue,
                (_, _) => format!("VSTAGE_{}", long.to_uppercase().replace('-', "_")),
            };
            assert_eq!(variable(&arg).as_deref(), Some(expected.as_str()), "{path} --{long}");
        }
    }

    #[test]
    fn a_variable_means_one_thing_and_never_holds_a_secret() {
        let mut meanings = std::collections::HashMap::new();
        for (path, long, arg) in options() {
            let Some(name) = variable(&arg) else { continue };
            assert!(!SECRETS.contains(&name.as_str()), "{path} --{long} reads the secret {name}");
            let first = meanings.entry(name.clone()).or_insert_with(|| long.clone());
            assert_eq!(*first, long, "{name} is --{first} and --{long} ({path})");
        }
    }

    #[test]
    fn the_deployment_guide_names_every_variable() {
        let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy.md")).unwrap();
        let mut missing = Vec::new();
        for (path, long, arg) in options() {
            let Some(name) = variable(&arg) else { continue };
            if !guide.contains(&format!("`{name}`")) {
                missing.push(name);
            }
            if matches!(path.as_str(), "" | "serve") && !guide.contains(&format!("`--{long}`")) {
                missing.push(format!("--{long}"));
            }
        }
        assert!(missing.is_empty(), "docs/deploy.md's reference leaves out {missing:?}");
    }

    #[test]
    fn a_list_s_variable_is_comma_separated() {
        for (path, long, arg) in options() {
            if matches!(arg.get_action(), ArgAction::Append) && variable(&arg).is_some() {
                assert_eq!(arg.get_value_delimiter(), Some(','), "{path} --{long}");
            }
        }
    }
}
