//! The `/api` proxy: an explicit allow-list of the contract's endpoints, forwarded with the key added.
//! Nothing from the browser but the body, the query and `Accept`/`Content-Type` reaches the service; path
//! parameters are checked, bodies capped, redirects not followed, and upstream failures become 502/504.
//! With widget tokens, each subject reaches only the renders it created.

pub mod addresses;
pub mod listing;
pub mod query;

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::{ACCEPT, AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, Method};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, Limited};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC};
use serde_json::Value;

use crate::access::{Admitted, Gate, Subject};
use crate::error::ServerError;
use crate::live::events::Events;
use crate::live::webhooks::{WebhookSecret, resource_key};
use crate::proxy::query::Query;
use crate::results::kept::KeptResults;
use crate::storage::ownership::{Kind, Ownership};
use crate::upstream::Upstream;
use crate::upstream::http_client::{Answer, CallFailure, HttpClient, Outgoing};

/// A whole call may take a while, a waiting one longer (connecting is limited in `http_client`).
const GET_TIMEOUT: Duration = Duration::from_secs(30);
/// Long enough for `wait_for_completion` on the regular address (the service answers within 60 s).
const POST_TIMEOUT: Duration = Duration::from_secs(90);
/// Waiting calls sent to `--direct-sync-url`, which has no 60 s limit.
const DIRECT_SYNC_TIMEOUT: Duration = Duration::from_secs(600);
/// JSON bodies; the v1 create may carry a photo as multipart.
const JSON_BODY_LIMIT: usize = 1024 * 1024;
const UPLOAD_BODY_LIMIT: usize = 26 * 1024 * 1024;

/// What the proxy does around an endpoint besides forwarding it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Account-wide reads: status, v1 options.
    Plain,
    /// `GET /v2/user`, `GET /v1/ping`: with tokens, usage without the operator's email and uid.
    Account,
    /// Setting or removing the webhook secret: the operator's business, refused with widget tokens; the
    /// receiver adopts the new secret so verification keeps working.
    WebhookSecret,
    /// `GET /v2/renders`: with tokens, the subject's own renders.
    ListRenders,
    /// Creates renders (the response's `id`, or `renders[].id` in bulk): recorded; our receiver as `webhook_url`.
    CreateRenders,
    /// A path `{render_id}` that must be the subject's.
    OnRender,
    /// A body `renders[].render_id` that must all be the subject's.
    AddInBulk,
    /// `POST /v2/analyze`: the analysis `id` recorded; our receiver as `webhook_url`.
    Analyze,
    /// `POST /v1/render/create`: the `render_id` recorded.
    V1Create,
    /// A v1 query `render_id` that must be the subject's.
    V1OnRender,
}

impl Rule {
    /// Whether a successful answer is recorded (creations) or followed (the webhook secret) by `after_success`.
    fn follows_success(self) -> bool {
        matches!(self, Rule::CreateRenders | Rule::Analyze | Rule::V1Create | Rule::WebhookSecret)
    }
}

/// Every endpoint of API.md: method, path (with `{param}`s), the largest body it takes, and its rule; split into
/// segments on first use.
static ENDPOINTS: LazyLock<Vec<Endpoint>> = LazyLock::new(|| {
    [
        (Method::GET, "/v2/status", 0, Rule::Plain),
        (Method::GET, "/v2/user", 0, Rule::Account),
        (Method::POST, "/v2/user/webhook-secret", JSON_BODY_LIMIT, Rule::WebhookSecret),
        (Method::DELETE, "/v2/user/webhook-secret", 0, Rule::WebhookSecret),
        (Method::GET, "/v2/renders", 0, Rule::ListRenders),
        (Method::POST, "/v2/renders", JSON_BODY_LIMIT, Rule::CreateRenders),
        (Method::POST, "/v2/renders/bulk", JSON_BODY_LIMIT, Rule::CreateRenders),
        (Method::POST, "/v2/renders/variations/bulk", JSON_BODY_LIMIT, Rule::AddInBulk),
        (Method::GET, "/v2/renders/{render_id}", 0, Rule::OnRender),
        (Method::POST, "/v2/renders/{render_id}/variations", JSON_BODY_LIMIT, Rule::OnRender),
        (Method::GET, "/v2/renders/{render_id}/variations/{variation_id}", 0, Rule::OnRender),
        (Method::POST, "/v2/analyze", JSON_BODY_LIMIT, Rule::Analyze),
        (Method::GET, "/v1/ping", 0, Rule::Account),
        (Method::GET, "/v1/options", 0, Rule::Plain),
        (Method::POST, "/v1/render/create", UPLOAD_BODY_LIMIT, Rule::V1Create),
        (Method::GET, "/v1/render", 0, Rule::V1OnRender),
        (Method::POST, "/v1/render/create-variation", JSON_BODY_LIMIT, Rule::V1OnRender),
    ]
    .iter()
    .map(Endpoint::new)
    .collect()
});

#[derive(Debug)]
pub struct Proxy {
    pub upstream: Arc<Upstream>,
    /// This worker's connections to the service.
    pub http: HttpClient,
    /// Who may call (open or tokens), and how often.
    pub gate: Arc<Gate>,
    pub ownership: Ownership,
    pub events: Arc<Events>,
    pub webhook_secret: Arc<WebhookSecret>,
    /// Our receiver's address, put in creations that name none; `None` when the service could not reach it.
    pub webhook_url: Option<String>,
    /// This server's public address: its uploads and sandbox images are fine to hand the service.
    pub public_url: String,
    /// How long a request's whole body may take to arrive (`--body-timeout-s`).
    pub body_timeout: Option<Duration>,
    /// Finished results copied into this server's storage; their addresses replace the service's in answers.
    pub kept: Arc<KeptResults>,
}

/// A path's parameters, in order: the template's name and the decoded value.
type Params = Vec<(&'static str, String)>;

/// The most segments and parameters a contract path has (`/v2/renders/{render_id}/variations/{variation_id}`).
const MAX_SEGMENTS: usize = 5;
const MAX_PARAMS: usize = 2;

/// What a parameter may hold unencoded in the upstream path: the URL's unreserved characters. Anything else is
/// percent-encoded, so a parameter is always exactly one segment.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// What the browser sent that may go on: method, the query as the proxy encoded it again (see `query`),
/// headers to pick from, and the body.
struct Incoming<'a> {
    method: Method,
    query: &'a Query,
    headers: &'a HeaderMap,
    body: Bytes,
}

/// One call as it will go upstream.
struct Call<'a> {
    method: Method,
    path: &'a str,
    query: Option<&'a str>,
    headers: &'a HeaderMap,
    body: Bytes,
}

/// The routes that forward to the service, matched on a request before the app's router sees it: they are the hot
/// path, and a walk over the endpoints' segments costs less than the general router (see `serving`).
#[derive(Debug, Clone)]
pub struct Routes {
    proxy: Arc<Proxy>,
}

impl Routes {
    pub fn new(proxy: Arc<Proxy>) -> Self {
        Routes { proxy }
    }

    /// The answer to `request` if its path is one of the contract's endpoints; otherwise the request, untouched
    /// (handed back whole, so the router can take it).
    #[allow(clippy::result_large_err)]
    pub fn route<B>(
        &self,
        request: axum::http::Request<B>,
    ) -> Result<impl Future<Output = Response> + Send + 'static, axum::http::Request<B>>
    where
        B: hyper::body::Body<Data = Bytes> + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let path = request.uri().path().strip_prefix("/api").and_then(split_path);
        let Some((segments, count)) = path else { return Err(request) };
        // The methods of the endpoints with this path's shape, for a 405 when none is the request's.
        let mut other_methods = Vec::new();
        let mut found = None;
        for endpoint in ENDPOINTS.iter() {
            if let Some(params) = endpoint.params(&segments[..count]) {
                if endpoint.method == request.method() {
                    found = Some((endpoint, params));
                    break;
                }
                other_methods.push(endpoint.method.as_str());
            }
        }
        let proxy = self.proxy.clone();
        if found.is_none() && other_methods.is_empty() {
            return Err(request);
        }
        Ok(async move {
            let Some((endpoint, params)) = found else {
                let (path, method) = (request.uri().path(), request.method());
                let allow = other_methods.join(", ");
                let message = format!("{path} does not take {method}, only {allow}; check the method.");
                return ServerError::MethodNotAllowed { message, allow }.into_response();
            };
            let (parts, body) = request.into_parts();
            let forwarded = async {
                // Who is calling is settled before a byte of the body is read.
                let Admitted { subject, slot } = proxy.gate.admit(&parts)?;
                // Most calls are GETs, with nothing to collect.
                let body = if body.is_end_stream() {
                    Bytes::new()
                } else {
                    let collect = Limited::new(body, endpoint.body_limit).collect();
                    let collected = match proxy.body_timeout {
                        Some(limit) => tokio::time::timeout(limit, collect).await.map_err(|_| {
                            ServerError::BodyTimeout(format!(
                                "The request body did not arrive within {} s; send it again.",
                                limit.as_secs()
                            ))
                        })?,
                        None => collect.await,
                    };
                    match collected {
                        Ok(collected) => collected.to_bytes(),
                        Err(_) => {
                            return Err(ServerError::TooLarge(format!(
                                "The request body is over {} KiB; send less.",
                                endpoint.body_limit / 1024
                            )));
                        }
                    }
                };
                let query = Query::parse(parts.uri.query().unwrap_or_default())?;
                let params = params?;
                let handled = async move {
                    let call = Incoming { method: parts.method.clone(), query: &query, headers: &parts.headers, body };
                    let answer = proxy.handle(endpoint, &subject, &params, call).await;
                    // In flight until it ends, with or without its browser.
                    drop(slot);
                    answer
                };
                if !endpoint.rule.follows_success() {
                    return handled.await;
                }
                // A creation or a secret change runs to its end on its own, record included, even when the
                // browser goes away mid-call: the service has charged for it, or now signs with the new secret.
                tokio::spawn(handled)
                    .await
                    .unwrap_or_else(|e| Err(ServerError::Internal(format!("a forwarded call stopped: {e}"))))
            };
            forwarded.await.unwrap_or_else(IntoResponse::into_response)
        })
    }
}

/// One endpoint of the allow-list, its path split into segments once.
#[derive(Debug)]
struct Endpoint {
    method: Method,
    segments: Vec<Segment>,
    /// The largest request body it takes.
    body_limit: usize,
    rule: Rule,
}

#[derive(Debug)]
enum Segment {
    Literal(&'static str),
    /// `{name}`.
    Param(&'static str),
}

impl Endpoint {
    fn new(&(ref method, template, body_limit, rule): &(Method, &'static str, usize, Rule)) -> Self {
        let segments = template
            .split('/')
            .skip(1)
            .map(|segment| match segment.strip_prefix('{').and_then(|name| name.strip_suffix('}')) {
                Some(name) => Segment::Param(name),
                None => Segment::Literal(segment),
            })
            .collect();
        Endpoint { method: method.clone(), segments, body_limit, rule }
    }

    /// The parameters of a path with these segments (see `split_path`), percent-decoded, if it has this
    /// endpoint's shape: whole segments, no empty parameter. Nothing is decoded unless the whole path matches.
    fn params(&self, path: &[&str]) -> Option<Result<Params, ServerError>> {
        if path.len() != self.segments.len() {
            return None;
        }
        let mut raw = [("", ""); MAX_PARAMS];
        let mut count = 0;
        for (segment, given) in self.segments.iter().zip(path) {
            match *segment {
                Segment::Literal(literal) if literal == *given => {}
                Segment::Param(name) if !given.is_empty() => {
                    *raw.get_mut(count)? = (name, *given);
                    count += 1;
                }
                _ => return None,
            }
        }
        Some(
            raw[..count]
                .iter()
                .map(|&(name, raw)| match percent_encoding::percent_decode_str(raw).decode_utf8() {
                    Ok(value) => Ok((name, value.into_owned())),
                    Err(_) => Err(ServerError::BadRequest(format!("{name}: not valid UTF-8 once decoded"))),
                })
                .collect(),
        )
    }

    /// The upstream path: these segments with each parameter (from `params`) checked and percent-encoded.
    fn upstream_path(&self, params: &Params) -> Result<String, ServerError> {
        let mut path = String::with_capacity(64);
        let mut values = params.iter();
        for segment in &self.segments {
            path.push('/');
            match *segment {
                Segment::Literal(literal) => path.push_str(literal),
                Segment::Param(name) => {
                    let Some((_, value)) = values.next().filter(|(given, _)| *given == name) else {
                        return Err(ServerError::Internal(format!("no {{{name}}} among the parameters")));
                    };
                    vstage_api::validate::id(name, value)
                        .map_err(|e| ServerError::BadRequest(format!("{name}: {e}")))?;
                    path.extend(percent_encoding::utf8_percent_encode(value, SEGMENT));
                }
            }
        }
        Ok(path)
    }
}

/// The segments of `path` after its leading slash, when it has at most `MAX_SEGMENTS` of them. A byte scan:
/// paths are short, and `str::split` costs more to set up than it takes.
fn split_path(path: &str) -> Option<([&str; MAX_SEGMENTS], usize)> {
    let rest = path.strip_prefix('/')?;
    let mut segments = [""; MAX_SEGMENTS];
    let mut count = 0;
    let mut start = 0;
    let slashes = rest.bytes().enumerate().filter(|&(_, byte)| byte == b'/').map(|(at, _)| at);
    for end in slashes.chain([rest.len()]) {
        *segments.get_mut(count)? = &rest[start..end];
        count += 1;
        start = end + 1;
    }
    Some((segments, count))
}

impl Proxy {
    async fn handle(
        &self,
        endpoint: &Endpoint,
        subject: &Subject,
        params: &Params,
        incoming: Incoming<'_>,
    ) -> Result<Response, ServerError> {
        let rule = endpoint.rule;
        let path = endpoint.upstream_path(params)?;
        let tokens = subject.by_token();
        let Incoming { method, query, headers, mut body } = incoming;
        if tokens && method != Method::GET {
            self.refuse_private_addresses(&body, query)?;
        }
        match rule {
            Rule::Plain | Rule::Account => {}
            Rule::WebhookSecret if tokens => {
                return Err(ServerError::Forbidden(
                    "The webhook secret is managed by the server's operator, not from the widget.".into(),
                ));
            }
            Rule::WebhookSecret => {}
            Rule::ListRenders if tokens => {
                let get = |path: String, query: String| async move {
                    let mut answer = self.get(&path, &query).await?;
                    if answer.status.is_success() {
                        answer.body = self.kept.in_answer(answer.body, subject.as_str()).await;
                    }
                    Ok(answer)
                };
                return Box::pin(listing::page(&self.ownership, Kind::Render, subject, query.encoded(), get)).await;
            }
            Rule::ListRenders => {}
            Rule::CreateRenders | Rule::Analyze => {
                let kind = if rule == Rule::Analyze { Kind::Analysis } else { Kind::Render };
                body = Box::pin(self.with_webhook_url(body, kind, subject)).await?;
            }
            Rule::OnRender if tokens => {
                let render_id = params.iter().find(|(name, _)| *name == "render_id").map(|(_, id)| id.clone());
                let render_id = render_id.unwrap_or_default();
                Box::pin(self.require_owner(Kind::Render, vec![render_id], subject)).await?;
            }
            Rule::AddInBulk if tokens => {
                let ids = json_field(&body, "renders")
                    .as_ref()
                    .and_then(Value::as_array)
                    .map(|entries| {
                        entries.iter().filter_map(|e| e.get("render_id")?.as_str().map(str::to_string)).collect()
                    })
                    .unwrap_or_default();
                Box::pin(self.require_owner(Kind::Render, ids, subject)).await?;
            }
            Rule::V1OnRender if tokens => {
                let render_id = query.get("render_id").unwrap_or_default().to_string();
                Box::pin(self.require_owner(Kind::V1Render, vec![render_id], subject)).await?;
            }
            Rule::OnRender | Rule::AddInBulk | Rule::V1Create | Rule::V1OnRender => {}
        }
        let sent_secret = (rule == Rule::WebhookSecret && method == Method::POST)
            .then(|| json_field(&body, "webhook_secret").as_ref().and_then(Value::as_str).map(str::to_string))
            .flatten();
        let call = Call { method: method.clone(), path: &path, query: Some(query.encoded()), headers, body };
        let mut answer = self.send(call).await?;
        if rule.follows_success() && answer.status.is_success() {
            Box::pin(self.after_success(rule, &method, sent_secret, &answer.body, subject)).await?;
        }
        if rule == Rule::Account && tokens {
            answer.body = without_identity(answer.body);
        }
        // What was read about renders shows their kept copies (and has the finished ones copied).
        if method == Method::GET && matches!(rule, Rule::ListRenders | Rule::OnRender) && answer.status.is_success() {
            answer.body = self.kept.in_answer(answer.body, subject.as_str()).await;
        }
        Ok(relay(answer))
    }

    /// Sends one call to the service (or to `--direct-sync-url` when it waits for completion).
    async fn send(&self, call: Call<'_>) -> Result<Answer, ServerError> {
        let waits = call.path.starts_with("/v2/")
            && json_field(&call.body, "wait_for_completion").as_ref().and_then(Value::as_bool) == Some(true);
        let (base, timeout) = match self.upstream.direct_sync().filter(|_| waits) {
            Some(base) => (base, DIRECT_SYNC_TIMEOUT),
            None => (self.upstream.base(), if call.method == Method::GET { GET_TIMEOUT } else { POST_TIMEOUT }),
        };
        // The path is the allow-list's, its parameters encoded: only the query can make the target unsendable.
        let target = base.target(call.path, call.query.filter(|query| !query.is_empty())).map_err(|_| {
            ServerError::BadRequest("The query string has characters that are not allowed; encode it.".into())
        })?;
        let mut request = Outgoing { body: call.body, ..Outgoing::new(call.method, target) };
        request.headers.insert(AUTHORIZATION, self.upstream.key().authorization());
        for name in [ACCEPT, CONTENT_TYPE] {
            if let Some(value) = call.headers.get(&name) {
                request.headers.insert(name, value.clone());
            }
        }
        let answer = self
            .http
            .call(base.origin(), request, &[CONTENT_TYPE], timeout)
            .await
            .map_err(|failure| upstream_failure(call.path, failure))?;
        if answer.status.is_redirection() {
            tracing::warn!(status = %answer.status, path = call.path, "the service answered with a redirect; not followed");
            return Err(ServerError::BadGateway(
                "The staging service answered unexpectedly. Try again in a moment.".into(),
            ));
        }
        if !relayable(&answer) {
            // A proxy's error page, say: served under the widget's origin it would be a page of ours.
            tracing::warn!(status = %answer.status, path = call.path, "the service answered neither JSON nor an image");
            return Err(ServerError::BadGateway(
                "The staging service answered with something other than data. Try again in a moment.".into(),
            ));
        }
        Ok(answer)
    }

    /// A GET of the service, for the server's own use (the subject's render list).
    pub async fn get(&self, path: &str, query: &str) -> Result<Answer, ServerError> {
        self.send(Call {
            method: Method::GET,
            path,
            query: Some(query),
            headers: &HeaderMap::new(),
            body: Bytes::new(),
        })
        .await
    }

    /// The body with our receiver as `webhook_url`, unless the operator's caller named one (or the body is not an
    /// object). A widget token's holder never chooses where deliveries signed with the account's secret go: its
    /// `webhook_url` is replaced by ours, or removed when the service cannot reach us. Our address names the
    /// creation, remembered with its subject before it is sent: the service's deliveries then tell any server whose
    /// it is, even when this one stops before recording the answer.
    async fn with_webhook_url(&self, body: Bytes, kind: Kind, subject: &Subject) -> Result<Bytes, ServerError> {
        let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(&body) else { return Ok(body) };
        let named = object.get("webhook_url").is_some_and(|value| !value.is_null());
        match &self.webhook_url {
            _ if named && !subject.by_token() => return Ok(body),
            Some(ours) => {
                let creation = crate::secret::random("crt_")
                    .map_err(|e| ServerError::Internal(format!("no randomness for a creation: {e}")))?;
                self.ownership.started(&creation, kind, subject.as_str()).await?;
                object.insert("webhook_url".into(), Value::String(format!("{ours}?creation={creation}")))
            }
            None if named => object.remove("webhook_url"),
            None => return Ok(body),
        };
        Ok(serde_json::to_vec(&object).map(Bytes::from).unwrap_or(body))
    }

    /// A widget token's holder may not have the service fetch from this machine or a private network (nor send
    /// webhooks there): every `*_url` in the body or the query must be a public address, or this server's own.
    fn refuse_private_addresses(&self, body: &[u8], query: &Query) -> Result<(), ServerError> {
        let mut addresses: Vec<(String, String)> =
            query.pairs().filter(|(name, _)| name.ends_with("_url")).map(|(n, v)| (n.into(), v.into())).collect();
        if let Ok(json) = serde_json::from_slice::<Value>(body) {
            collect_urls(&json, &mut addresses);
        }
        match addresses.into_iter().find(|(_, url)| addresses::is_private(url, &self.public_url)) {
            Some((name, url)) => Err(ServerError::BadRequest(format!(
                "{name} {url} is on this machine or a private network, which the service may not be sent to; give \
                 a public address (or upload the photo)."
            ))),
            None => Ok(()),
        }
    }

    /// Refuses, as if it did not exist, what `subject` did not create.
    pub(crate) async fn require_owner(
        &self,
        kind: Kind,
        ids: Vec<String>,
        subject: &Subject,
    ) -> Result<(), ServerError> {
        if !ids.is_empty() && self.ownership.owns_all(kind, ids.clone(), subject.as_str()).await? {
            return Ok(());
        }
        // Someone else's render looks exactly like a render that does not exist.
        Err(ServerError::NotFound(format!("No render {}; check the address.", ids.first().map_or("", |id| id))))
    }

    /// Records what a successful call created, and follows the webhook secret.
    async fn after_success(
        &self,
        rule: Rule,
        method: &Method,
        sent_secret: Option<String>,
        body: &[u8],
        subject: &Subject,
    ) -> Result<(), ServerError> {
        let created = |field: &str| -> Vec<String> {
            let Ok(answer) = serde_json::from_slice::<Value>(body) else { return Vec::new() };
            let single = answer.get(field).and_then(Value::as_str).map(str::to_string);
            let bulk = answer.get("renders").and_then(Value::as_array).into_iter().flatten();
            single.into_iter().chain(bulk.filter_map(|r| r.get(field)?.as_str().map(str::to_string))).collect()
        };
        let (kind, ids) = match rule {
            Rule::CreateRenders => (Kind::Render, created("id")),
            Rule::Analyze => (Kind::Analysis, created("id")),
            Rule::V1Create => (Kind::V1Render, created("render_id")),
            Rule::WebhookSecret => {
                let adopted = match (method == Method::DELETE, sent_secret) {
                    (true, _) => None,
                    (false, Some(secret)) => Some(secret),
                    (false, None) => return Ok(()),
                };
                let secret = self.webhook_secret.clone();
                // The service has the new secret whatever happens here: a failure to keep it is the operator's
                // to see in the log, not the caller's.
                match tokio::task::spawn_blocking(move || secret.replace(adopted)).await {
                    Ok(Ok(())) => {}
                    Ok(Err(error)) => {
                        tracing::error!("could not keep the new webhook secret in the data dir: {error:#}")
                    }
                    Err(error) => tracing::error!(%error, "keeping the new webhook secret stopped"),
                }
                return Ok(());
            }
            _ => return Ok(()),
        };
        if ids.is_empty() {
            tracing::warn!(?rule, "a successful creation named no id; it cannot be tied to its subject");
            return Ok(());
        }
        self.ownership.record(kind, ids.clone(), subject.as_str()).await?;
        let resources = ids.iter().map(|id| resource_key(kind, id)).collect();
        self.events.claim(resources, subject.as_str()).await
    }
}

/// The service's answer as it came: status, content type and body. No other upstream header is passed on.
pub fn relay(answer: Answer) -> Response {
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() = answer.status;
    // The service's content type (the one header kept of its answer), never cached.
    *response.headers_mut() = answer.headers;
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// What may be relayed as the service's answer: JSON, an image, or no body.
fn relayable(answer: &Answer) -> bool {
    let kind = answer.headers.get(CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or_default();
    let essence = kind.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    answer.body.is_empty()
        || essence == "application/json"
        || essence.ends_with("+json")
        || essence.starts_with("image/")
}

fn json_field(body: &[u8], field: &str) -> Option<Value> {
    if body.is_empty() {
        return None;
    }
    serde_json::from_slice::<Value>(body).ok()?.get(field).cloned()
}

/// Every string under a key ending in `_url`, anywhere in the JSON.
fn collect_urls(json: &Value, found: &mut Vec<(String, String)>) {
    match json {
        Value::Object(object) => {
            for (key, value) in object {
                match value {
                    Value::String(url) if key.ends_with("_url") => found.push((key.clone(), url.clone())),
                    other => collect_urls(other, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_urls(item, found)),
        _ => {}
    }
}

/// `GET /v2/user` or `/v1/ping` for a widget token: usage and limits, without the operator's identity (`user`,
/// v1's `userObj`: email and uid).
fn without_identity(body: Bytes) -> Bytes {
    let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(&body) else { return body };
    object.remove("user");
    object.remove("userObj");
    serde_json::to_vec(&object).map(Bytes::from).unwrap_or(body)
}

fn upstream_failure(path: &str, failure: CallFailure) -> ServerError {
    // The failure carries neither the request nor its headers.
    tracing::warn!(path, error = %failure, "upstream call failed");
    if matches!(failure, CallFailure::TimedOut) {
        ServerError::GatewayTimeout("The staging service did not answer in time. Try again in a moment.".into())
    } else {
        ServerError::BadGateway("The staging service could not be reached. Try again in a moment.".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(template: &'static str) -> Endpoint {
        Endpoint::new(&(Method::GET, template, 0, Rule::Plain))
    }

    fn params(endpoint: &Endpoint, path: &str) -> Option<Result<Params, ServerError>> {
        split_path(path).and_then(|(segments, count)| endpoint.params(&segments[..count]))
    }

    #[test]
    fn paths_match_templates_whole_segments_only() {
        let variation = endpoint("/v2/renders/{render_id}/variations/{variation_id}");
        let found = params(&variation, "/v2/renders/rnd_1/variations/var%5F2").and_then(Result::ok);
        assert_eq!(found, Some(vec![("render_id", "rnd_1".into()), ("variation_id", "var_2".into())]));
        assert!(params(&variation, "/v2/renders/rnd_1/variations").is_none());
        assert!(params(&variation, "/v2/renders/rnd_1/variations/var_2/more").is_none());
        assert!(params(&variation, "/v2/renders//variations/var_2").is_none());
        assert!(params(&variation, "/v2/renders/rnd_1/variation/var_2").is_none());
        assert!(matches!(params(&variation, "/v2/renders/%FF/variations/v"), Some(Err(ServerError::BadRequest(_)))));
        let status = endpoint("/v2/status");
        assert_eq!(params(&status, "/v2/status").and_then(Result::ok), Some(vec![]));
        assert!(params(&status, "/v2/status/").is_none());
        assert!(params(&status, "/v2/stat").is_none());
        assert!(params(&status, "v2/status").is_none());
        assert!(params(&status, "/a/b/c/d/e/f/v2/status").is_none());
    }

    #[test]
    fn upstream_paths_carry_checked_encoded_parameters() {
        let variation = endpoint("/v2/renders/{render_id}/variations/{variation_id}");
        let params = vec![("render_id", "rnd_1.a-b~c".to_string()), ("variation_id", "v 2?x=#y%z".to_string())];
        let path = variation.upstream_path(&params).unwrap();
        assert_eq!(path, "/v2/renders/rnd_1.a-b~c/variations/v%202%3Fx%3D%23y%25z");
        assert_eq!(endpoint("/v2/status").upstream_path(&Vec::new()).unwrap(), "/v2/status");
        let dots = vec![("render_id", "..".to_string())];
        assert!(matches!(endpoint("/v2/renders/{render_id}").upstream_path(&dots), Err(ServerError::BadRequest(_))));
    }

    #[test]
    fn every_url_in_a_body_is_found() {
        let body = serde_json::json!({"image_url": "a", "config": {"mask_url": "b"}, "renders": [{"image_url": "c"}],
                                      "webhook_url": null, "style": "modern"});
        let mut found = Vec::new();
        collect_urls(&body, &mut found);
        let mut urls: Vec<&str> = found.iter().map(|(_, url)| url.as_str()).collect();
        urls.sort();
        assert_eq!(urls, ["a", "b", "c"]);
    }
}
