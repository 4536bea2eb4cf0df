//! A request body that must arrive whole within a deadline, counted from the request's head: tower-http's body
//! time-out counts between two parts only, so a body sent a byte at a time, each just in time, held its connection
//! for as long as its length allowed. Past the deadline the body ends with an error and the answer is a 408.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, SizeHint};
use tokio::time::{Instant, Sleep};

use crate::error::ServerError;

/// Middleware (`from_fn_with_state`): the request's body must arrive within `limit`.
pub async fn whole_within(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    if hyper::body::Body::is_end_stream(request.body()) {
        return next.run(request).await;
    }
    let late = Arc::new(AtomicBool::new(false));
    let deadline = Box::pin(tokio::time::sleep_until(Instant::now() + limit));
    let request = request.map(|body| Body::new(Deadline { body, deadline, late: late.clone() }));
    let answer = next.run(request).await;
    if late.load(Ordering::Relaxed) {
        return ServerError::BodyTimeout(format!(
            "The request's body did not arrive within {} s; send it again on a faster connection.",
            limit.as_secs()
        ))
        .into_response();
    }
    answer
}

struct Deadline {
    body: Body,
    deadline: Pin<Box<Sleep>>,
    /// Set when the deadline ended the body, for the answer to say so.
    late: Arc<AtomicBool>,
}

#[derive(Debug, thiserror::Error)]
#[error("the request's body did not arrive in time")]
struct Late;

impl hyper::body::Body for Deadline {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.body).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.late.store(true, Ordering::Relaxed);
                Poll::Ready(Some(Err(Late.into())))
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
