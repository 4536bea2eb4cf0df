//! The one HTTP client for calls to the service (or the embedded sandbox): hyper's HTTP/1.1 client connections over
//! rustls with the platform's certificate verification, kept alive in a bounded pool (`pool`), no redirects followed,
//! time-outs on connect and call, answers bounded in size. Each serving worker has its own client, so a call and its
//! connection stay on one thread.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::header::{CONTENT_LENGTH, HOST};
use axum::http::uri::{Authority, Scheme};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Body;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use tokio::time::Instant;
use tower::ServiceExt;

use super::pool::{Limits, Pool};
use crate::addresses::Resolver;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest answer head read (status line and headers; nginx's default limit is 4 or 8 KiB), and the most
/// headers it may have.
const MAX_HEAD: usize = 64 * 1024;
const MAX_HEADERS: usize = 100;
/// The most a connection buffers of what it reads: bodies pass through in pieces of at most this, and an idle
/// connection holds no more than this, whatever it read before.
const MAX_BUFFER: usize = 128 * 1024;
/// The largest answer body read (the service's JSON and images are far smaller).
const MAX_BODY: usize = 64 * 1024 * 1024;

/// A request target in origin form (a path, maybe with a query), checked once to be safe in a request line: it
/// starts with `/` and holds visible ASCII characters only (no space, no control character), and no `#`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target(String);

#[derive(Debug, thiserror::Error)]
#[error("a request target must start with / and hold visible ASCII characters only, without #")]
pub struct InvalidTarget;

impl Target {
    pub fn new(target: String) -> Result<Target, InvalidTarget> {
        let visible = target.bytes().all(|byte| byte.is_ascii_graphic() && byte != b'#');
        if target.starts_with('/') && visible { Ok(Target(target)) } else { Err(InvalidTarget) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A request for the service; the client adds `Host` and the framing headers.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub method: Method,
    pub target: Target,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Outgoing {
    /// A request without headers or body.
    pub fn new(method: Method, target: Target) -> Self {
        Outgoing { method, target, headers: HeaderMap::new(), body: Bytes::new() }
    }
}

/// A whole answer: its status, the headers the caller asked to keep, and its body.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// One kept-alive connection: hyper's handle for sending on it (the connection itself runs as a task of the
/// worker's runtime, and closes when the handle is dropped).
type Connection = SendRequest<Full<Bytes>>;

#[derive(Debug, Clone)]
pub struct HttpClient {
    connector: HttpsConnector<HttpConnector<Resolver>>,
    http1: http1::Builder,
    /// Connections not in use, by origin (the proxy talks to one or two).
    idle: Arc<Pool<Origin, Connection>>,
}

/// Where calls go: scheme and host, parsed once, with the `Host` header that names them.
#[derive(Debug, Clone)]
pub struct Origin {
    scheme: Scheme,
    authority: Authority,
    host: HeaderValue,
}

/// `https://api.example:8443`
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}", self.scheme, self.authority)
    }
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
}

/// The same scheme and host (the `Host` header follows from them).
impl PartialEq for Origin {
    fn eq(&self, other: &Origin) -> bool {
        self.authority == other.authority && self.scheme == other.scheme
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

/// Why an exchange on one connection did not end with an answer.
enum ExchangeError {
    /// The connection had closed before the request went out: any request may go again on another.
    NotSent,
    /// The connection closed before an answer began: whether the service acted on the request is unknown.
    NoAnswer(String),
    /// The answer broke off or is too large.
    Broken(String),
}

impl HttpClient {
    /// A client for the service and the embedded sandbox, wherever the operator put them.
    pub fn new() -> anyhow::Result<Self> {
        Self::resolving_with(Resolver { public_only: false })
    }

    /// A client for addresses a caller named (results, original photos): it connects to public addresses only,
    /// whatever a name resolves to. Addresses written as IPs are the caller's to check (`addresses::is_private`).
    pub fn public_only() -> anyhow::Result<Self> {
        Self::resolving_with(Resolver { public_only: true })
    }

    fn resolving_with(resolver: Resolver) -> anyhow::Result<Self> {
        let mut http = HttpConnector::new_with_resolver(resolver);
        http.enforce_http(false);
        http.set_connect_timeout(Some(CONNECT_TIMEOUT));
        http.set_nodelay(true);
        let connector = HttpsConnectorBuilder::new()
            .try_with_platform_verifier()
            .map_err(|e| anyhow::anyhow!("cannot set up TLS certificate verification: {e}"))?
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let mut http1 = http1::Builder::new();
        http1.max_headers(MAX_HEADERS).max_header_size(MAX_HEAD).max_buf_size(MAX_BUFFER);
        Ok(HttpClient { connector, http1, idle: Arc::new(Pool::new(Limits::CLIENT)) })
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
        let request = with_host(request, origin);
        let call = async {
            // On an idle connection to the origin first. When it ends before any answer (the service closed it as
            // the request went out), an idempotent request goes again on a new connection, as browsers and nginx
            // do; any other is never sent twice.
            if let Some(mut connection) = self.idle.take(origin) {
                match exchange(&mut connection, &request, keep).await {
                    Err(ExchangeError::NotSent) => {}
                    Err(ExchangeError::NoAnswer(_)) if request.method.is_idempotent() => {}
                    outcome => return self.settle(origin, connection, outcome),
                }
            }
            let mut connection = self.connect(origin).await?;
            let outcome = exchange(&mut connection, &request, keep).await;
            self.settle(origin, connection, outcome)
        };
        tokio::time::timeout_at(deadline, call).await.unwrap_or(Err(CallFailure::TimedOut))
    }

    /// The call's result; the connection goes back to the pool when it can carry another call.
    fn settle(
        &self,
        origin: &Origin,
        connection: Connection,
        outcome: Result<Answer, ExchangeError>,
    ) -> Result<Answer, CallFailure> {
        match outcome {
            Ok(answer) => {
                if !connection.is_closed() {
                    self.idle.put(origin, connection);
                }
                Ok(answer)
            }
            Err(ExchangeError::NotSent) => Err(CallFailure::Unreachable("the connection closed at once".into())),
            Err(ExchangeError::NoAnswer(error) | ExchangeError::Broken(error)) => Err(CallFailure::Unreachable(error)),
        }
    }

    /// A new connection (TLS for https), run as a task of this worker's runtime.
    async fn connect(&self, origin: &Origin) -> Result<Connection, CallFailure> {
        let uri = Uri::builder()
            .scheme(origin.scheme.clone())
            .authority(origin.authority.clone())
            .path_and_query("/")
            .build()
            .map_err(|e| CallFailure::Unreachable(e.to_string()))?;
        let io = self.connector.clone().oneshot(uri).await.map_err(|e| CallFailure::Unreachable(describe(&*e)))?;
        let (sender, connection) =
            self.http1.handshake(io).await.map_err(|e| CallFailure::Unreachable(describe(&e)))?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(error = %describe(&error), "a connection to the service ended with an error");
            }
        });
        Ok(sender)
    }
}

/// `request` with the headers the client adds: `Host`, naming `origin`, and for a method whose request usually
/// has content, the length when it has none.
fn with_host(mut request: Outgoing, origin: &Origin) -> Outgoing {
    request.headers.insert(HOST, origin.host.clone());
    if request.body.is_empty()
        && ![Method::GET, Method::HEAD, Method::DELETE, Method::OPTIONS].contains(&request.method)
    {
        request.headers.insert(CONTENT_LENGTH, HeaderValue::from_static("0"));
    }
    request
}

/// Sends `request` (its headers complete, see `with_host`) on `connection` and reads the whole answer, keeping the headers named
/// in `keep`.
async fn exchange(
    connection: &mut Connection,
    request: &Outgoing,
    keep: &[HeaderName],
) -> Result<Answer, ExchangeError> {
    connection.ready().await.map_err(|_| ExchangeError::NotSent)?;
    let mut outgoing = Request::new(Full::new(request.body.clone()));
    *outgoing.method_mut() = request.method.clone();
    *outgoing.uri_mut() = Uri::try_from(request.target.as_str()).map_err(|e| ExchangeError::Broken(e.to_string()))?;
    *outgoing.headers_mut() = request.headers.clone();
    let answer = connection.send_request(outgoing).await.map_err(|error| match error {
        _ if error.is_canceled() => ExchangeError::NotSent,
        _ if error.is_incomplete_message() || error.is_closed() => ExchangeError::NoAnswer(describe(&error)),
        _ => ExchangeError::Broken(describe(&error)),
    })?;
    let (head, body) = answer.into_parts();
    let too_large = || ExchangeError::Broken(format!("The service's answer is over {} MiB.", MAX_BODY >> 20));
    // A length over the limit is refused before a byte of the body is read.
    if body.size_hint().lower() > MAX_BODY as u64 {
        return Err(too_large());
    }
    let body = Limited::new(body, MAX_BODY).collect().await.map_err(|error| {
        if error.is::<http_body_util::LengthLimitError>() {
            too_large()
        } else {
            ExchangeError::Broken(format!("The service's answer broke off: {}", describe(&*error)))
        }
    })?;
    let mut headers = HeaderMap::new();
    for name in keep {
        if let Some(value) = head.headers.get(name) {
            headers.insert(name.clone(), value.clone());
        }
    }
    Ok(Answer { status: head.status, headers, body: body.to_bytes() })
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
    use std::sync::Mutex;
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
        /// Answers saying `Connection: close`, then closes.
        AnswerSayingClose,
        /// Begins an answer whose length is over the client's limit, and sends no more.
        Oversized,
        /// Answers with a body of `LARGE_BODY` bytes and keeps the connection.
        Large,
        /// Answers with this many headers besides its length.
        Headers(usize),
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
                                Behaviour::AnswerSayingClose => {
                                    let answer = b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok";
                                    stream.write_all(answer).await.unwrap();
                                    return;
                                }
                                Behaviour::Large => {
                                    let head = format!("HTTP/1.1 200 OK\r\ncontent-length: {LARGE_BODY}\r\n\r\n");
                                    stream.write_all(head.as_bytes()).await.unwrap();
                                    for _ in 0..LARGE_BODY / PIECE.len() {
                                        stream.write_all(&PIECE).await.unwrap();
                                    }
                                }
                                Behaviour::Headers(count) => {
                                    let headers: String = (0..count).map(|n| format!("x-{n}: {n}\r\n")).collect();
                                    let answer = format!("HTTP/1.1 200 OK\r\n{headers}content-length: 2\r\n\r\nok");
                                    stream.write_all(answer.as_bytes()).await.unwrap();
                                }
                                Behaviour::Oversized => {
                                    let head = b"HTTP/1.1 200 OK\r\ncontent-length: 104857600\r\n\r\nstart";
                                    stream.write_all(head).await.unwrap();
                                    std::future::pending::<()>().await;
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

    /// A large answer's body, written in pieces of a static buffer so that the stand-in allocates nothing for it.
    const LARGE_BODY: usize = 8 * 1024 * 1024;
    static PIECE: [u8; 64 * 1024] = [b'x'; 64 * 1024];

    /// Counts the bytes each thread has allocated and not freed, to see what an idle connection keeps. A test's
    /// runtime, its stand-in service and the client's connection tasks all run on the test's thread.
    struct Counting;

    thread_local! {
        static LIVE: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
    }

    fn count(bytes: isize) {
        let _ = LIVE.try_with(|live| live.set(live.get() + bytes));
    }

    fn live_bytes() -> isize {
        LIVE.with(std::cell::Cell::get)
    }

    // SAFETY: every call goes to the system allocator unchanged; the counting touches a thread-local cell only.
    unsafe impl std::alloc::GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
            count(layout.size() as isize);
            // SAFETY: the caller's layout, passed on.
            unsafe { std::alloc::System.alloc(layout) }
        }

        unsafe fn dealloc(&self, pointer: *mut u8, layout: std::alloc::Layout) {
            count(-(layout.size() as isize));
            // SAFETY: a block this allocator handed out, with its layout.
            unsafe { std::alloc::System.dealloc(pointer, layout) }
        }

        unsafe fn realloc(&self, pointer: *mut u8, layout: std::alloc::Layout, size: usize) -> *mut u8 {
            count(size as isize - layout.size() as isize);
            // SAFETY: as in `dealloc`, with the caller's new size.
            unsafe { std::alloc::System.realloc(pointer, layout, size) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Counting = Counting;

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
    async fn the_public_only_client_never_connects_to_a_name_that_leads_to_this_machine() {
        let service = stand_in(Behaviour::Answer).await;
        let port = service.origin.authority.port_u16().unwrap();
        let by_name = Origin::of(&format!("http://localhost:{port}")).unwrap();
        let refused = HttpClient::public_only().unwrap().call(&by_name, get(), KEEP, LONG).await.unwrap_err();
        assert!(refused.to_string().contains("not a public address"), "{refused}");
        assert_eq!(service.connections.load(Ordering::SeqCst), 0);
        // The client for the service connects wherever the operator put it.
        let answer = HttpClient::new().unwrap().call(&by_name, get(), KEEP, LONG).await.unwrap();
        assert_eq!(answer.body, "ok");
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
        // a limit any machine meets for one call on loopback, and a wait that outlasts it
        client.call(&service.origin, get(), KEEP, Duration::from_secs(2)).await.unwrap();
        // The connection's timer runs out while it waits in the pool; the next call sets it again.
        tokio::time::sleep(Duration::from_millis(2500)).await;
        let answer = client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        assert_eq!(answer.body, "ok");
        assert_eq!(service.connections.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_post_after_an_answer_that_closed_its_connection_goes_on_a_new_one() {
        let service = stand_in(Behaviour::AnswerSayingClose).await;
        let client = HttpClient::new().unwrap();
        for _ in 0..3 {
            assert_eq!(client.call(&service.origin, post(), KEEP, LONG).await.unwrap().body, "ok");
        }
        assert_eq!(service.requests.load(Ordering::SeqCst), 3);
        assert_eq!(service.connections.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn an_answer_over_the_limit_is_refused_before_its_body_is_read() {
        let service = stand_in(Behaviour::Oversized).await;
        let client = HttpClient::new().unwrap();
        let failure = client.call(&service.origin, get(), KEEP, LONG).await.unwrap_err();
        assert!(matches!(&failure, CallFailure::Unreachable(message) if message.contains("64 MiB")), "{failure}");
    }

    #[tokio::test]
    async fn an_answer_with_more_than_a_hundred_headers_is_refused() {
        // `MAX_HEADERS`: 99 headers and the length pass, one more does not.
        let hundred = stand_in(Behaviour::Headers(99)).await;
        let client = HttpClient::new().unwrap();
        let answer = client.call(&hundred.origin, get(), KEEP, LONG).await.unwrap();
        assert_eq!(answer.body, "ok");
        let too_many = stand_in(Behaviour::Headers(100)).await;
        let refused = client.call(&too_many.origin, get(), KEEP, LONG).await.unwrap_err();
        assert!(matches!(refused, CallFailure::Unreachable(_)), "{refused:?}");
    }

    #[tokio::test]
    async fn the_request_says_its_length_and_names_the_origin() {
        let service = stand_in(Behaviour::Answer).await;
        let client = HttpClient::new().unwrap();
        let mut request = post();
        request.headers.insert(axum::http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        request.body = Bytes::from_static(b"{}");
        client.call(&service.origin, request, KEEP, LONG).await.unwrap();
        client.call(&service.origin, post(), KEEP, LONG).await.unwrap();
        let heads = service.heads.lock().unwrap().clone();
        assert!(heads[0].starts_with("POST /v2/renders HTTP/1.1\r\n"), "{}", heads[0]);
        assert!(heads[0].contains("content-length: 2\r\n") && heads[0].contains("content-type: application/json"));
        assert!(heads[1].contains("content-length: 0\r\n"), "an empty POST says so: {}", heads[1]);
    }

    #[tokio::test]
    async fn an_idle_connection_keeps_no_large_buffer_after_a_large_answer() {
        let service = stand_in(Behaviour::Large).await;
        let client = HttpClient::new().unwrap();
        // The connection exists and is idle in the pool.
        client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        let before = live_bytes();
        let answer = client.call(&service.origin, get(), KEEP, LONG).await.unwrap();
        assert_eq!(answer.body.len(), LARGE_BODY);
        drop(answer);
        let kept = live_bytes() - before;
        assert!(kept < 512 * 1024, "an idle connection kept {kept} bytes after an answer of {LARGE_BODY}");
        assert_eq!(service.connections.load(Ordering::SeqCst), 1, "the connection was kept for the next call");
    }
}
