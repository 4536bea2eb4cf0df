//! The one HTTP client for calls to the service (or the embedded sandbox): HTTP/1 over rustls with the platform's
//! certificate verification, kept-alive connections pooled per origin, no redirects followed, time-outs on
//! connect and call. Each serving worker has its own client, so a call and its connection stay on one thread.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::uri::{Authority, Scheme};
use axum::http::{HeaderValue, Request, Response, StatusCode, Uri};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use tower::ServiceExt;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Idle connections kept per origin; more are closed once their call is done.
const MAX_IDLE_PER_ORIGIN: usize = 64;

#[derive(Debug, Clone)]
pub struct HttpClient {
    connector: HttpsConnector<HttpConnector>,
    /// Connections not in use, by origin (the proxy talks to one or two).
    idle: Arc<Mutex<Vec<OriginPool>>>,
}

/// Where calls go: scheme and host, parsed once, with the `Host` header that names them.
#[derive(Debug, Clone)]
pub struct Origin {
    scheme: Scheme,
    authority: Authority,
    host: HeaderValue,
}

impl Origin {
    /// The origin of an absolute http(s) URL (its path is the caller's business).
    pub fn of(url: &str) -> Result<Origin, String> {
        let parts = url.parse::<Uri>().map_err(|e| format!("{url} is not a URL: {e}"))?.into_parts();
        let (Some(scheme), Some(authority)) = (parts.scheme, parts.authority) else {
            return Err(format!("{url} has no scheme or host"));
        };
        let host = HeaderValue::from_str(authority.as_str()).map_err(|e| format!("{url}: {e}"))?;
        Ok(Origin { scheme, authority, host })
    }

    fn is(&self, other: &Origin) -> bool {
        self.authority == other.authority && self.scheme == other.scheme
    }
}

/// The idle connections to one origin, the most recently used last.
#[derive(Debug)]
struct OriginPool {
    origin: Origin,
    senders: Vec<SendRequest<Full<Bytes>>>,
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
        let connector = HttpsConnectorBuilder::new()
            .try_with_platform_verifier()
            .map_err(|e| anyhow::anyhow!("cannot set up TLS certificate verification: {e}"))?
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        Ok(HttpClient { connector, idle: Arc::default() })
    }

    /// Sends `request` (its URI the path and query) to `origin` and returns the answer's head with its body still
    /// streaming.
    pub async fn send(
        &self,
        origin: &Origin,
        request: Request<Full<Bytes>>,
        timeout: Duration,
    ) -> Result<Response<Incoming>, CallFailure> {
        let exchange = async {
            let (response, sender) = self.exchange(origin, request).await?;
            // Taken again only once this answer's body has been read (`checkout` skips it until then).
            self.check_in(origin, sender);
            Ok(response)
        };
        tokio::time::timeout(timeout, exchange).await.unwrap_or(Err(CallFailure::TimedOut))
    }

    /// Sends `request` (its URI the path and query) to `origin` and reads the whole answer, all within `timeout`.
    pub async fn call(
        &self,
        origin: &Origin,
        request: Request<Full<Bytes>>,
        timeout: Duration,
    ) -> Result<Answer, CallFailure> {
        let exchange = async {
            let (response, sender) = self.exchange(origin, request).await?;
            let status = response.status();
            let content_type = response.headers().get(CONTENT_TYPE).cloned();
            let body = response.into_body().collect().await.map_err(|e| CallFailure::Unreachable(describe(&e)))?;
            self.check_in(origin, sender);
            Ok(Answer { status, content_type, body: body.to_bytes() })
        };
        tokio::time::timeout(timeout, exchange).await.unwrap_or(Err(CallFailure::TimedOut))
    }

    /// One request on an idle connection to its origin, or on a new one; the answer and the connection. A request
    /// an idle connection could not take (the service had just closed it) goes again on a new connection; a
    /// request sent is never repeated.
    async fn exchange(
        &self,
        origin: &Origin,
        mut request: Request<Full<Bytes>>,
    ) -> Result<(Response<Incoming>, SendRequest<Full<Bytes>>), CallFailure> {
        request.headers_mut().insert(HOST, origin.host.clone());
        if let Some(mut sender) = self.checkout(origin) {
            match sender.try_send_request(request).await {
                Ok(response) => return Ok((response, sender)),
                Err(mut failed) => match failed.take_message() {
                    Some(unsent) => request = unsent,
                    None => return Err(CallFailure::Unreachable(describe(failed.error()))),
                },
            }
        }
        let mut sender = Box::pin(self.connect(origin)).await?;
        let response = sender.send_request(request).await.map_err(|e| CallFailure::Unreachable(describe(&e)))?;
        Ok((response, sender))
    }

    /// The most recently used idle connection to the origin that can take a request now; closed ones are dropped
    /// on the way, busy ones (still reading an answer) kept.
    fn checkout(&self, origin: &Origin) -> Option<SendRequest<Full<Bytes>>> {
        let mut idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let pool = idle.iter_mut().find(|pool| pool.origin.is(origin))?;
        let mut busy = Vec::new();
        let mut found = None;
        while let Some(sender) = pool.senders.pop() {
            if sender.is_ready() {
                found = Some(sender);
                break;
            }
            if !sender.is_closed() {
                busy.push(sender);
            }
        }
        pool.senders.append(&mut busy);
        found
    }

    /// Puts a connection back for the next call to its origin.
    fn check_in(&self, origin: &Origin, sender: SendRequest<Full<Bytes>>) {
        let mut idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let index = match idle.iter().position(|pool| pool.origin.is(origin)) {
            Some(index) => index,
            None => {
                idle.push(OriginPool { origin: origin.clone(), senders: Vec::new() });
                idle.len() - 1
            }
        };
        let senders = &mut idle[index].senders;
        if senders.len() < MAX_IDLE_PER_ORIGIN {
            senders.push(sender);
        }
    }

    /// A new connection (TLS for https), driven by its own task on this thread's runtime.
    async fn connect(&self, origin: &Origin) -> Result<SendRequest<Full<Bytes>>, CallFailure> {
        let uri = Uri::builder()
            .scheme(origin.scheme.clone())
            .authority(origin.authority.clone())
            .path_and_query("/")
            .build()
            .map_err(|e| CallFailure::Unreachable(e.to_string()))?;
        let io = self.connector.clone().oneshot(uri).await.map_err(|e| CallFailure::Unreachable(describe(&*e)))?;
        let (sender, connection) = http1::handshake(io).await.map_err(|e| CallFailure::Unreachable(describe(&e)))?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(error = %describe(&error), "a connection to the service ended");
            }
        });
        Ok(sender)
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// What the stand-in service does with each request it reads.
    #[derive(Clone, Copy)]
    enum Behaviour {
        /// Answers and keeps the connection.
        Answer,
        /// Answers, then closes the connection (as a service's idle time-out would).
        AnswerThenClose,
        /// Closes the connection without answering.
        Hangup,
        /// Never answers.
        Silent,
    }

    /// A plain-TCP HTTP/1 service on loopback that counts connections and requests.
    struct StandIn {
        origin: Origin,
        connections: Arc<AtomicUsize>,
        requests: Arc<AtomicUsize>,
        /// The head of every request read, as sent.
        heads: Arc<Mutex<Vec<String>>>,
    }

    async fn stand_in(behaviour: Behaviour) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = Origin::of(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
        let (connections, requests) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let heads = Arc::new(Mutex::new(Vec::new()));
        let counts = (connections.clone(), requests.clone(), heads.clone());
        tokio::spawn(async move {
            loop {
                let (mut stream, _) = listener.accept().await.unwrap();
                counts.0.fetch_add(1, Ordering::SeqCst);
                let (requests, heads) = (counts.1.clone(), counts.2.clone());
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    let mut buffer = [0u8; 1024];
                    loop {
                        let Ok(read) = stream.read(&mut buffer).await else { return };
                        if read == 0 {
                            return;
                        }
                        seen.extend_from_slice(&buffer[..read]);
                        while let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
                            let head = seen.drain(..end + 4).collect::<Vec<u8>>();
                            heads.lock().unwrap().push(String::from_utf8_lossy(&head).into_owned());
                            requests.fetch_add(1, Ordering::SeqCst);
                            match behaviour {
                                Behaviour::Answer | Behaviour::AnswerThenClose => {
                                    let answer =
                                        b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok";
                                    stream.write_all(answer).await.unwrap();
                                    if matches!(behaviour, Behaviour::AnswerThenClose) {
                                        return;
                                    }
                                }
                                Behaviour::Hangup => return,
                                Behaviour::Silent => std::future::pending::<()>().await,
                            }
                        }
                    }
                });
            }
        });
        StandIn { origin, connections, requests, heads }
    }

    fn get() -> Request<Full<Bytes>> {
        Request::get("/v2/status").body(Full::default()).unwrap()
    }

    const LONG: Duration = Duration::from_secs(10);

    #[tokio::test]
    async fn calls_to_one_origin_share_a_kept_alive_connection() {
        let service = stand_in(Behaviour::Answer).await;
        let client = HttpClient::new().unwrap();
        for _ in 0..5 {
            let answer = client.call(&service.origin, get(), LONG).await.unwrap();
            assert_eq!(answer.status, StatusCode::OK);
            assert_eq!(answer.body, "ok");
            assert_eq!(answer.content_type.unwrap(), "text/plain");
        }
        assert_eq!(service.requests.load(Ordering::SeqCst), 5);
        assert_eq!(service.connections.load(Ordering::SeqCst), 1);
        // Each request names its target by path, and the origin in `Host`.
        let head = service.heads.lock().unwrap()[0].clone();
        assert!(head.starts_with("GET /v2/status HTTP/1.1\r\n"), "{head}");
        assert!(head.contains(&format!("host: {}\r\n", service.origin.authority)), "{head}");
    }

    #[tokio::test]
    async fn a_connection_the_service_closed_is_replaced() {
        let service = stand_in(Behaviour::AnswerThenClose).await;
        let client = HttpClient::new().unwrap();
        for _ in 0..3 {
            let answer = client.call(&service.origin, get(), LONG).await.unwrap();
            assert_eq!(answer.body, "ok");
        }
        assert_eq!(service.requests.load(Ordering::SeqCst), 3);
        assert_eq!(service.connections.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_request_that_reached_the_service_is_never_sent_again() {
        let service = stand_in(Behaviour::Hangup).await;
        let client = HttpClient::new().unwrap();
        let failure = client.call(&service.origin, get(), LONG).await.unwrap_err();
        assert!(matches!(failure, CallFailure::Unreachable(_)), "{failure}");
        assert_eq!(service.requests.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_silent_service_times_out() {
        let service = stand_in(Behaviour::Silent).await;
        let client = HttpClient::new().unwrap();
        let failure = client.call(&service.origin, get(), Duration::from_millis(200)).await.unwrap_err();
        assert!(matches!(failure, CallFailure::TimedOut));
        // The stuck connection is not offered to the next call.
        let failure = client.call(&service.origin, get(), Duration::from_millis(200)).await.unwrap_err();
        assert!(matches!(failure, CallFailure::TimedOut));
        assert_eq!(service.connections.load(Ordering::SeqCst), 2);
    }
}
