//! The `/api` proxy: an explicit allow-list of the contract's endpoints, forwarded with the key added.
//! Nothing from the browser but the body, the query and `Accept`/`Content-Type` reaches the service; path
//! parameters are checked, bodies capped, redirects not followed, and upstream failures become 502/504.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::header::{ACCEPT, AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, on};
use serde_json::json;

use crate::upstream::Upstream;

/// Connecting to the service must be quick; a whole call may take a while, a waiting one longer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const GET_TIMEOUT: Duration = Duration::from_secs(30);
/// Long enough for `wait_for_completion` (the service answers within 60 s).
const POST_TIMEOUT: Duration = Duration::from_secs(90);
/// JSON bodies; the v1 create may carry a photo as multipart.
const JSON_BODY_LIMIT: usize = 1024 * 1024;
const UPLOAD_BODY_LIMIT: usize = 26 * 1024 * 1024;

/// Every endpoint of API.md: method, path (with `{param}`s), and the largest body it takes.
const ENDPOINTS: &[(MethodFilter, &str, usize)] = &[
    (MethodFilter::GET, "/v2/status", 0),
    (MethodFilter::GET, "/v2/user", 0),
    (MethodFilter::POST, "/v2/user/webhook-secret", JSON_BODY_LIMIT),
    (MethodFilter::DELETE, "/v2/user/webhook-secret", 0),
    (MethodFilter::GET, "/v2/renders", 0),
    (MethodFilter::POST, "/v2/renders", JSON_BODY_LIMIT),
    (MethodFilter::POST, "/v2/renders/bulk", JSON_BODY_LIMIT),
    (MethodFilter::POST, "/v2/renders/variations/bulk", JSON_BODY_LIMIT),
    (MethodFilter::GET, "/v2/renders/{render_id}", 0),
    (MethodFilter::POST, "/v2/renders/{render_id}/variations", JSON_BODY_LIMIT),
    (MethodFilter::GET, "/v2/renders/{render_id}/variations/{variation_id}", 0),
    (MethodFilter::POST, "/v2/analyze", JSON_BODY_LIMIT),
    (MethodFilter::GET, "/v1/ping", 0),
    (MethodFilter::GET, "/v1/options", 0),
    (MethodFilter::POST, "/v1/render/create", UPLOAD_BODY_LIMIT),
    (MethodFilter::GET, "/v1/render", 0),
    (MethodFilter::POST, "/v1/render/create-variation", JSON_BODY_LIMIT),
];

#[derive(Debug)]
struct Proxy {
    upstream: Arc<Upstream>,
    http: reqwest::Client,
}

/// The routes under `/api`.
pub fn routes(upstream: Arc<Upstream>) -> anyhow::Result<Router> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(CONNECT_TIMEOUT)
        .build()?;
    let proxy = Arc::new(Proxy { upstream, http });
    let mut router = Router::new();
    for &(method, template, body_limit) in ENDPOINTS {
        let handler = move |State(proxy): State<Arc<Proxy>>,
                            Path(params): Path<HashMap<String, String>>,
                            RawQuery(query): RawQuery,
                            method: Method,
                            headers: HeaderMap,
                            body: Bytes| async move {
            proxy.forward(method, template, &params, query.as_deref(), &headers, body).await
        };
        router = router.route(template, on(method, handler).layer(DefaultBodyLimit::max(body_limit.max(1))));
    }
    Ok(router
        .fallback(|| async { error(StatusCode::NOT_FOUND, "No such API endpoint on this vstage server.") })
        .with_state(proxy))
}

impl Proxy {
    async fn forward(
        &self,
        method: Method,
        template: &str,
        params: &HashMap<String, String>,
        query: Option<&str>,
        browser_headers: &HeaderMap,
        body: Bytes,
    ) -> Response {
        let path = match fill(template, params) {
            Ok(path) => path,
            Err(message) => return error(StatusCode::BAD_REQUEST, &message),
        };
        let mut url = self.upstream.url(&path);
        if let Some(query) = query.filter(|q| !q.is_empty()) {
            if !query.bytes().all(|b| b.is_ascii_graphic() && b != b'#') {
                return error(
                    StatusCode::BAD_REQUEST,
                    "The query string has characters that are not allowed; encode it.",
                );
            }
            url = format!("{url}?{query}");
        }
        let timeout = if method == Method::GET { GET_TIMEOUT } else { POST_TIMEOUT };
        let mut request =
            self.http.request(method, &url).timeout(timeout).header(AUTHORIZATION, self.upstream.key().authorization());
        for name in [ACCEPT, CONTENT_TYPE] {
            if let Some(value) = browser_headers.get(&name) {
                request = request.header(name, value);
            }
        }
        if !body.is_empty() {
            request = request.body(body);
        }
        match request.send().await {
            Ok(response) => relay(response).await,
            Err(failure) => upstream_failure(&path, failure),
        }
    }
}

/// The upstream path: the template with each parameter checked and percent-encoded.
fn fill(template: &str, params: &HashMap<String, String>) -> Result<String, String> {
    let mut path = template.to_string();
    for (name, value) in params {
        vstage_api::validate::id(name, value).map_err(|e| format!("{name}: {e}"))?;
        let encoded: String =
            percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string();
        path = path.replace(&format!("{{{name}}}"), &encoded);
    }
    Ok(path)
}

/// The service's answer, as it came: status, content type and body. No other upstream header is passed on.
async fn relay(response: reqwest::Response) -> Response {
    let status = StatusCode::from_u16(response.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    if status.is_redirection() {
        tracing::warn!(%status, "the service answered with a redirect; not followed");
        return error(StatusCode::BAD_GATEWAY, "The staging service answered unexpectedly. Try again in a moment.");
    }
    let content_type = response.headers().get(CONTENT_TYPE).cloned();
    match response.bytes().await {
        Ok(body) => {
            let mut answer = Response::builder().status(status).header(CACHE_CONTROL, "no-store");
            if let Some(content_type) = content_type {
                answer = answer.header(CONTENT_TYPE, content_type);
            }
            answer.body(Body::from(body)).unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response())
        }
        Err(failure) => upstream_failure("(body)", failure),
    }
}

fn upstream_failure(path: &str, failure: reqwest::Error) -> Response {
    let timed_out = failure.is_timeout();
    // reqwest's errors name the URL, never headers, so the key cannot reach the log from here.
    tracing::warn!(path, error = %failure.without_url(), "upstream call failed");
    if timed_out {
        error(StatusCode::GATEWAY_TIMEOUT, "The staging service did not answer in time. Try again in a moment.")
    } else {
        error(StatusCode::BAD_GATEWAY, "The staging service could not be reached. Try again in a moment.")
    }
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "message": message }))).into_response()
}
