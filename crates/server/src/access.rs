//! Who is calling: in `open` access everyone is the one local subject; in `token` access every `/api` call carries
//! a widget token whose subject it acts for. Also counts each call against the rate limit.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::SystemTime;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{AUTHORIZATION, ORIGIN};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ServerError;
use crate::rate_limit::RateLimit;
use crate::token::WidgetSecret;

/// The subject of every call in `open` access.
pub const OPEN_SUBJECT: &str = "local";

#[derive(Debug)]
pub enum Access {
    /// No token; only on a loopback address.
    Open,
    /// Widget tokens signed with this secret.
    Token(WidgetSecret),
}

impl Access {
    pub fn name(&self) -> &'static str {
        match self {
            Access::Open => "open",
            Access::Token(_) => "token",
        }
    }

    pub fn is_token(&self) -> bool {
        matches!(self, Access::Token(_))
    }
}

/// The subject a call acts for, put in the request's extensions by [`authenticate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject(Arc<str>);

impl Subject {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug)]
pub struct Gate {
    pub access: Arc<Access>,
    pub rate_limit: Option<RateLimit>,
}

/// Middleware for the `/api` routes that act for a subject.
pub async fn authenticate(State(gate): State<Arc<Gate>>, mut request: Request, next: Next) -> Response {
    let subject = match subject_of(&gate.access, &request) {
        Ok(subject) => subject,
        Err(error) => return error.into_response(),
    };
    if let Some(limit) = &gate.rate_limit {
        let key = match gate.access.as_ref() {
            Access::Token(_) => format!("sub:{}", subject.as_str()),
            Access::Open => match request.extensions().get::<ConnectInfo<SocketAddr>>() {
                Some(ConnectInfo(peer)) => format!("ip:{}", peer.ip()),
                None => "ip:unknown".into(),
            },
        };
        if let Err(error) = limit.check(&key) {
            return error.into_response();
        }
    }
    request.extensions_mut().insert(subject);
    next.run(request).await
}

fn subject_of(access: &Access, request: &Request) -> Result<Subject, ServerError> {
    let secret = match access {
        Access::Open => {
            static OPEN: std::sync::LazyLock<Subject> = std::sync::LazyLock::new(|| Subject(OPEN_SUBJECT.into()));
            return Ok(OPEN.clone());
        }
        Access::Token(secret) => secret,
    };
    let headers = request.headers();
    let token = match headers.get(AUTHORIZATION).and_then(|value| value.to_str().ok()) {
        Some(value) => value.strip_prefix("Bearer ").map(str::trim),
        // An EventSource cannot set headers: `GET /api/events?access_token=...`.
        None => request.uri().query().and_then(|query| {
            query
                .split('&')
                .find_map(|pair| pair.strip_prefix("access_token="))
                .filter(|_| request.uri().path().ends_with("/events"))
        }),
    };
    let Some(token) = token.filter(|token| !token.is_empty()) else {
        return Err(ServerError::Unauthorized(
            "This vstage server needs a widget token (Authorization: Bearer ...); the host site's backend issues it."
                .into(),
        ));
    };
    let origin = headers.get(ORIGIN).and_then(|value| value.to_str().ok());
    let claims = secret
        .verify(token, origin, SystemTime::now())
        .map_err(|error| ServerError::Unauthorized(error.to_string()))?;
    Ok(Subject(claims.sub.into()))
}
