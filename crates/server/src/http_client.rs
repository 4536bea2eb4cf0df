//! The one HTTP client for calls to the service (or the embedded sandbox): HTTP/1.1 over rustls with the platform's
//! certificate verification, kept-alive connections pooled per origin, no redirects followed, time-outs on
//! connect and call. Each serving worker has its own client, so a call and its connection stay on one thread.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::uri::{Authority, Scheme};
use axum::http::{HeaderName, HeaderValue, Uri};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder, MaybeHttpsStream};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

pub use crate::http1::{Answer, InvalidTarget, Outgoing, Target};
use crate::http1::{Connection, ExchangeError};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Idle connections kept per origin; more are closed once their call is done.
const MAX_IDLE_PER_ORIGIN: usize = 64;

/// A connection to the service (TCP, with TLS for https) and the timer of its calls. Boxed, since TLS's state is
/// large and a connection moves in and out of the pool with every call.
type Pooled = Box<PooledConnection>;

struct PooledConnection {
    connection: Connection<TokioIo<MaybeHttpsStream<TokioIo<TcpStream>>>>,
    timer: Pin<Box<Sleep>>,
}

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
struct OriginPool {
    origin: Origin,
    connections: Vec<Pooled>,
}

impl std::fmt::Debug for OriginPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} idle connections to {}", self.connections.len(), self.origin.authority)
    }
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

    /// Sends `request` to `origin` and reads the whole answer, all within `timeout`.
    /// Of the answer's headers, those named in `keep` are kept.
    pub async fn call(
        &self,
        origin: &Origin,
        request: Outgoing,
        keep: &[HeaderName],
        timeout: Duration,
    ) -> Result<Answer, CallFailure> {
        let deadline = Instant::now() + timeout;
        let host = &origin.host;
        // On an idle connection to the origin first. When it ends before any answer (the service closed it as the
        // request went out), an idempotent request goes again on a new connection, as browsers and nginx do; any
        // other is never sent twice.
        if let Some(mut pooled) = self.checkout(origin) {
            match pooled.exchange(&request, host, keep, deadline).await {
                Some(Err(ExchangeError::NoAnswer(_))) if request.method.is_idempotent() => {}
                outcome => return self.settle(origin, pooled, outcome),
            }
        }
        let connecting = tokio::time::timeout_at(deadline, Box::pin(self.connect(origin, deadline)));
        let mut pooled = connecting.await.unwrap_or(Err(CallFailure::TimedOut))?;
        let outcome = pooled.exchange(&request, host, keep, deadline).await;
        self.settle(origin, pooled, outcome)
    }

    /// The call's result from an exchange's outcome (`None`: out of time); the connection goes back to the pool
    /// when it can carry another call.
    fn settle(
        &self,
        origin: &Origin,
        pooled: Pooled,
        outcome: Option<Result<(Answer, bool), ExchangeError>>,
    ) -> Result<Answer, CallFailure> {
        match outcome {
            Some(Ok((answer, reusable))) => {
                if reusable {
                    self.check_in(origin, pooled);
                }
                Ok(answer)
            }
            Some(Err(error)) => Err(CallFailure::Unreachable(error.to_string())),
            None => Err(CallFailure::TimedOut),
        }
    }

    /// The most recently used idle connection to the origin that is still open; closed ones are dropped on the
    /// way.
    fn checkout(&self, origin: &Origin) -> Option<Pooled> {
        let mut idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let pool = idle.iter_mut().find(|pool| pool.origin.is(origin))?;
        while let Some(mut connection) = pool.connections.pop() {
            if connection.connection.is_open() {
                return Some(connection);
            }
        }
        None
    }

    /// Puts a connection back for the next call to its origin.
    fn check_in(&self, origin: &Origin, connection: Pooled) {
        let mut idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let index = match idle.iter().position(|pool| pool.origin.is(origin)) {
            Some(index) => index,
            None => {
                idle.push(OriginPool { origin: origin.clone(), connections: Vec::new() });
                idle.len() - 1
            }
        };
        let connections = &mut idle[index].connections;
        if connections.len() < MAX_IDLE_PER_ORIGIN {
            connections.push(connection);
        }
    }

    /// A new connection (TLS for https), its timer set for `deadline`.
    async fn connect(&self, origin: &Origin, deadline: Instant) -> Result<Pooled, CallFailure> {
        let uri = Uri::builder()
            .scheme(origin.scheme.clone())
            .authority(origin.authority.clone())
            .path_and_query("/")
            .build()
            .map_err(|e| CallFailure::Unreachable(e.to_string()))?;
        let io = self.connector.clone().oneshot(uri).await.map_err(|e| CallFailure::Unreachable(describe(&*e)))?;
        let connection = Connection::new(TokioIo::new(io));
        Ok(Box::new(PooledConnection { connection, timer: Box::pin(tokio::time::sleep_until(deadline)) }))
    }
}

impl PooledConnection {
    /// `Connection::exchange`, given up at `deadline` (`None` then). The timer is the connection's own, moved on
    /// for each call: while deadlines only grow that is one atomic update, where a new timer per call would be
    /// registered and removed each time.
    async fn exchange(
        &mut self,
        request: &Outgoing,
        host: &HeaderValue,
        keep: &[HeaderName],
        deadline: Instant,
    ) -> Option<Result<(Answer, bool), ExchangeError>> {
        self.timer.as_mut().reset(deadline);
        tokio::select! {
            biased;
            outcome = self.connection.exchange(request, host, keep) => Some(outcome),
            () = &mut self.timer => None,
        }
    }
}

/// The error and its causes in one line (a connector's top-level error alone says little).
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

    use axum::http::Method;
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
        /// Answers the first request of a connection; closes it without answering at the second.
        HangupAtSecond,
        /// Answers the first request of a connection; never answers the second.
        SilentAtSecond,
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
                    let mut served = 0;
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
                            served += 1;
                            let behaviour = match behaviour {
                                Behaviour::HangupAtSecond if served == 2 => Behaviour::Hangup,
                                Behaviour::SilentAtSecond if served == 2 => Behaviour::Silent,
                                Behaviour::HangupAtSecond | Behaviour::SilentAtSecond => Behaviour::Answer,
                                other => other,
                            };
                            match behaviour {
                                Behaviour::Answer | Behaviour::AnswerThenClose => {
                                    let answer =
                                        b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok";
                                    stream.write_all(answer).await.unwrap();
                                    if matches!(behaviour, Behaviour::AnswerThenClose) {
                                        return;
                                    }
                                }
                                Behaviour::Hangup | Behaviour::HangupAtSecond | Behaviour::SilentAtSecond => return,
                                Behaviour::Silent => std::future::pending::<()>().await,
                            }
                        }
                    }
                });
            }
        });
        StandIn { origin, connections, requests, heads }
    }

    fn get() -> Outgoing {
        Outgoing::new(Method::GET, Target::new("/v2/status".into()).unwrap())
    }

    fn post() -> Outgoing {
        Outgoing::new(Method::POST, Target::new("/v2/renders".into()).unwrap())
    }

    const KEEP: &[HeaderName] = &[axum::http::header::CONTENT_TYPE];

    const LONG: Duration = Duration::from_secs(10);

    #[tokio::test]
    async fn calls_to_one_origin_share_a_kept_alive_connection() {
        let service = stand_in(Behaviour::Answer).await;
        let client = HttpClient::new().unwrap();
        for _ in 0..5 {
            let answer = client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
            assert_eq!(answer.status, axum::http::StatusCode::OK);
            assert_eq!(answer.body, "ok");
            assert_eq!(answer.headers[axum::http::header::CONTENT_TYPE], "text/plain");
            // Only the headers asked for are kept.
            assert_eq!(answer.headers.len(), 1);
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
            let answer = client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
            assert_eq!(answer.body, "ok");
        }
        assert_eq!(service.requests.load(Ordering::SeqCst), 3);
        assert_eq!(service.connections.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_request_on_a_new_connection_is_never_sent_again() {
        let service = stand_in(Behaviour::Hangup).await;
        let client = HttpClient::new().unwrap();
        let failure = client.call(&service.origin, get(), KEEP, LONG).await.unwrap_err();
        assert!(matches!(failure, CallFailure::Unreachable(_)), "{failure}");
        assert_eq!(service.requests.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_get_the_service_dropped_on_a_kept_alive_connection_goes_again_on_a_new_one() {
        let service = stand_in(Behaviour::HangupAtSecond).await;
        let client = HttpClient::new().unwrap();
        client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        // The second goes out on the kept-alive connection, which the service closes without answering.
        let answer = client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        assert_eq!(answer.body, "ok");
        assert_eq!(service.requests.load(Ordering::SeqCst), 3);
        assert_eq!(service.connections.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_post_the_service_dropped_is_never_sent_again() {
        let service = stand_in(Behaviour::HangupAtSecond).await;
        let client = HttpClient::new().unwrap();
        client.call(&service.origin, post(), KEEP, LONG).await.unwrap();
        let failure = client.call(&service.origin, post(), KEEP, LONG).await.unwrap_err();
        assert!(matches!(failure, CallFailure::Unreachable(_)), "{failure}");
        assert_eq!(service.requests.load(Ordering::SeqCst), 2);
        assert_eq!(service.connections.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_silent_service_times_out() {
        let service = stand_in(Behaviour::Silent).await;
        let client = HttpClient::new().unwrap();
        let failure = client.call(&service.origin, get(), KEEP, Duration::from_millis(200)).await.unwrap_err();
        assert!(matches!(failure, CallFailure::TimedOut));
        // The stuck connection is not offered to the next call.
        let failure = client.call(&service.origin, get(), KEEP, Duration::from_millis(200)).await.unwrap_err();
        assert!(matches!(failure, CallFailure::TimedOut));
        assert_eq!(service.connections.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_kept_alive_connection_that_goes_silent_times_out_and_is_not_used_again() {
        let service = stand_in(Behaviour::SilentAtSecond).await;
        let client = HttpClient::new().unwrap();
        client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        let failure = client.call(&service.origin, get(), KEEP, Duration::from_millis(200)).await.unwrap_err();
        assert!(matches!(failure, CallFailure::TimedOut));
        let answer = client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        assert_eq!(answer.body, "ok");
        assert_eq!(service.connections.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_connection_idle_past_its_last_calls_time_limit_serves_the_next_call() {
        let service = stand_in(Behaviour::Answer).await;
        let client = HttpClient::new().unwrap();
        client.call(&service.origin, get(), KEEP, Duration::from_millis(100)).await.unwrap();
        // The connection's timer runs out while it waits in the pool; the next call sets it again.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let answer = client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        assert_eq!(answer.body, "ok");
        assert_eq!(service.connections.load(Ordering::SeqCst), 1);
    }
}
