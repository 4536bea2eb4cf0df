//! The seam between the client's logic and the HTTP stack: one request in, one response (or failure) out.
//! The browser uses gloo-net (`BrowserTransport`); native code may use reqwest (`NativeTransport`, feature `native`).

use std::future::Future;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Delete => "DELETE",
        }
    }
}

/// What the client asks the transport to send. Its `Debug` hides the `Authorization` value.
#[derive(Clone)]
pub struct HttpRequest {
    pub method: Method,
    pub url: String,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<Vec<u8>>,
    /// The whole call, connection to last byte.
    pub timeout: Duration,
}

impl std::fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(name, value)| (*name, if name.eq_ignore_ascii_case("authorization") { "<redacted>" } else { value }))
            .collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body_bytes", &self.body.as_ref().map(Vec::len))
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// What came back, whatever the status.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    pub status: u16,
    /// The `Retry-After` header as sent, if any.
    pub retry_after: Option<String>,
    /// The `WWW-Authenticate` header as sent, if any (a vstage server says there why it refused a widget token).
    pub www_authenticate: Option<String>,
    /// The `Vstage-Event-Id` header as sent, if any: the live event a stream opened now hears everything after
    /// (a vstage server's `GET /api/usage` says it).
    pub event_id: Option<String>,
    pub body: Vec<u8>,
}

/// A call that got no HTTP answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    Network(String),
    Timeout,
    /// The server answers, but the browser withheld its answer: the server does not allow the page's origin
    /// (CORS). `origin` is the page's. A browser transport cannot tell it from a network failure by itself; the
    /// widget's does, from what the server's `/embed.js` told the page.
    OriginRefused {
        origin: String,
    },
}

/// The platform under the client: sending one request, waiting, and a random number for retry jitter.
/// Futures need not be `Send`: in the browser nothing is.
pub trait Transport {
    fn send(&self, request: HttpRequest) -> impl Future<Output = Result<HttpResponse, TransportError>>;

    /// Waits `duration` (between retries).
    fn sleep(&self, duration: Duration) -> impl Future<Output = ()>;

    /// A random number in `[0, 1)`.
    fn random_unit(&self) -> f64;
}

#[cfg(feature = "browser")]
pub use browser::BrowserTransport;

#[cfg(feature = "browser")]
mod browser {
    use super::*;
    use futures_util::future::{Either, select};
    use gloo_net::http::RequestBuilder;
    use gloo_timers::future::TimeoutFuture;

    /// `fetch` through gloo-net, aborted when the time limit passes.
    #[derive(Debug, Clone, Copy, Default)]
    pub struct BrowserTransport;

    impl Transport for BrowserTransport {
        async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
            let controller = web_sys::AbortController::new().map_err(|_| network("AbortController unavailable"))?;
            let mut builder = RequestBuilder::new(&request.url)
                .method(match request.method {
                    Method::Get => gloo_net::http::Method::GET,
                    Method::Post => gloo_net::http::Method::POST,
                    Method::Delete => gloo_net::http::Method::DELETE,
                })
                .abort_signal(Some(&controller.signal()));
            for (name, value) in &request.headers {
                builder = builder.header(name, value);
            }
            let built = match request.body {
                Some(body) => builder.body(js_body(&body)),
                None => builder.build(),
            }
            .map_err(|e| network(&e.to_string()))?;

            let exchange = async move {
                let response = built.send().await.map_err(|e| network(&e.to_string()))?;
                let status = response.status();
                let retry_after = response.headers().get("retry-after");
                let www_authenticate = response.headers().get("www-authenticate");
                let event_id = response.headers().get("vstage-event-id");
                let body = response.binary().await.map_err(|e| network(&e.to_string()))?;
                Ok(HttpResponse { status, retry_after, www_authenticate, event_id, body })
            };
            let limit = TimeoutFuture::new(request.timeout.as_millis().min(u32::MAX as u128) as u32);
            match select(Box::pin(exchange), limit).await {
                Either::Left((result, _)) => result,
                Either::Right(((), _)) => {
                    controller.abort();
                    Err(TransportError::Timeout)
                }
            }
        }

        async fn sleep(&self, duration: Duration) {
            TimeoutFuture::new(duration.as_millis().min(u32::MAX as u128) as u32).await;
        }

        fn random_unit(&self) -> f64 {
            js_sys::Math::random()
        }
    }

    fn js_body(bytes: &[u8]) -> js_sys::Uint8Array {
        js_sys::Uint8Array::from(bytes)
    }

    fn network(detail: &str) -> TransportError {
        TransportError::Network(detail.to_string())
    }
}

#[cfg(feature = "native")]
pub use native::NativeTransport;

#[cfg(feature = "native")]
mod native {
    use super::*;

    /// reqwest, for native tools and tests.
    #[derive(Debug, Clone, Default)]
    pub struct NativeTransport {
        client: reqwest::Client,
    }

    impl Transport for NativeTransport {
        async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
            let method = match request.method {
                Method::Get => reqwest::Method::GET,
                Method::Post => reqwest::Method::POST,
                Method::Delete => reqwest::Method::DELETE,
            };
            let mut builder = self.client.request(method, &request.url).timeout(request.timeout);
            for (name, value) in request.headers {
                builder = builder.header(name, value);
            }
            if let Some(body) = request.body {
                builder = builder.body(body);
            }
            let response = builder.send().await.map_err(classify)?;
            let status = response.status().as_u16();
            let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
            let retry_after = header(reqwest::header::RETRY_AFTER);
            let www_authenticate = header(reqwest::header::WWW_AUTHENTICATE);
            let event_id = header(reqwest::header::HeaderName::from_static("vstage-event-id"));
            let body = response.bytes().await.map_err(classify)?.to_vec();
            Ok(HttpResponse { status, retry_after, www_authenticate, event_id, body })
        }

        async fn sleep(&self, duration: Duration) {
            tokio::time::sleep(duration).await;
        }

        fn random_unit(&self) -> f64 {
            fastrand::f64()
        }
    }

    fn classify(error: reqwest::Error) -> TransportError {
        if error.is_timeout() { TransportError::Timeout } else { TransportError::Network(error.to_string()) }
    }
}
