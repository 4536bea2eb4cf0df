//! One HTTP/1.1 exchange on a connection to the service: the request written, its answer read and framed (httparse
//! parses heads and chunk sizes; this module applies RFC 9112's framing rules), and whether the connection may carry
//! another request. The exchange runs inside the caller's task: no connection task, no channels between the two.

use std::io;
use std::mem::MaybeUninit;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use axum::body::Bytes;
use axum::http::header::{CONNECTION, CONTENT_LENGTH, HOST, TRANSFER_ENCODING};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use bytes::{Buf, BytesMut};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

/// The longest answer head read (status line and headers; nginx's default limit is 4 or 8 KiB).
const MAX_HEAD: usize = 64 * 1024;
/// The most headers an answer head may have.
const MAX_HEADERS: usize = 100;
/// The largest answer body read (the service's JSON and images are far smaller).
const MAX_BODY: usize = 64 * 1024 * 1024;
/// Room asked of each read.
const READ_SIZE: usize = 8 * 1024;
/// Bodies up to this size are copied out of the connection's buffer, which then serves the next answer without a
/// new allocation; larger ones take the buffer along instead of being copied.
const COPIED_BODY: usize = 16 * 1024;
/// Request bodies up to this size go out in the same write as the head.
const COALESCED_BODY: usize = 16 * 1024;

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

/// A request for the service; `Connection::exchange` adds `Host` and the framing headers.
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

/// A connection to the service, with what has been read from it and not used yet.
pub struct Connection<S> {
    io: S,
    read: BytesMut,
    write: Vec<u8>,
    /// Bytes received since the last request went out.
    received: usize,
}

/// A whole answer: its status, the headers the caller asked to keep, and its body.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// Why an exchange did not end with an answer. Never carries the request (nor so the key).
#[derive(Debug, thiserror::Error)]
pub enum ExchangeError {
    /// The connection failed or closed before the first byte of an answer; whether the service acted on the
    /// request is unknown.
    #[error("the connection closed before an answer ({0})")]
    NoAnswer(String),
    /// The answer broke off, is too large, or is not HTTP/1.1.
    #[error("{0}")]
    Broken(String),
}

/// How an answer's body is delimited (RFC 9112, section 6.3).
#[derive(Debug, PartialEq, Eq)]
enum Framing {
    Empty,
    Length(u64),
    Chunked,
    /// Everything until the service closes the connection.
    UntilClose,
}

/// What an answer's head says, read out of the buffer.
struct Head {
    /// Its length in the buffer.
    len: usize,
    status: StatusCode,
    kept: HeaderMap,
    content_length: Option<u64>,
    /// Whether a `Transfer-Encoding` came, and whether `chunked` was its last coding.
    transfer_encoding: bool,
    chunked: bool,
    /// HTTP/1.1 without `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`.
    keep_alive: bool,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Connection<S> {
    pub fn new(io: S) -> Self {
        Connection { io, read: BytesMut::with_capacity(READ_SIZE), write: Vec::with_capacity(512), received: 0 }
    }

    /// Whether this connection, idle since its last answer, can take a request: the service has neither closed it
    /// nor sent anything unasked. Looks without waiting.
    pub fn is_open(&mut self) -> bool {
        let mut probe = [0u8; 1];
        let mut context = Context::from_waker(Waker::noop());
        matches!(Pin::new(&mut self.io).poll_read(&mut context, &mut ReadBuf::new(&mut probe)), Poll::Pending)
    }

    /// Sends `request` (`host` names the origin) and reads the whole answer, keeping the headers named in `keep`.
    /// With the answer: whether the connection may carry another request.
    pub async fn exchange(
        &mut self,
        request: &Outgoing,
        host: &HeaderValue,
        keep: &[HeaderName],
    ) -> Result<(Answer, bool), ExchangeError> {
        self.send(request, host).await.map_err(|error| ExchangeError::NoAnswer(error.to_string()))?;
        let mut head = self.read_head(keep).await?;
        // Interim answers (100 Continue, 103 Early Hints) come before the final one.
        while head.status.is_informational() && head.status != StatusCode::SWITCHING_PROTOCOLS {
            self.read.advance(head.len);
            head = self.read_head(keep).await?;
        }
        if head.status == StatusCode::SWITCHING_PROTOCOLS {
            return Err(broken("The service switched protocols, which nothing asked it to."));
        }
        let (body, delimited) = match head.framing(&request.method) {
            Framing::Empty => {
                self.read.advance(head.len);
                (Bytes::new(), true)
            }
            Framing::Length(length) => (self.read_length(head.len, length).await?, true),
            Framing::Chunked => (self.read_chunked(head.len).await?, true),
            Framing::UntilClose => (self.read_until_close(head.len).await?, false),
        };
        // An answer with both framings may have been read wrongly by someone on the way (RFC 9112, 6.1), and bytes
        // after the answer were never asked for: either way the connection's state is unknown.
        let both_framings = head.transfer_encoding && head.content_length.is_some();
        let reusable = delimited && head.keep_alive && !both_framings && self.read.is_empty();
        Ok((Answer { status: head.status, headers: head.kept, body }, reusable))
    }

    /// Writes the request: its head (framing headers are this module's, any the caller set are left out), then the
    /// body, small ones in the same write.
    async fn send(&mut self, request: &Outgoing, host: &HeaderValue) -> io::Result<()> {
        let body = &request.body;
        let out = &mut self.write;
        out.clear();
        out.extend_from_slice(request.method.as_str().as_bytes());
        out.push(b' ');
        out.extend_from_slice(request.target.as_str().as_bytes());
        out.extend_from_slice(b" HTTP/1.1\r\nhost: ");
        out.extend_from_slice(host.as_bytes());
        out.extend_from_slice(b"\r\n");
        for (name, value) in &request.headers {
            if [HOST, CONTENT_LENGTH, TRANSFER_ENCODING, CONNECTION].contains(name) {
                continue;
            }
            out.extend_from_slice(name.as_str().as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(value.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        // A method whose request usually has content says when it has none.
        if !body.is_empty() || ![Method::GET, Method::HEAD, Method::DELETE, Method::OPTIONS].contains(&request.method) {
            out.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        let coalesced = body.len() <= COALESCED_BODY;
        if coalesced {
            out.extend_from_slice(body);
        }
        self.received = 0;
        self.io.write_all(out).await?;
        if !coalesced {
            self.io.write_all(body).await?;
        }
        self.io.flush().await
    }

    /// Reads until an answer head is whole and reads it.
    async fn read_head(&mut self, keep: &[HeaderName]) -> Result<Head, ExchangeError> {
        loop {
            if let Some(head) = parse_head(&self.read, keep)? {
                return Ok(head);
            }
            if self.read.len() >= MAX_HEAD {
                return Err(broken(format!("The service's answer head is over {} KiB.", MAX_HEAD / 1024)));
            }
            match self.fill().await {
                Ok(0) if self.received == 0 => return Err(ExchangeError::NoAnswer("closed by the service".into())),
                Err(error) if self.received == 0 => return Err(ExchangeError::NoAnswer(error.to_string())),
                Ok(0) | Err(_) => return Err(cut_short()),
                Ok(_) => {}
            }
        }
    }

    /// The body of `length` bytes after a head of `start` bytes.
    async fn read_length(&mut self, start: usize, length: u64) -> Result<Bytes, ExchangeError> {
        let length = usize::try_from(length).ok().filter(|&length| length <= MAX_BODY).ok_or_else(too_large)?;
        let end = start + length;
        self.read.reserve(end.saturating_sub(self.read.len()));
        while self.read.len() < end {
            self.fill_more().await?;
        }
        Ok(self.take(start, end))
    }

    /// A chunked body starting after a head of `start` bytes, with its trailer section (read and dropped).
    async fn read_chunked(&mut self, start: usize) -> Result<Bytes, ExchangeError> {
        self.read.advance(start);
        let mut body = BytesMut::new();
        loop {
            let (line, size) = loop {
                match httparse::parse_chunk_size(&self.read) {
                    Ok(httparse::Status::Complete(found)) => break found,
                    Ok(httparse::Status::Partial) if self.read.len() < MAX_HEAD => self.fill_more().await?,
                    _ => return Err(broken("The service's chunked answer has a malformed chunk size.")),
                }
            };
            if size == 0 {
                self.read.advance(line);
                break;
            }
            let size =
                usize::try_from(size).ok().filter(|&size| body.len() + size <= MAX_BODY).ok_or_else(too_large)?;
            let end = line + size + 2;
            self.read.reserve(end.saturating_sub(self.read.len()));
            while self.read.len() < end {
                self.fill_more().await?;
            }
            if &self.read[end - 2..end] != b"\r\n" {
                return Err(broken("The service's chunked answer has a chunk longer than its size."));
            }
            body.extend_from_slice(&self.read[line..end - 2]);
            self.read.advance(end);
        }
        // The trailer section: fields (unused here) up to an empty line.
        loop {
            match trailers_length(&self.read) {
                Ok(Some(len)) => {
                    self.read.advance(len);
                    return Ok(body.freeze());
                }
                Ok(None) if self.read.len() < MAX_HEAD => self.fill_more().await?,
                _ => return Err(broken("The service's chunked answer has malformed trailers.")),
            }
        }
    }

    /// A body that ends when the service closes the connection, after a head of `start` bytes.
    async fn read_until_close(&mut self, start: usize) -> Result<Bytes, ExchangeError> {
        loop {
            if self.read.len() - start > MAX_BODY {
                return Err(too_large());
            }
            match self.fill().await {
                Ok(0) => return Ok(self.take(start, self.read.len())),
                Ok(_) => {}
                Err(_) => return Err(cut_short()),
            }
        }
    }

    /// Bytes `start..end` of what was read; what follows `end` stays for later.
    fn take(&mut self, start: usize, end: usize) -> Bytes {
        if end - start <= COPIED_BODY {
            let body = Bytes::copy_from_slice(&self.read[start..end]);
            self.read.advance(end);
            body
        } else {
            let mut message = self.read.split_to(end);
            message.advance(start);
            message.freeze()
        }
    }

    /// Reads what the service sent next; 0 when it has closed the connection.
    async fn fill(&mut self) -> io::Result<usize> {
        self.read.reserve(READ_SIZE);
        let read = self.io.read_buf(&mut self.read).await?;
        self.received += read;
        Ok(read)
    }

    /// Reads more of an answer that has begun; its end is an error.
    async fn fill_more(&mut self) -> Result<(), ExchangeError> {
        match self.fill().await {
            Ok(0) | Err(_) => Err(cut_short()),
            Ok(_) => Ok(()),
        }
    }
}

impl Head {
    fn framing(&self, method: &Method) -> Framing {
        let status = self.status;
        if *method == Method::HEAD
            || status.is_informational()
            || status == StatusCode::NO_CONTENT
            || status == StatusCode::NOT_MODIFIED
        {
            Framing::Empty
        } else if self.transfer_encoding {
            if self.chunked { Framing::Chunked } else { Framing::UntilClose }
        } else {
            self.content_length.map_or(Framing::UntilClose, Framing::Length)
        }
    }
}

/// The answer head at the start of `buffer`, once it is whole.
fn parse_head(buffer: &[u8], keep: &[HeaderName]) -> Result<Option<Head>, ExchangeError> {
    if buffer.is_empty() {
        return Ok(None);
    }
    let mut fields = [const { MaybeUninit::uninit() }; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut []);
    let len = match httparse::ParserConfig::default().parse_response_with_uninit_headers(
        &mut response,
        buffer,
        &mut fields,
    ) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(broken(format!("The service's answer has more than {MAX_HEADERS} headers.")));
        }
        Err(error) => return Err(broken(format!("The service's answer is not HTTP/1.1 ({error})."))),
    };
    let status = response
        .code
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| broken("The service's answer has no valid status."))?;
    let http11 = response.version == Some(1);
    let mut head = Head {
        len,
        status,
        kept: HeaderMap::new(),
        content_length: None,
        transfer_encoding: false,
        chunked: false,
        keep_alive: false,
    };
    // `Connection` options: `close` ends the connection after this answer whatever else is said.
    let (mut close, mut keep_alive) = (false, false);
    for field in response.headers.iter() {
        let (name, value) = (field.name, field.value);
        if name.eq_ignore_ascii_case(CONTENT_LENGTH.as_str()) {
            for item in value.split(|&byte| byte == b',') {
                let length = content_length(item.trim_ascii())?;
                if head.content_length.is_some_and(|earlier| earlier != length) {
                    return Err(broken("The service's answer has conflicting Content-Length headers."));
                }
                head.content_length = Some(length);
            }
        } else if name.eq_ignore_ascii_case(TRANSFER_ENCODING.as_str()) {
            for coding in value.split(|&byte| byte == b',').map(<[u8]>::trim_ascii).filter(|c| !c.is_empty()) {
                head.transfer_encoding = true;
                head.chunked = coding.eq_ignore_ascii_case(b"chunked");
            }
        } else if name.eq_ignore_ascii_case(CONNECTION.as_str()) {
            for option in value.split(|&byte| byte == b',').map(<[u8]>::trim_ascii) {
                close |= option.eq_ignore_ascii_case(b"close");
                keep_alive |= option.eq_ignore_ascii_case(b"keep-alive");
            }
        }
        if let Some(wanted) = keep.iter().find(|wanted| name.eq_ignore_ascii_case(wanted.as_str())) {
            // A value a header cannot hold is left out, as a browser would.
            if let Ok(value) = HeaderValue::from_bytes(value) {
                head.kept.append(wanted.clone(), value);
            }
        }
    }
    head.keep_alive = !close && (http11 || keep_alive);
    Ok(Some(head))
}

/// The length of the trailer section at the start of `buffer` (up to its empty line), once it is whole.
fn trailers_length(buffer: &[u8]) -> Result<Option<usize>, httparse::Error> {
    let mut trailers = [httparse::EMPTY_HEADER; 32];
    match httparse::parse_headers(buffer, &mut trailers)? {
        httparse::Status::Complete((len, _)) => Ok(Some(len)),
        httparse::Status::Partial => Ok(None),
    }
}

/// A `Content-Length` value: decimal digits only.
fn content_length(digits: &[u8]) -> Result<u64, ExchangeError> {
    let invalid = || broken("The service's answer has an invalid Content-Length.");
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(invalid());
    }
    std::str::from_utf8(digits).ok().and_then(|digits| digits.parse().ok()).ok_or_else(invalid)
}

fn broken(message: impl Into<String>) -> ExchangeError {
    ExchangeError::Broken(message.into())
}

fn cut_short() -> ExchangeError {
    broken("The service closed the connection in the middle of its answer.")
}

fn too_large() -> ExchangeError {
    broken(format!("The service's answer is over {} MiB.", MAX_BODY / 1024 / 1024))
}

#[cfg(test)]
mod tests {
    use axum::http::header::{CONTENT_TYPE, ETAG};
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    use super::*;

    const KEEP: &[HeaderName] = &[CONTENT_TYPE];

    fn host() -> HeaderValue {
        HeaderValue::from_static("service.test")
    }

    fn request(method: Method, target: &str) -> Outgoing {
        Outgoing::new(method, Target::new(target.to_string()).unwrap())
    }

    fn get(target: &str) -> Outgoing {
        request(Method::GET, target)
    }

    /// One exchange with a service that sends `answer` (in pieces of `piece` bytes) and, with `then_close`, closes
    /// its side after it. The outcome, and the request as the service received it.
    async fn exchange_with(
        answer: &'static [u8],
        piece: usize,
        then_close: bool,
        request: Outgoing,
    ) -> (Result<(Answer, bool), ExchangeError>, String) {
        let (client, mut service) = tokio::io::duplex(1 << 20);
        let service = tokio::spawn(async move {
            // The client may stop reading early (and hang up): the rest is then not sent.
            for part in answer.chunks(piece) {
                if service.write_all(part).await.is_err() {
                    break;
                }
                tokio::task::yield_now().await;
            }
            if then_close {
                let _ = service.shutdown().await;
            }
            let mut received = Vec::new();
            service.read_to_end(&mut received).await.unwrap();
            String::from_utf8(received).unwrap()
        });
        let mut connection = Connection::new(client);
        let outcome = connection.exchange(&request, &host(), KEEP).await;
        drop(connection);
        (outcome, service.await.unwrap())
    }

    async fn answer_to_get(answer: &'static [u8]) -> (Answer, bool) {
        exchange_with(answer, answer.len(), false, get("/v2/status")).await.0.unwrap()
    }

    fn broken_message(outcome: Result<(Answer, bool), ExchangeError>) -> String {
        match outcome {
            Err(ExchangeError::Broken(message)) => message,
            other => panic!("expected a broken answer, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn the_request_head_names_the_target_the_host_and_the_callers_headers() {
        let mut request = get("/v2/renders?limit=5");
        request.headers.insert("accept", HeaderValue::from_static("application/json"));
        request.headers.insert("host", HeaderValue::from_static("elsewhere.test"));
        let (outcome, sent) = exchange_with(b"HTTP/1.1 204 No Content\r\n\r\n", 64, false, request).await;
        outcome.unwrap();
        assert_eq!(sent, "GET /v2/renders?limit=5 HTTP/1.1\r\nhost: service.test\r\naccept: application/json\r\n\r\n");
    }

    #[tokio::test]
    async fn a_request_body_goes_with_its_length_and_an_empty_post_says_so() {
        let mut json = request(Method::POST, "/v2/renders");
        json.headers.insert("content-length", HeaderValue::from_static("999"));
        json.body = Bytes::from_static(b"{\"a\":1}");
        let (_, sent) = exchange_with(b"HTTP/1.1 204 No Content\r\n\r\n", 64, false, json).await;
        assert_eq!(sent, "POST /v2/renders HTTP/1.1\r\nhost: service.test\r\ncontent-length: 7\r\n\r\n{\"a\":1}");

        let empty = request(Method::POST, "/v2/renders");
        let (_, sent) = exchange_with(b"HTTP/1.1 204 No Content\r\n\r\n", 64, false, empty).await;
        assert_eq!(sent, "POST /v2/renders HTTP/1.1\r\nhost: service.test\r\ncontent-length: 0\r\n\r\n");

        // A large body follows its head in a write of its own, whole.
        let large = Bytes::from(vec![b'x'; COALESCED_BODY * 3]);
        let mut upload = request(Method::POST, "/v1/render/create");
        upload.body = large.clone();
        let (_, sent) = exchange_with(b"HTTP/1.1 204 No Content\r\n\r\n", 64, false, upload).await;
        assert!(sent.ends_with(&format!("content-length: {}\r\n\r\n{}", large.len(), "x".repeat(large.len()))));
    }

    #[tokio::test]
    async fn an_answer_with_a_length_is_read_whole_and_keeps_only_the_headers_asked_for() {
        let answer =
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Other: 1\r\nContent-Length: 7\r\n\r\n{\"a\":1}";
        let (answer, reusable) = answer_to_get(answer).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.body, "{\"a\":1}");
        assert_eq!(answer.headers.len(), 1);
        assert_eq!(answer.headers[CONTENT_TYPE], "application/json");
        assert!(reusable);
    }

    #[tokio::test]
    async fn an_answer_arriving_a_byte_at_a_time_is_put_together() {
        let answer = b"HTTP/1.1 201 Created\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\r\nhello";
        let (outcome, _) = exchange_with(answer, 1, false, get("/")).await;
        let (answer, reusable) = outcome.unwrap();
        assert_eq!((answer.status, &answer.body[..], reusable), (StatusCode::CREATED, &b"hello"[..], true));
    }

    #[tokio::test]
    async fn a_large_body_is_read_whole() {
        static ANSWER: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(|| {
            let body = vec![7u8; 3 * 1024 * 1024];
            let mut answer = format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n", body.len()).into_bytes();
            answer.extend(body);
            answer
        });
        let (outcome, _) = exchange_with(&ANSWER, 100_000, false, get("/files/a.png")).await;
        let (answer, reusable) = outcome.unwrap();
        assert_eq!(answer.body.len(), 3 * 1024 * 1024);
        assert!(answer.body.iter().all(|&byte| byte == 7));
        assert!(reusable);
    }

    #[tokio::test]
    async fn a_chunked_answer_is_put_together_with_extensions_and_trailers() {
        let answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n\
                       5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Checksum: 1\r\n\r\n";
        for piece in [1, 7, answer.len()] {
            let (outcome, _) = exchange_with(answer, piece, false, get("/")).await;
            let (answer, reusable) = outcome.unwrap();
            assert_eq!(answer.body, "hello world");
            assert!(reusable);
        }
    }

    #[tokio::test]
    async fn malformed_chunks_are_refused() {
        let (outcome, _) =
            exchange_with(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n", 64, true, get("/")).await;
        assert!(broken_message(outcome).contains("chunk size"));
        let (outcome, _) = exchange_with(
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
            64,
            true,
            get("/"),
        )
        .await;
        assert!(broken_message(outcome).contains("longer than its size"));
    }

    #[tokio::test]
    async fn an_answer_without_a_length_lasts_until_the_service_closes() {
        let (outcome, _) = exchange_with(b"HTTP/1.1 200 OK\r\n\r\nall of it", 4, true, get("/")).await;
        let (answer, reusable) = outcome.unwrap();
        assert_eq!(answer.body, "all of it");
        assert!(!reusable);
        // So does one whose last coding is not chunked.
        let (outcome, _) =
            exchange_with(b"HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\nzzz", 64, true, get("/")).await;
        assert!(!outcome.unwrap().1);
    }

    #[tokio::test]
    async fn the_connection_is_kept_only_when_the_service_means_to() {
        let cases: [(&'static [u8], bool); 6] = [
            (b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", true),
            (b"HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 0\r\n\r\n", false),
            (b"HTTP/1.1 200 OK\r\nconnection: keep-alive, Close\r\ncontent-length: 0\r\n\r\n", false),
            (b"HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n", false),
            (b"HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\ncontent-length: 0\r\n\r\n", true),
            // Both framings: chunked wins, and the connection cannot be trusted afterwards.
            (b"HTTP/1.1 200 OK\r\ncontent-length: 50\r\ntransfer-encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n", false),
        ];
        for (answer, kept) in cases {
            let (_, reusable) = answer_to_get(answer).await;
            assert_eq!(reusable, kept, "{}", String::from_utf8_lossy(answer));
        }
    }

    #[tokio::test]
    async fn bytes_after_the_answer_make_the_connection_unusable() {
        let (answer, reusable) =
            answer_to_get(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n").await;
        assert_eq!(answer.body, "ok");
        assert!(!reusable);
    }

    #[tokio::test]
    async fn interim_answers_are_skipped() {
        let (answer, _) = answer_to_get(
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a.css>\r\n\r\n\
              HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\ndone",
        )
        .await;
        assert_eq!((answer.status, &answer.body[..]), (StatusCode::OK, &b"done"[..]));
    }

    #[tokio::test]
    async fn answers_without_a_body_end_at_their_head_and_the_next_answer_reads_cleanly() {
        let (client, mut service) = tokio::io::duplex(4096);
        let script = tokio::spawn(async move {
            let answers: [&[u8]; 3] = [
                b"HTTP/1.1 304 Not Modified\r\ncontent-length: 10\r\netag: \"a\"\r\n\r\n",
                b"HTTP/1.1 204 No Content\r\n\r\n",
                b"HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nnext",
            ];
            for answer in answers {
                read_request_head(&mut service).await;
                service.write_all(answer).await.unwrap();
            }
        });
        let mut connection = Connection::new(client);
        let (answer, reusable) = connection.exchange(&get("/a"), &host(), &[ETAG]).await.unwrap();
        assert_eq!((answer.status, answer.body.len(), reusable), (StatusCode::NOT_MODIFIED, 0, true));
        assert_eq!(answer.headers[ETAG], "\"a\"");
        let (answer, reusable) = connection.exchange(&get("/b"), &host(), KEEP).await.unwrap();
        assert_eq!((answer.status, answer.body.len(), reusable), (StatusCode::NO_CONTENT, 0, true));
        let (answer, reusable) = connection.exchange(&get("/c"), &host(), KEEP).await.unwrap();
        assert_eq!((&answer.body[..], reusable), (&b"next"[..], true));
        script.await.unwrap();
    }

    async fn read_request_head(service: &mut DuplexStream) {
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(service.read_u8().await.unwrap());
        }
    }

    #[tokio::test]
    async fn an_answer_to_head_has_no_body() {
        let head = request(Method::HEAD, "/a");
        let (outcome, _) = exchange_with(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n", 64, false, head).await;
        let (answer, reusable) = outcome.unwrap();
        assert!(answer.body.is_empty() && reusable);
    }

    #[tokio::test]
    async fn invalid_or_conflicting_lengths_are_refused() {
        for answer in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: +5\r\n\r\nhello"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello",
            b"HTTP/1.1 200 OK\r\ncontent-length: 5, 6\r\n\r\nhello",
            b"HTTP/1.1 200 OK\r\ncontent-length: 99999999999999999999999\r\n\r\n",
        ] {
            let (outcome, _) = exchange_with(answer, 64, true, get("/")).await;
            assert!(broken_message(outcome).contains("Content-Length"), "{}", String::from_utf8_lossy(answer));
        }
        // The same length twice is one length.
        let (answer, _) =
            answer_to_get(b"HTTP/1.1 200 OK\r\ncontent-length: 2, 2\r\ncontent-length: 2\r\n\r\nok").await;
        assert_eq!(answer.body, "ok");
    }

    #[tokio::test]
    async fn oversized_answers_are_refused_before_they_are_read() {
        let (outcome, _) =
            exchange_with(b"HTTP/1.1 200 OK\r\ncontent-length: 999999999999\r\n\r\n", 64, true, get("/")).await;
        assert!(broken_message(outcome).contains("MiB"));

        static LONG_HEAD: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(|| {
            let mut head = b"HTTP/1.1 200 OK\r\n".to_vec();
            head.extend(b"x-padding: ".iter().chain(&[b'a'; MAX_HEAD]).chain(b"\r\n"));
            head
        });
        let (outcome, _) = exchange_with(&LONG_HEAD, 4096, true, get("/")).await;
        assert!(broken_message(outcome).contains("KiB"));

        static MANY_HEADERS: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(|| {
            let mut head = b"HTTP/1.1 200 OK\r\n".to_vec();
            (0..=MAX_HEADERS).for_each(|n| head.extend(format!("x-{n}: 1\r\n").bytes()));
            head.extend(b"\r\n");
            head
        });
        let (outcome, _) = exchange_with(&MANY_HEADERS, 4096, true, get("/")).await;
        assert!(broken_message(outcome).contains("headers"));
    }

    #[tokio::test]
    async fn an_answer_that_is_not_http_is_refused() {
        let (outcome, _) = exchange_with(b"SSH-2.0-OpenSSH_9.2\r\n\r\n", 64, true, get("/")).await;
        assert!(broken_message(outcome).contains("not HTTP/1.1"));
        let (outcome, _) = exchange_with(b"HTTP/1.1 101 Switching Protocols\r\n\r\n", 64, true, get("/")).await;
        assert!(broken_message(outcome).contains("switched protocols"));
    }

    #[tokio::test]
    async fn an_end_before_the_answer_differs_from_an_end_inside_it() {
        let (outcome, _) = exchange_with(b"", 1, true, get("/")).await;
        assert!(matches!(outcome, Err(ExchangeError::NoAnswer(_))), "{outcome:?}");
        let (outcome, _) = exchange_with(b"HTTP/1.1 200 OK\r\ncontent-le", 64, true, get("/")).await;
        assert!(broken_message(outcome).contains("middle of its answer"));
        let (outcome, _) =
            exchange_with(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhalf", 64, true, get("/")).await;
        assert!(broken_message(outcome).contains("middle of its answer"));
    }

    #[test]
    fn targets_are_origin_form_and_visible_ascii_only() {
        assert_eq!(
            Target::new("/v2/renders?limit=5&cursor=a%20b".into()).unwrap().as_str(),
            "/v2/renders?limit=5&cursor=a%20b"
        );
        for bad in
            ["v2/renders", "http://elsewhere/v2", "/v2/renders?a=b c", "/v2\r\nx: 1", "/v2#part", "/v2/\u{e9}", ""]
        {
            assert!(Target::new(bad.into()).is_err(), "{bad:?}");
        }
    }

    #[tokio::test]
    async fn an_idle_connection_is_open_until_the_service_closes_it_or_says_something_unasked() {
        let (client, mut service) = tokio::io::duplex(4096);
        let mut connection = Connection::new(client);
        assert!(connection.is_open());
        service.write_all(b"HTTP/1.1 408 Request Timeout\r\n\r\n").await.unwrap();
        assert!(!connection.is_open());

        let (client, service) = tokio::io::duplex(4096);
        let mut connection = Connection::new(client);
        drop(service);
        assert!(!connection.is_open());
    }
}
