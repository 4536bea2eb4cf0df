//! What is kept of each request: an id (`X-Request-Id` on the answer; a balancer's own plain id is kept), one log
//! line at info with the route, status and duration, and the request metrics. The line names the route's template,
//! never the path or the query: kept results' links carry their signature there.

use std::borrow::Cow;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::http::{HeaderName, HeaderValue, Method, Request};
use axum::response::Response;
use futures_util::future::BoxFuture;

use crate::metrics::{AnsweredBy, metrics};

pub static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// The longest id taken from a balancer.
const LONGEST_ID: usize = 64;

/// Hands out request ids: a random prefix per process (servers of a deployment differ) and a counter.
#[derive(Debug)]
pub struct RequestIds {
    prefix: String,
    next: AtomicU64,
}

/// A request under way: what its line and metrics need once it is answered.
pub struct OpenRequest {
    id: HeaderValue,
    method: Method,
    api: bool,
    started: Instant,
}

impl RequestIds {
    pub fn new() -> anyhow::Result<Self> {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for request ids: {e}"))?;
        Ok(RequestIds { prefix: hex::encode(bytes), next: AtomicU64::new(1) })
    }

    pub fn begin<B>(&self, request: &Request<B>) -> OpenRequest {
        let given = request.headers().get(&REQUEST_ID).filter(|id| is_plain(id.as_bytes())).cloned();
        let id = given.unwrap_or_else(|| {
            let number = self.next.fetch_add(1, Ordering::Relaxed);
            HeaderValue::from_str(&self.numbered(number)).unwrap_or(HeaderValue::from_static("-"))
        });
        OpenRequest {
            id,
            method: request.method().clone(),
            api: request.uri().path().starts_with("/api/"),
            started: Instant::now(),
        }
    }
}

impl RequestIds {
    /// `PREFIX-NUMBER`, the number in hex, written digit by digit (through the formatter it cost about 800
    /// instructions a request).
    fn numbered(&self, number: u64) -> String {
        let mut id = String::with_capacity(self.prefix.len() + 17);
        id.push_str(&self.prefix);
        id.push('-');
        let digits = (64 - number.leading_zeros()).div_ceil(4).max(1);
        for shift in (0..digits).rev() {
            id.push(char::from(b"0123456789abcdef"[(number >> (shift * 4)) as usize & 0xf]));
        }
        id
    }
}

impl OpenRequest {
    /// Logs and counts the answer, and gives it the request's id.
    pub fn end(self, mut response: Response) -> Response {
        let took = self.started.elapsed();
        let route = match response.extensions().get::<AnsweredBy>() {
            Some(AnsweredBy(route)) => route.clone(),
            None if self.api => Cow::Borrowed("unmatched"),
            None => Cow::Borrowed("static"),
        };
        let status = response.status().as_u16();
        tracing::info!(
            request_id = self.id.to_str().unwrap_or_default(),
            method = self.method.as_str(),
            route = route.as_ref(),
            status,
            ms = took.as_secs_f64() * 1000.0,
            "answered"
        );
        metrics().request(route, &self.method, status, took);
        response.headers_mut().insert(REQUEST_ID.clone(), self.id);
        response
    }
}

/// The request log as a layer around everything the app answers: each request's id, log line and metrics.
#[derive(Debug, Clone)]
pub struct LogLayer(Arc<RequestIds>);

impl LogLayer {
    pub fn new() -> anyhow::Result<Self> {
        Ok(LogLayer(Arc::new(RequestIds::new()?)))
    }
}

impl<S> tower::Layer<S> for LogLayer {
    type Service = Logged<S>;

    fn layer(&self, inner: S) -> Logged<S> {
        Logged { ids: self.0.clone(), inner }
    }
}

/// `inner` with each request logged and counted as it is answered.
#[derive(Debug, Clone)]
pub struct Logged<S> {
    ids: Arc<RequestIds>,
    inner: S,
}

impl<S> tower::Service<axum::extract::Request> for Logged<S>
where
    S: tower::Service<axum::extract::Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::extract::Request) -> Self::Future {
        let open = self.ids.begin(&request);
        let answer = self.inner.call(request);
        Box::pin(async move {
            let Ok(response) = answer.await;
            Ok(open.end(response))
        })
    }
}

/// A balancer's id worth keeping: short, and letters, digits, `-`, `_` and `.` only.
fn is_plain(id: &[u8]) -> bool {
    !id.is_empty()
        && id.len() <= LONGEST_ID
        && id.iter().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_differ_and_a_balancers_plain_id_is_kept() {
        let ids = RequestIds::new().unwrap();
        let request = |id: Option<&str>| {
            let mut request = Request::builder().uri("/api/v2/user");
            if let Some(id) = id {
                request = request.header("x-request-id", id);
            }
            request.body(()).unwrap()
        };
        let (first, second) = (ids.begin(&request(None)).id, ids.begin(&request(None)).id);
        assert_ne!(first, second);
        assert_eq!(ids.begin(&request(Some("nginx-7f3a.1"))).id, "nginx-7f3a.1");
        assert_ne!(ids.begin(&request(Some("<script>"))).id, "<script>", "not taken");
        assert_ne!(ids.begin(&request(Some(&"a".repeat(65)))).id, "a".repeat(65), "not taken");
        for number in [0, 1, 0xf, 0x10, 0xabc, u64::MAX] {
            assert_eq!(ids.numbered(number), format!("{}-{number:x}", ids.prefix));
        }
    }
}
