//! The one HTTP client for calls to the service (or the embedded sandbox): hyper over rustls with the platform's
//! certificate verification, HTTP/1 with pooled connections, no redirects followed, time-outs on connect and call.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct HttpClient {
    inner: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
}

/// A buffered answer: status, content type and body; no other header is kept.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub content_type: Option<HeaderValue>,
    pub body: Bytes,
}

/// Why a call got no answer. Never carries the request (and so never the key).
#[derive(Debug, thiserror::Error)]
pub enum CallFailure {
    #[error("no answer in time")]
    TimedOut,
    #[error("{0}")]
    Unreachable(String),
}

impl HttpClient {
    pub fn new() -> anyhow::Result<Self> {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_connect_timeout(Some(CONNECT_TIMEOUT));
        http.set_nodelay(true);
        let https = HttpsConnectorBuilder::new()
            .try_with_platform_verifier()
            .map_err(|e| anyhow::anyhow!("cannot set up TLS certificate verification: {e}"))?
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        Ok(HttpClient { inner: Client::builder(TokioExecutor::new()).build(https) })
    }

    /// Sends `request` and returns the answer's head with its body still streaming.
    pub async fn send(
        &self,
        request: Request<Full<Bytes>>,
        timeout: Duration,
    ) -> Result<Response<Incoming>, CallFailure> {
        match tokio::time::timeout(timeout, self.inner.request(request)).await {
            Ok(Ok(response)) => Ok(response),
            Ok(Err(error)) => Err(CallFailure::Unreachable(describe(&error))),
            Err(_) => Err(CallFailure::TimedOut),
        }
    }

    /// Sends `request` and reads the whole answer, all within `timeout`.
    pub async fn call(&self, request: Request<Full<Bytes>>, timeout: Duration) -> Result<Answer, CallFailure> {
        let exchange = async {
            let response = self.inner.request(request).await.map_err(|e| CallFailure::Unreachable(describe(&e)))?;
            let status = response.status();
            let content_type = response.headers().get(CONTENT_TYPE).cloned();
            let body = response.into_body().collect().await.map_err(|e| CallFailure::Unreachable(e.to_string()))?;
            Ok(Answer { status, content_type, body: body.to_bytes() })
        };
        tokio::time::timeout(timeout, exchange).await.unwrap_or(Err(CallFailure::TimedOut))
    }
}

/// The error and its causes in one line (hyper's top-level error alone says little).
fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
