//! The server's metrics, in Prometheus' text format (OpenMetrics) on an address of their own (`--metrics-listen`,
//! off by default), so that they are never public: requests by route and status, calls to the service by endpoint
//! with their latency, webhooks, live streams and events, kept copies, quota refusals and the database pool.
//!
//! Label values are route and endpoint templates (`/api/v2/renders/{render_id}`) and fixed words only: never a
//! subject, a token or an id. One registry per process, as the log is one: every part counts into it without
//! being handed it.

use std::borrow::Cow;
use std::cell::RefCell;
use std::hash::Hash;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::{Family, MetricConstructor};
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use rustc_hash::FxHashMap;

/// A route template, or a fixed word for what has none (`static`, `unmatched`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct RequestLabels {
    pub route: Cow<'static, str>,
    pub method: &'static str,
    pub status: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct RouteLabels {
    pub route: Cow<'static, str>,
}

/// An endpoint of the contract (its template) and how the call ended: `2xx`, `4xx`, `5xx`, `unreachable` or
/// `timed_out`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct UpstreamLabels {
    pub endpoint: &'static str,
    pub outcome: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct EndpointLabels {
    pub endpoint: &'static str,
}

/// One fixed word.
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct Outcome {
    pub outcome: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct QuotaLabels {
    pub quota: &'static str,
}

/// A kind of usage: `staging` or `image-editing`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct UsageLabels {
    pub kind: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct PoolLabels {
    pub state: &'static str,
}

/// What is counted.
pub struct Metrics {
    registry: Registry,
    /// Which instance this is, for the threads' handles (`Handles`): the process has one, each test its own.
    instance: u64,
    pub requests: Family<RequestLabels, Counter>,
    pub request_seconds: Family<RouteLabels, Histogram>,
    pub upstream_calls: Family<UpstreamLabels, Counter>,
    pub upstream_seconds: Family<EndpointLabels, Histogram>,
    /// `received`, `refused` (signature or age) or `duplicate`.
    pub webhooks: Family<Outcome, Counter>,
    /// Attempts to deliver the host's webhooks, by outcome (`sent`, `retried`, `failed`).
    pub host_webhooks: Family<Outcome, Counter>,
    /// The host's webhooks waiting in the outbox (all servers').
    pub host_webhooks_pending: Gauge,
    pub event_streams_open: Gauge,
    /// Events sent to browsers' streams, one per stream.
    pub events_sent: Counter,
    /// `made` or `failed`.
    pub kept_copies: Family<Outcome, Counter>,
    /// `uploads` or `kept_results`.
    pub quota_refusals: Family<QuotaLabels, Counter>,
    /// PostgreSQL connections by `state`: `open`, `idle` and `max`; read as the metrics are.
    pub database_connections: Family<PoolLabels, Gauge>,
    /// Photos charged to allowances (refunds not taken off), by kind.
    pub photos_charged: Family<UsageLabels, Counter>,
    /// Creations refused because an allowance could not cover them, by kind.
    pub allowance_refusals: Family<UsageLabels, Counter>,
}

fn latency() -> Histogram {
    // 5 ms to about 40 s
    Histogram::new(exponential_buckets(0.005, 2.0, 14))
}

impl Metrics {
    fn new() -> Metrics {
        let mut metrics = Metrics {
            requests: Family::default(),
            request_seconds: Family::new_with_constructor(latency),
            upstream_calls: Family::default(),
            upstream_seconds: Family::new_with_constructor(latency),
            webhooks: Family::default(),
            host_webhooks: Family::default(),
            host_webhooks_pending: Gauge::default(),
            event_streams_open: Gauge::default(),
            events_sent: Counter::default(),
            kept_copies: Family::default(),
            quota_refusals: Family::default(),
            database_connections: Family::default(),
            photos_charged: Family::default(),
            allowance_refusals: Family::default(),
            registry: Registry::with_prefix("vstage"),
            instance: INSTANCES.fetch_add(1, Ordering::Relaxed),
        };
        let registry = &mut metrics.registry;
        registry.register("http_requests", "Requests answered, by route, method and status", metrics.requests.clone());
        registry.register(
            "http_request_duration_seconds",
            "Time to answer a request (to its headers), by route",
            metrics.request_seconds.clone(),
        );
        registry.register(
            "upstream_calls",
            "Calls to the service, by endpoint and outcome",
            metrics.upstream_calls.clone(),
        );
        registry.register(
            "upstream_call_duration_seconds",
            "Time the service took to answer, by endpoint",
            metrics.upstream_seconds.clone(),
        );
        registry.register("webhooks", "Webhook deliveries, by outcome", metrics.webhooks.clone());
        registry.register(
            "host_webhooks",
            "Attempts to deliver the host's webhooks, by outcome",
            metrics.host_webhooks.clone(),
        );
        registry.register(
            "host_webhooks_pending",
            "The host's webhooks waiting to be delivered",
            metrics.host_webhooks_pending.clone(),
        );
        registry.register("event_streams_open", "Live event streams open now", metrics.event_streams_open.clone());
        registry.register("events_sent", "Events sent to live streams", metrics.events_sent.clone());
        registry.register("kept_copies", "Result copies kept, by outcome", metrics.kept_copies.clone());
        registry.register("quota_refusals", "Requests refused by a quota", metrics.quota_refusals.clone());
        registry.register(
            "database_connections",
            "The database pool's connections (PostgreSQL)",
            metrics.database_connections.clone(),
        );
        registry.register("photos_charged", "Photos charged to allowances, by kind", metrics.photos_charged.clone());
        registry.register(
            "allowance_refusals",
            "Creations refused for an allowance, by kind",
            metrics.allowance_refusals.clone(),
        );
        metrics
    }

    /// A request answered. The labels are made without allocating for the proxy's routes (the hot path).
    pub fn request(&self, route: Cow<'static, str>, method: &Method, status: u16, took: Duration) {
        let method = method_label(method);
        self.with_handles(|handles| {
            let requests = RequestLabels { route: route.clone(), method, status };
            handle(&mut handles.requests, &self.requests, requests).inc();
            handle(&mut handles.request_seconds, &self.request_seconds, RouteLabels { route })
                .observe(took.as_secs_f64());
        });
    }

    /// A call to the service's `endpoint` (a template) that ended with `status`, or with no answer.
    pub fn upstream_call(&self, endpoint: &'static str, status: Result<u16, &'static str>, took: Duration) {
        let outcome = match status {
            Ok(200..=299) => "2xx",
            Ok(300..=499) => "4xx",
            Ok(_) => "5xx",
            Err(failure) => failure,
        };
        self.with_handles(|handles| {
            handle(&mut handles.upstream_calls, &self.upstream_calls, UpstreamLabels { endpoint, outcome }).inc();
            if status.is_ok() {
                handle(&mut handles.upstream_seconds, &self.upstream_seconds, EndpointLabels { endpoint })
                    .observe(took.as_secs_f64());
            }
        });
    }

    /// This thread's handles on this instance's metrics (made again when another instance used them last).
    fn with_handles(&self, count: impl FnOnce(&mut Handles)) {
        HANDLES.with_borrow_mut(|handles| {
            if handles.instance != Some(self.instance) {
                *handles = Handles { instance: Some(self.instance), ..Handles::default() };
            }
            count(handles)
        })
    }

    pub fn webhook(&self, outcome: &'static str) {
        self.webhooks.get_or_create(&Outcome { outcome }).inc();
    }

    pub fn kept_copy(&self, made: bool) {
        self.kept_copies.get_or_create(&Outcome { outcome: if made { "made" } else { "failed" } }).inc();
    }

    pub fn photos_charged(&self, kind: &'static str, photos: u64) {
        self.photos_charged.get_or_create(&UsageLabels { kind }).inc_by(photos);
    }

    pub fn allowance_refusal(&self, kind: &'static str) {
        self.allowance_refusals.get_or_create(&UsageLabels { kind }).inc();
    }

    pub fn quota_refused(&self, quota: &'static str) {
        self.quota_refusals.get_or_create(&QuotaLabels { quota }).inc();
    }

    /// The text Prometheus scrapes.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// Each thread's handles on the metrics of the families every call counts into (its request, and its call to the
/// service), so that the hot path finds them without the family's lock and its SipHash: four lookups a proxied
/// call. A handle shares its family's count. The keys are templates and fixed words (this module's rule), a
/// bounded set, so a quick hash that is not proof against chosen keys is enough.
#[derive(Default)]
struct Handles {
    /// The `Metrics` the handles are of.
    instance: Option<u64>,
    requests: FxHashMap<RequestLabels, Counter>,
    request_seconds: FxHashMap<RouteLabels, Histogram>,
    upstream_calls: FxHashMap<UpstreamLabels, Counter>,
    upstream_seconds: FxHashMap<EndpointLabels, Histogram>,
}

static INSTANCES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static HANDLES: RefCell<Handles> = RefCell::default();
}

/// The metric of `family` under `labels`, from this thread's `handles` or, the first time, from the family.
fn handle<'a, L, M, C>(handles: &'a mut FxHashMap<L, M>, family: &Family<L, M, C>, labels: L) -> &'a M
where
    L: Clone + Eq + Hash,
    M: Clone,
    C: MetricConstructor<M>,
{
    handles.entry(labels).or_insert_with_key(|labels| family.get_or_create(labels).clone())
}

/// A method as a label: the standard ones by name, any other `other` (the client chooses the method, and a label
/// must not take whatever value a client likes).
fn method_label(method: &Method) -> &'static str {
    const NAMED: [(Method, &str); 7] = [
        (Method::GET, "GET"),
        (Method::POST, "POST"),
        (Method::DELETE, "DELETE"),
        (Method::PUT, "PUT"),
        (Method::PATCH, "PATCH"),
        (Method::HEAD, "HEAD"),
        (Method::OPTIONS, "OPTIONS"),
    ];
    NAMED.iter().find(|(named, _)| named == method).map_or("other", |(_, name)| name)
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

/// The route template a response was answered by, put in its extensions by whoever routed it; the request's
/// metrics are recorded under it.
#[derive(Debug, Clone)]
pub struct AnsweredBy(pub Cow<'static, str>);

/// Middleware for the router: names the response by the route that matched it.
pub async fn by_route(matched: Option<MatchedPath>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    if let Some(matched) = matched {
        response.extensions_mut().insert(AnsweredBy(Cow::Owned(matched.as_str().to_string())));
    }
    response
}

/// `/metrics` on the studio's address: a 404 that says where the metrics are, so that an operator who scrapes the
/// wrong port is told so rather than handed the studio's page.
pub fn elsewhere() -> Router {
    let answer = || async {
        crate::error::ServerError::NotFound(
            "The metrics are not served on this address: start vstage serve with --metrics-listen ADDRESS (for \
             example 127.0.0.1:9464) and scrape /metrics there."
                .into(),
        )
    };
    Router::new().route("/metrics", get(answer))
}

/// `GET /metrics`, for the metrics address only; `pool` reads the database pool's state as it is asked.
pub fn routes(pool: impl Fn() -> Option<PoolState> + Clone + Send + Sync + 'static) -> Router {
    Router::new().route(
        "/metrics",
        get(move || {
            let pool = pool.clone();
            async move {
                if let Some(state) = pool() {
                    let gauge = |state| metrics().database_connections.get_or_create(&PoolLabels { state }).clone();
                    gauge("open").set(state.open as i64);
                    gauge("idle").set(state.idle as i64);
                    gauge("max").set(state.max as i64);
                }
                let content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8";
                ([(header::CONTENT_TYPE, HeaderValue::from_static(content_type))], metrics().render()).into_response()
            }
        }),
    )
}

/// A connection pool's state.
#[derive(Debug, Clone, Copy)]
pub struct PoolState {
    pub open: usize,
    pub idle: usize,
    pub max: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_and_words_are_the_only_label_values() {
        let metrics = Metrics::new();
        metrics.request(Cow::Borrowed("/api/v2/renders/{render_id}"), &Method::GET, 200, Duration::from_millis(12));
        metrics.upstream_call("/v2/renders/{render_id}", Ok(200), Duration::from_millis(8));
        metrics.upstream_call("/v2/renders", Err("unreachable"), Duration::from_millis(1));
        metrics.webhook("refused");
        let text = metrics.render();
        assert!(
            text.contains(
                r#"vstage_http_requests_total{route="/api/v2/renders/{render_id}",method="GET",status="200"} 1"#
            ),
            "{text}"
        );
        assert!(text.contains(r#"vstage_upstream_calls_total{endpoint="/v2/renders",outcome="unreachable"} 1"#));
        assert!(text.contains(r#"vstage_webhooks_total{outcome="refused"} 1"#));
        assert!(text.contains("vstage_upstream_call_duration_seconds_bucket"));
        assert!(text.trim_end().ends_with("# EOF"));
    }

    #[test]
    fn two_instances_on_one_thread_count_apart() {
        let (first, second) = (Metrics::new(), Metrics::new());
        let route = || Cow::Borrowed("/api/v2/renders/{render_id}");
        let took = Duration::from_millis(3);
        first.request(route(), &Method::GET, 200, took);
        second.request(route(), &Method::GET, 200, took);
        first.request(route(), &Method::GET, 200, took);
        let line = |count: u32| {
            format!(
                r#"vstage_http_requests_total{{route="/api/v2/renders/{{render_id}}",method="GET",status="200"}} {count}"#
            )
        };
        assert!(first.render().contains(&line(2)), "{}", first.render());
        assert!(second.render().contains(&line(1)), "{}", second.render());
    }
}
