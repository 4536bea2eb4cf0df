//! The least a transfer must move once it waits, as nginx's `client_body_timeout` and `send_timeout` count between
//! two reads or writes rather than over the whole transfer: a request body, or an answer the connection is
//! writing, that moves fewer than `bytes` in the `window` after it began to wait loses its connection (a body is
//! answered 408 first). A client that takes or gives a byte now and then, just in time, so no longer holds its
//! place for the whole `--body-timeout-s`, `--upload-timeout-s` or `--send-timeout-s`: those stay upper bounds.
//! A transfer that keeps up never waits and is never watched.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use crate::error::ServerError;

/// At least `bytes` in any `window` in which a transfer waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinRate {
    pub bytes: u64,
    pub window: Duration,
}

impl MinRate {
    /// The sentence for a client whose body was cut off.
    fn body_too_slow(&self) -> String {
        format!(
            "The request's body moved fewer than {} bytes in {} s; send it again on a faster connection.",
            self.bytes,
            self.window.as_secs()
        )
    }

    /// Why a connection whose answer was left unread ended (in the server's debug log).
    fn answer_too_slow(&self) -> String {
        match self.bytes {
            1 => format!("the client took nothing of the answer in {} s (--send-timeout-s)", self.window.as_secs()),
            bytes => format!("the client took fewer than {bytes} bytes of the answer in {} s", self.window.as_secs()),
        }
    }
}

/// One direction's watch. A window opens when the transfer first waits; it closes once `bytes` moved in it. Its
/// clock runs only while the transfer waits (the other side has not given or taken what this one is ready for),
/// never while this side has nothing to send or does not ask for more (a handler at work, a stream between
/// events, a connection between requests).
struct Watch {
    rate: MinRate,
    window: Option<Window>,
    /// When the present wait began.
    waiting_since: Option<Instant>,
    /// When the open window runs out if this wait goes on; made at the first wait.
    runs_out: Option<Pin<Box<Sleep>>>,
    /// Of what the other side took in the present wait, what earlier windows of it counted.
    counted: u64,
}

/// What moved in the open window, and how long it had waited before the present wait.
struct Window {
    moved: u64,
    waited: Duration,
}

impl Watch {
    fn new(rate: MinRate) -> Watch {
        Watch { rate, window: None, waiting_since: None, runs_out: None, counted: 0 }
    }

    /// The wait (if any) ended with `count` bytes moved; enough closes the window.
    fn moved(&mut self, count: usize) {
        self.counted = 0;
        let waited = self.waiting_since.take().map(|since| since.elapsed());
        let Some(window) = &mut self.window else { return };
        window.waited = window.waited.saturating_add(waited.unwrap_or_default());
        window.moved = window.moved.saturating_add(u64::try_from(count).unwrap_or(u64::MAX));
        if window.moved >= self.rate.bytes {
            self.window = None;
        }
    }

    /// The transfer waits: opens a window if none is, and says whether the open one ran out with too little moved.
    fn ran_out(&mut self, cx: &mut Context<'_>) -> bool {
        self.ran_out_taking(cx, || 0)
    }

    /// The same, where `taken` says how many bytes the other side took since the present wait began, which no
    /// wake-up counts (what a client read out of the socket's send buffer: the kernel wakes a writer only once much
    /// of a large buffer is free, so a steady reader can take a whole window's worth before the write goes on). A
    /// window that runs out having taken enough that way is a new window, from now.
    fn ran_out_taking(&mut self, cx: &mut Context<'_>, mut taken: impl FnMut() -> u64) -> bool {
        loop {
            let window = self.window.get_or_insert(Window { moved: 0, waited: Duration::ZERO });
            if self.waiting_since.is_none() {
                let now = Instant::now();
                self.waiting_since = Some(now);
                let end = now + self.rate.window.saturating_sub(window.waited);
                match &mut self.runs_out {
                    Some(runs_out) => runs_out.as_mut().reset(end),
                    None => self.runs_out = Some(Box::pin(tokio::time::sleep_until(end))),
                }
            }
            if !self.runs_out.as_mut().is_some_and(|runs_out| runs_out.as_mut().poll(cx).is_ready()) {
                return false;
            }
            let taken = taken();
            if window.moved.saturating_add(taken.saturating_sub(self.counted)) < self.rate.bytes {
                return true;
            }
            // Enough went while it waited: the wait goes on in a new window.
            self.counted = taken;
            self.window = None;
            self.waiting_since = None;
        }
    }
}

/// A request body held to the rate; `slow` is set when it was cut off, for the answer to say so.
pub struct PacedBody {
    body: Body,
    watch: Watch,
    slow: Arc<AtomicBool>,
}

#[derive(Debug, thiserror::Error)]
#[error("the request's body moved too slowly")]
struct TooSlow;

/// In a request whose body is held to the rate: says whether it was cut off, for the app to answer 408 (its log
/// line, metrics and request id then tell what the client was answered).
#[derive(Clone)]
pub struct SlowBody {
    slow: Arc<AtomicBool>,
    rate: MinRate,
}

/// The request with its body held to `rate` (and a [`SlowBody`] among its extensions); a request without a body
/// as it is.
pub fn pace_body(mut request: hyper::Request<Body>, rate: Option<MinRate>) -> hyper::Request<Body> {
    let Some(rate) = rate.filter(|_| !hyper::body::Body::is_end_stream(request.body())) else { return request };
    let slow = Arc::new(AtomicBool::new(false));
    request.extensions_mut().insert(SlowBody { slow: slow.clone(), rate });
    request.map(|body| Body::new(PacedBody { body, watch: Watch::new(rate), slow }))
}

impl SlowBody {
    /// The request's, when its body is held to the rate.
    pub fn of<B>(request: &hyper::Request<B>) -> Option<SlowBody> {
        request.extensions().get::<SlowBody>().cloned()
    }

    /// The answer, or when the body was cut off a 408 that says why, the connection closed after it.
    pub fn answer(&self, mut answer: Response) -> Response {
        if !self.slow.load(Ordering::Relaxed) {
            return answer;
        }
        let mut refused = ServerError::BodyTimeout(self.rate.body_too_slow()).into_response();
        *refused.extensions_mut() = std::mem::take(answer.extensions_mut());
        refused.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        refused
    }
}

/// The layer that answers a request whose body was cut off for moving too slowly with the 408 that says so,
/// whatever the handler made of the missing bytes.
#[derive(Debug, Clone, Copy)]
pub struct SlowBodyLayer;

impl<S> tower::Layer<S> for SlowBodyLayer {
    type Service = SlowBodies<S>;

    fn layer(&self, inner: S) -> SlowBodies<S> {
        SlowBodies { inner }
    }
}

/// `inner`, its answer to a body cut off for its pace replaced by the 408 ([`SlowBodyLayer`]).
#[derive(Debug, Clone)]
pub struct SlowBodies<S> {
    inner: S,
}

impl<S> tower::Service<axum::extract::Request> for SlowBodies<S>
where
    S: tower::Service<axum::extract::Request, Response = Response, Error = std::convert::Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = futures_util::future::Either<
        S::Future,
        futures_util::future::BoxFuture<'static, Result<Response, std::convert::Infallible>>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::extract::Request) -> Self::Future {
        let Some(slow_body) = SlowBody::of(&request) else {
            return futures_util::future::Either::Left(self.inner.call(request));
        };
        let answer = self.inner.call(request);
        futures_util::future::Either::Right(Box::pin(async move {
            let Ok(response) = answer.await;
            Ok(slow_body.answer(response))
        }))
    }
}

impl hyper::body::Body for PacedBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        match Pin::new(&mut self.body).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                let count = frame.data_ref().map_or(0, Bytes::len);
                self.watch.moved(count);
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(other) => Poll::Ready(other.map(|frame| frame.map_err(Into::into))),
            Poll::Pending if self.watch.ran_out(cx) => {
                self.slow.store(true, Ordering::Relaxed);
                Poll::Ready(Some(Err(TooSlow.into())))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A connection whose writes are held to the rate and to the send time-out: once its writes have waited for the
/// client a whole window in which fewer than the rate's bytes went out (or a whole `--send-timeout-s` in which
/// nothing did), the write fails and the connection ends. What went out is what the client took: bytes written,
/// and while a write waits, what left the socket's send buffer (`unsent`). Reads pass as they are (a request's
/// head has its own time-out, its body the body's watch).
pub struct PacedWrites<Io> {
    io: Io,
    watches: Vec<Watch>,
    unsent: Unsent,
}

impl<Io> PacedWrites<Io> {
    pub fn new(io: Io, unsent: Unsent, rate: Option<MinRate>, send_timeout: Option<Duration>) -> Self {
        let nothing_taken = send_timeout.map(|window| MinRate { bytes: 1, window });
        PacedWrites { io, watches: rate.into_iter().chain(nothing_taken).map(Watch::new).collect(), unsent }
    }

    /// What became of a write: bytes that went count, a wait is watched by each watch.
    fn watched(&mut self, cx: &mut Context<'_>, written: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        match written {
            Poll::Ready(Ok(count)) => {
                for watch in &mut self.watches {
                    watch.moved(count);
                }
                self.unsent.wait_ended();
                Poll::Ready(Ok(count))
            }
            Poll::Pending => {
                self.unsent.wait_began();
                let unsent = &self.unsent;
                for watch in &mut self.watches {
                    if watch.ran_out_taking(cx, || unsent.taken()) {
                        return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, watch.rate.answer_too_slow())));
                    }
                }
                Poll::Pending
            }
            other => other,
        }
    }
}

/// What a connection's socket still holds to send (Linux's `SIOCOUTQ`), to tell what a waiting client took.
pub struct Unsent {
    #[cfg(target_os = "linux")]
    socket: Option<std::os::fd::RawFd>,
    /// What it held when the present wait began.
    since: Option<u64>,
}

impl Unsent {
    /// The socket of `stream`, read while the connection lives (the stream owns it).
    pub fn of(stream: &tokio::net::TcpStream) -> Unsent {
        #[cfg(target_os = "linux")]
        return Unsent { socket: Some(std::os::fd::AsRawFd::as_raw_fd(stream)), since: None };
        #[cfg(not(target_os = "linux"))]
        return {
            let _ = stream;
            Unsent { since: None }
        };
    }

    fn wait_began(&mut self) {
        if self.since.is_none() {
            self.since = self.held();
        }
    }

    fn wait_ended(&mut self) {
        self.since = None;
    }

    /// Bytes that left the send buffer since the present wait began.
    fn taken(&self) -> u64 {
        let (Some(first), Some(now)) = (self.since, self.held()) else { return 0 };
        first.saturating_sub(now)
    }

    fn held(&self) -> Option<u64> {
        #[cfg(target_os = "linux")]
        {
            let socket = self.socket?;
            let mut held: libc::c_int = 0;
            // SAFETY: SIOCOUTQ (TIOCOUTQ) writes one int; the descriptor is the connection's own, open while the
            // connection (which owns this) is.
            let done = unsafe { libc::ioctl(socket, libc::TIOCOUTQ, &mut held) };
            (done == 0).then(|| u64::try_from(held).unwrap_or(0))
        }
        #[cfg(not(target_os = "linux"))]
        None
    }
}

impl<Io: AsyncRead + Unpin> AsyncRead for PacedWrites<Io> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<Io: AsyncWrite + Unpin> AsyncWrite for PacedWrites<Io> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watched(cx, written)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watched(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}
