//! The `/api` proxy: an explicit allow-list of the contract's endpoints, forwarded with the key added.
//! Nothing from the browser but the body and `Accept`/`Content-Type` reaches the service; its failures become 502/504.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::header::{ACCEPT, AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use crate::upstream::Upstream;

/// Connecting to the service must be quick; a whole call may take a while.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

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
        .timeout(CALL_TIMEOUT)
        .build()?;
    let proxy = Arc::new(Proxy { upstream, http });
    Ok(Router::new()
        .route(
            "/v2/status",
            get(|State(p): State<Arc<Proxy>>, h: HeaderMap| async move { p.get("/v2/status", &h).await }),
        )
        .route("/v2/user", get(|State(p): State<Arc<Proxy>>, h: HeaderMap| async move { p.get("/v2/user", &h).await }))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "No such API endpoint on this vstage server.") })
        .with_state(proxy))
}

impl Proxy {
    /// Forwards a GET of a fixed contract path.
    async fn get(&self, path: &'static str, browser_headers: &HeaderMap) -> Response {
        let mut request =
            self.http.get(self.upstream.url(path)).header(AUTHORIZATION, self.upstream.key().authorization());
        if let Some(accept) = browser_headers.get(ACCEPT) {
            request = request.header(ACCEPT, accept);
        }
        match request.send().await {
            Ok(response) => relay(response).await,
            Err(failure) => upstream_failure(path, failure),
        }
    }
}

/// The service's answer, as it came: status, content type and body. No other upstream header is passed on.
async fn relay(response: reqwest::Response) -> Response {
    let status = StatusCode::from_u16(response.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
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
