//! The `/api` proxy: an explicit allow-list of the contract's endpoints, forwarded with the key added.
//! Nothing from the browser but the body, the query and `Accept`/`Content-Type` reaches the service; path
//! parameters are checked, bodies capped, redirects not followed, and upstream failures become 502/504.
//! With widget tokens, each subject reaches only the renders it created.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::{ACCEPT, AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, Method};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, Full, Limited};
use serde_json::Value;

use crate::access::{Gate, Subject};
use crate::error::ServerError;
use crate::events::Events;
use crate::http_client::{Answer, CallFailure, HttpClient};
use crate::listing;
use crate::ownership::{Kind, Ownership};
use crate::upstream::Upstream;
use crate::webhooks::{WebhookSecret, resource_key};

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
    /// Account-wide reads: status, usage, v1 ping and options.
    Plain,
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

/// Every endpoint of API.md: method, path (with `{param}`s), the largest body it takes, and its rule.
const ENDPOINTS: &[(Method, &str, usize, Rule)] = &[
    (Method::GET, "/v2/status", 0, Rule::Plain),
    (Method::GET, "/v2/user", 0, Rule::Plain),
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
    (Method::GET, "/v1/ping", 0, Rule::Plain),
    (Method::GET, "/v1/options", 0, Rule::Plain),
    (Method::POST, "/v1/render/create", UPLOAD_BODY_LIMIT, Rule::V1Create),
    (Method::GET, "/v1/render", 0, Rule::V1OnRender),
    (Method::POST, "/v1/render/create-variation", JSON_BODY_LIMIT, Rule::V1OnRender),
];

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
}

/// A path's parameters, in order.
type Params = Vec<(String, String)>;

/// What the browser sent that may go on: method, query, headers to pick from, and the body.
struct Incoming<'a> {
    method: Method,
    query: Option<&'a str>,
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
/// path, and a table walk over whole paths (`/api/v2/...`) costs less than the general router (see `serving`).
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
        let Some(contract_path) = request.uri().path().strip_prefix("/api") else { return Err(request) };
        let mut wrong_method = false;
        let mut found = None;
        for endpoint in ENDPOINTS {
            if let Some(params) = match_template(endpoint.1, contract_path) {
                if endpoint.0 == request.method() {
                    found = Some((endpoint, params));
                    break;
                }
                wrong_method = true;
            }
        }
        let proxy = self.proxy.clone();
        let endpoint = match found {
            Some((&(_, template, body_limit, rule), params)) => Some((template, body_limit, rule, params)),
            None if wrong_method => None,
            None => return Err(request),
        };
        Ok(async move {
            let Some((template, body_limit, rule, params)) = endpoint else {
                let refusal = format!("{} does not take {}; check the method.", request.uri().path(), request.method());
                return ServerError::MethodNotAllowed(refusal).into_response();
            };
            let (parts, body) = request.into_parts();
            let forwarded = async {
                let body = match Limited::new(body, body_limit).collect().await {
                    Ok(collected) => collected.to_bytes(),
                    Err(_) => {
                        return Err(ServerError::TooLarge(format!(
                            "The request body is over {} KiB; send less.",
                            body_limit / 1024
                        )));
                    }
                };
                let subject = proxy.gate.admit(&parts)?;
                let call =
                    Incoming { method: parts.method.clone(), query: parts.uri.query(), headers: &parts.headers, body };
                proxy.handle(rule, &subject, template, &params?, call).await
            };
            forwarded.await.unwrap_or_else(IntoResponse::into_response)
        })
    }
}

/// The parameters of `path` if it has the shape of `template` (`/v2/renders/{render_id}`), percent-decoded. One
/// pass over both, which stops at the first difference (most templates differ within a few bytes).
fn match_template(template: &str, path: &str) -> Option<Result<Params, ServerError>> {
    let (pattern, bytes) = (template.as_bytes(), path.as_bytes());
    let (mut at_pattern, mut at_path) = (0, 0);
    let mut raw = Vec::new();
    while at_pattern < pattern.len() {
        if pattern[at_pattern] == b'{' {
            let close = at_pattern + template[at_pattern..].find('}')?;
            let end = path[at_path..].find('/').map_or(path.len(), |slash| at_path + slash);
            if end == at_path {
                return None;
            }
            raw.push((&template[at_pattern + 1..close], &path[at_path..end]));
            (at_pattern, at_path) = (close + 1, end);
        } else if bytes.get(at_path) == Some(&pattern[at_pattern]) {
            (at_pattern, at_path) = (at_pattern + 1, at_path + 1);
        } else {
            return None;
        }
    }
    if at_path != bytes.len() {
        return None;
    }
    Some(
        raw.into_iter()
            .map(|(name, raw)| match percent_encoding::percent_decode_str(raw).decode_utf8() {
                Ok(value) => Ok((name.to_string(), value.into_owned())),
                Err(_) => Err(ServerError::BadRequest(format!("{name}: not valid UTF-8 once decoded"))),
            })
            .collect(),
    )
}

impl Proxy {
    async fn handle(
        &self,
        rule: Rule,
        subject: &Subject,
        template: &str,
        params: &Params,
        incoming: Incoming<'_>,
    ) -> Result<Response, ServerError> {
        let path = fill(template, params)?;
        let tokens = self.gate.access.is_token();
        let Incoming { method, query, headers, mut body } = incoming;
        match rule {
            Rule::Plain => {}
            Rule::WebhookSecret if tokens => {
                return Err(ServerError::Forbidden(
                    "The webhook secret is managed by the server's operator, not from the widget.".into(),
                ));
            }
            Rule::WebhookSecret => {}
            Rule::ListRenders if tokens => return Box::pin(listing::page(self, subject, query)).await,
            Rule::ListRenders => {}
            Rule::CreateRenders | Rule::Analyze => body = self.with_webhook_url(body),
            Rule::OnRender if tokens => {
                let render_id = params.iter().find(|(name, _)| name == "render_id").map(|(_, id)| id.clone());
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
                let render_id = query_param(query.unwrap_or_default(), "render_id").unwrap_or_default();
                Box::pin(self.require_owner(Kind::V1Render, vec![render_id], subject)).await?;
            }
            Rule::OnRender | Rule::AddInBulk | Rule::V1Create | Rule::V1OnRender => {}
        }
        let sent_secret = (rule == Rule::WebhookSecret && method == Method::POST)
            .then(|| json_field(&body, "webhook_secret").as_ref().and_then(Value::as_str).map(str::to_string))
            .flatten();
        let answer = self.send(Call { method: method.clone(), path: &path, query, headers, body }).await?;
        if rule.follows_success() && answer.status.is_success() {
            Box::pin(self.after_success(rule, &method, sent_secret, &answer.body, subject)).await?;
        }
        Ok(relay(answer))
    }

    /// Sends one call to the service (or to `--direct-sync-url` when it waits for completion).
    async fn send(&self, call: Call<'_>) -> Result<Answer, ServerError> {
        let waits = call.path.starts_with("/v2/")
            && json_field(&call.body, "wait_for_completion").as_ref().and_then(Value::as_bool) == Some(true);
        let (mut url, timeout) = match self.upstream.direct_sync_url(call.path).filter(|_| waits) {
            Some(url) => (url, DIRECT_SYNC_TIMEOUT),
            None => (self.upstream.url(call.path), if call.method == Method::GET { GET_TIMEOUT } else { POST_TIMEOUT }),
        };
        if let Some(query) = call.query.filter(|q| !q.is_empty()) {
            if !query.bytes().all(|b| b.is_ascii_graphic() && b != b'#') {
                return Err(ServerError::BadRequest(
                    "The query string has characters that are not allowed; encode it.".into(),
                ));
            }
            url = format!("{url}?{query}");
        }
        let mut request = axum::http::Request::builder()
            .method(call.method)
            .uri(url)
            .header(AUTHORIZATION, self.upstream.key().authorization());
        for name in [ACCEPT, CONTENT_TYPE] {
            if let Some(value) = call.headers.get(&name) {
                request = request.header(name, value);
            }
        }
        let request = request.body(Full::new(call.body)).map_err(|_| {
            ServerError::BadRequest("The request cannot be forwarded as written; check its address.".into())
        })?;
        let answer = self.http.call(request, timeout).await.map_err(|failure| upstream_failure(call.path, failure))?;
        if answer.status.is_redirection() {
            tracing::warn!(status = %answer.status, path = call.path, "the service answered with a redirect; not followed");
            return Err(ServerError::BadGateway(
                "The staging service answered unexpectedly. Try again in a moment.".into(),
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

    /// The body with our receiver as `webhook_url`, unless the caller named one (or the body is not an object).
    fn with_webhook_url(&self, body: Bytes) -> Bytes {
        let Some(webhook_url) = &self.webhook_url else { return body };
        let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(&body) else { return body };
        if object.get("webhook_url").is_some_and(|value| !value.is_null()) {
            return body;
        }
        object.insert("webhook_url".into(), Value::String(webhook_url.clone()));
        serde_json::to_vec(&object).map(Bytes::from).unwrap_or(body)
    }

    async fn require_owner(&self, kind: Kind, ids: Vec<String>, subject: &Subject) -> Result<(), ServerError> {
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
                if *method == Method::DELETE {
                    self.webhook_secret.replace(None);
                } else if sent_secret.is_some() {
                    self.webhook_secret.replace(sent_secret);
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
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(content_type) = answer.content_type {
        headers.insert(CONTENT_TYPE, content_type);
    }
    response
}

/// The upstream path: the template with each parameter checked and percent-encoded.
fn fill(template: &str, params: &Params) -> Result<String, ServerError> {
    let mut path = String::with_capacity(template.len() + 32);
    let mut rest = template;
    for (name, value) in params {
        vstage_api::validate::id(name, value).map_err(|e| ServerError::BadRequest(format!("{name}: {e}")))?;
        let braces = rest.find('{').zip(rest.find('}'));
        let Some((open, close)) = braces.filter(|&(open, close)| &rest[open + 1..close] == name) else {
            return Err(ServerError::Internal(format!("{template} has no {{{name}}} in that place")));
        };
        path.push_str(&rest[..open]);
        path.extend(percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC));
        rest = &rest[close + 1..];
    }
    path.push_str(rest);
    Ok(path)
}

fn json_field(body: &[u8], field: &str) -> Option<Value> {
    if body.is_empty() {
        return None;
    }
    serde_json::from_slice::<Value>(body).ok()?.get(field).cloned()
}

/// One decoded query parameter.
fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key == name).then(|| percent_encoding::percent_decode_str(value).decode_utf8_lossy().into_owned())
    })
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

    #[test]
    fn paths_match_templates_whole_segments_only() {
        let params = |path| match_template("/v2/renders/{render_id}/variations/{variation_id}", path);
        let found = params("/v2/renders/rnd_1/variations/var%5F2").and_then(Result::ok);
        assert_eq!(found, Some(vec![("render_id".into(), "rnd_1".into()), ("variation_id".into(), "var_2".into())]));
        assert!(params("/v2/renders/rnd_1/variations").is_none());
        assert!(params("/v2/renders/rnd_1/variations/var_2/more").is_none());
        assert!(params("/v2/renders//variations/var_2").is_none());
        assert!(params("/v2/renders/rnd_1/variation/var_2").is_none());
        assert!(matches!(params("/v2/renders/%FF/variations/v"), Some(Err(ServerError::BadRequest(_)))));
        assert_eq!(match_template("/v2/status", "/v2/status").and_then(Result::ok), Some(vec![]));
        assert!(match_template("/v2/status", "/v2/status/").is_none());
    }

    #[test]
    fn upstream_paths_carry_checked_encoded_parameters() {
        let params =
            vec![("render_id".to_string(), "rnd_1".to_string()), ("variation_id".to_string(), "v-2".to_string())];
        let path = fill("/v2/renders/{render_id}/variations/{variation_id}", &params).unwrap();
        assert_eq!(path, "/v2/renders/rnd%5F1/variations/v%2D2");
        assert_eq!(fill("/v2/status", &Vec::new()).unwrap(), "/v2/status");
        let dots = vec![("render_id".to_string(), "..".to_string())];
        assert!(matches!(fill("/v2/renders/{render_id}", &dots), Err(ServerError::BadRequest(_))));
    }

    #[test]
    fn query_parameters_are_decoded() {
        assert_eq!(query_param("a=1&render_id=r%5F1", "render_id").as_deref(), Some("r_1"));
        assert_eq!(query_param("a=1", "render_id"), None);
    }
}
