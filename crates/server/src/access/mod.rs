//! Who is calling: in `open` access a call without a token is the one local subject; a call with a widget token
//! (required in `token` access) acts for the token's subject only. Also counts each request against the rate limit,
//! and hands the subject the means to count the further service calls the request makes (`Subject::spend_calls`).

pub mod cap;
mod grant;
pub mod jwt;
pub mod open_guard;
pub mod rate_limit;
pub mod token;

use std::sync::Arc;
use std::time::SystemTime;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, ORIGIN, REFERER};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use crate::access::cap::{Cap, Slot};
use crate::access::rate_limit::RateLimit;
use crate::access::token::WidgetSecret;
use crate::error::ServerError;

/// The subject of every call in `open` access.
pub const OPEN_SUBJECT: &str = "local";
/// The demo page's agents, who live apart from any real subject.
pub const DEMO_SUBJECT_PREFIX: &str = "demo:";

#[derive(Debug)]
pub enum Access {
    /// No token needed; only on a loopback address. A token, when a call carries one, narrows it to the token's
    /// subject (the demo listing page's agents); `tokens` checks them when the server has a widget secret.
    Open { tokens: Option<WidgetSecret> },
    /// Widget tokens signed with this secret.
    Token(WidgetSecret),
}

impl Access {
    pub fn name(&self) -> &'static str {
        match self {
            Access::Open { .. } => "open",
            Access::Token(_) => "token",
        }
    }

    pub fn is_token(&self) -> bool {
        matches!(self, Access::Token(_))
    }

    /// The secret widget tokens are checked with, if this server takes them.
    pub fn widget_secret(&self) -> Option<&WidgetSecret> {
        match self {
            Access::Open { tokens } => tokens.as_ref(),
            Access::Token(secret) => Some(secret),
        }
    }
}

/// The subject a call acts for, put in the request's extensions by [`authenticate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    name: Arc<str>,
    from_token: bool,
    /// When the token it came from expires (Unix seconds).
    expires_at: Option<u64>,
    /// Where its service calls are counted, when they are.
    calls: Option<CallCount>,
}

/// A subject's (or open access's client address's) place in the rate limit and under the in-flight cap.
#[derive(Debug, Clone)]
struct CallCount {
    limit: Option<Arc<RateLimit>>,
    in_flight: Option<Arc<Cap>>,
    key: Arc<str>,
}

impl PartialEq for CallCount {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for CallCount {}

impl Subject {
    pub fn as_str(&self) -> &str {
        &self.name
    }

    /// Whether a widget token named the subject: then it sees only what it created.
    pub fn by_token(&self) -> bool {
        self.from_token
    }

    /// When the token that named the subject expires: a stream opened with it ends then. An expiry beyond what
    /// the clock can hold (a host's "never") is none.
    pub fn expires_at(&self) -> Option<SystemTime> {
        self.expires_at.and_then(|secs| SystemTime::UNIX_EPOCH.checked_add(std::time::Duration::from_secs(secs)))
    }

    /// Counts `calls` more calls to the service made for this subject's request (beyond the one its arrival
    /// counted), before they are made; waits a little for them, else 429.
    pub async fn spend_calls(&self, calls: u32) -> Result<(), ServerError> {
        match self.calls.as_ref().and_then(|count| Some((count.limit.as_ref()?, &count.key))) {
            Some((limit, key)) if calls > 0 => limit.spend(key, calls).await,
            _ => Ok(()),
        }
    }

    /// Places under the in-flight cap for up to `wanted` more calls at once, beyond the one its arrival took: as
    /// many as are free (all of them when there is no cap). A request makes at most `1 + places` calls at once.
    pub fn more_places(&self, wanted: usize) -> Places {
        match self.calls.as_ref().and_then(|count| Some((count.in_flight.as_ref()?, &count.key))) {
            Some((cap, key)) => Places(Some(cap.enter_up_to(key, wanted))),
            None => Places(None),
        }
    }
}

/// Places under the in-flight cap a request holds for calls it makes at once (`Subject::more_places`).
#[derive(Debug)]
pub struct Places(Option<Vec<Slot>>);

impl Places {
    /// How many calls the request may make at once, at most `most`.
    pub fn calls_at_once(&self, most: usize) -> usize {
        self.0.as_ref().map_or(most, |slots| (1 + slots.len()).min(most))
    }
}

#[derive(Debug)]
pub struct Gate {
    pub access: Arc<Access>,
    /// Whether tokens for the demo page's subjects (`demo:...`) are taken: only where the demo page is offered,
    /// never by a server that spends a real account's photos.
    pub demo_subjects: bool,
    pub rate_limit: Option<Arc<RateLimit>>,
    /// Calls under way per subject (`--max-in-flight`; `None` for no cap).
    pub in_flight: Option<Arc<Cap>>,
}

/// A call let in: who it acts for, and its place under the in-flight cap (held until it is answered).
#[derive(Debug)]
pub struct Admitted {
    pub subject: Subject,
    pub slot: Option<Slot>,
}

impl Gate {
    /// Whether calls are counted per client address (open access with a limit), which `admit` then reads from the
    /// request's `ConnectInfo<SocketAddr>`.
    pub fn needs_peer(&self) -> bool {
        (self.rate_limit.is_some() || self.in_flight.is_some()) && !self.access.is_token()
    }

    /// The subject a call acts for, counted against the rate limit and the in-flight cap; a refusal is the
    /// answer to send.
    pub fn admit(&self, parts: &Parts) -> Result<Admitted, ServerError> {
        let mut subject = subject_of(&self.access, parts)?;
        if subject.by_token() && !self.demo_subjects && subject.as_str().starts_with(DEMO_SUBJECT_PREFIX) {
            return Err(ServerError::TokenRefused(
                "This token is for the sandbox's demo page; this server takes tokens from the listing site only."
                    .into(),
            ));
        }
        if self.rate_limit.is_none() && self.in_flight.is_none() {
            return Ok(Admitted { subject, slot: None });
        }
        let key = if subject.by_token() {
            format!("sub:{}", subject.as_str())
        } else {
            match parts.extensions.get::<ConnectInfo<std::net::SocketAddr>>() {
                Some(ConnectInfo(peer)) => address_key(peer.ip()),
                None => "ip:unknown".into(),
            }
        };
        if let Some(limit) = &self.rate_limit {
            limit.check(&key)?;
        }
        let slot = self.in_flight.as_ref().map(|in_flight| in_flight.enter(&key)).transpose()?;
        subject.calls =
            Some(CallCount { limit: self.rate_limit.clone(), in_flight: self.in_flight.clone(), key: key.into() });
        Ok(Admitted { subject, slot })
    }
}

/// `ip:ADDRESS`, the key of an open-access caller: its network (`addresses::client_network`), an IPv4 address
/// written digit by digit (the formatter's general path costs about 2,000 instructions a call, as much as all the
/// rest of admitting it), an IPv6 one as `NETWORK/64`.
fn address_key(ip: std::net::IpAddr) -> String {
    let ip = match crate::addresses::client_network(ip) {
        std::net::IpAddr::V4(ip) => ip,
        network => return format!("ip:{network}/64"),
    };
    let mut key = String::with_capacity(18);
    key.push_str("ip:");
    for (index, octet) in ip.octets().into_iter().enumerate() {
        if index > 0 {
            key.push('.');
        }
        if octet >= 100 {
            key.push(char::from(b'0' + octet / 100));
        }
        if octet >= 10 {
            key.push(char::from(b'0' + octet / 10 % 10));
        }
        key.push(char::from(b'0' + octet % 10));
    }
    key
}

/// Middleware for the `/api` routes that act for a subject (the proxy admits its calls itself, in its handler).
pub async fn authenticate(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    match gate.admit(&parts) {
        Ok(Admitted { subject, slot }) => {
            parts.extensions.insert(subject);
            let answer = next.run(Request::from_parts(parts, body)).await;
            // A streamed answer (a ZIP) is work under way until sent whole; event streams have a cap of their own.
            match slot {
                Some(slot) if !is_event_stream(&answer) => answer.map(|body| {
                    axum::body::Body::new(body.map_frame(move |frame| {
                        let _held_until_sent = &slot;
                        frame
                    }))
                }),
                _ => answer,
            }
        }
        Err(refused) => refused.into_response(),
    }
}

fn is_event_stream(answer: &Response) -> bool {
    answer.headers().get(CONTENT_TYPE).is_some_and(|value| value.as_bytes().starts_with(b"text/event-stream"))
}

fn subject_of(access: &Access, parts: &Parts) -> Result<Subject, ServerError> {
    let headers = &parts.headers;
    let in_link;
    let token = match headers.get(AUTHORIZATION).and_then(|value| value.to_str().ok()) {
        Some(value) => value.strip_prefix("Bearer ").map(str::trim),
        // An EventSource cannot set headers, nor can a download link or an image: `GET /api/events?access_token=`,
        // `GET /api/renders/{id}/results.zip?access_token=`, `GET /api/results/...?access_token=`; read as the
        // header is (decoded, then trimmed: a token given with a line feed after it works in both).
        None => {
            in_link = parts.uri.query().and_then(|query| {
                let path = parts.uri.path();
                let linked = path.ends_with("/events")
                    || path.ends_with("/results.zip")
                    || (parts.method == Method::GET
                        && (path.starts_with("/results/") || path.starts_with("/api/results/")));
                let given = query.split('&').find_map(|pair| pair.strip_prefix("access_token=")).filter(|_| linked);
                given.map(|given| percent_encoding::percent_decode_str(given).decode_utf8_lossy())
            });
            in_link.as_deref().map(str::trim)
        }
    };
    let token = token.filter(|token| !token.is_empty());
    let (secret, token) = match (access.widget_secret(), token) {
        (Some(secret), Some(token)) => (secret, token),
        _ if access.is_token() => {
            return Err(ServerError::Unauthorized(
                "This vstage server needs a widget token (Authorization: Bearer ...); the host site's backend \
                 issues it."
                    .into(),
            ));
        }
        // Open access: no token, or no widget secret to check one with (then it is the browser's own
        // credential, dropped like any other).
        _ => {
            static OPEN: std::sync::LazyLock<Subject> = std::sync::LazyLock::new(|| Subject {
                name: OPEN_SUBJECT.into(),
                from_token: false,
                expires_at: None,
                calls: None,
            });
            return Ok(OPEN.clone());
        }
    };
    let origin = page_origin(headers);
    let claims = secret
        .verify(token, origin.as_deref(), SystemTime::now())
        .map_err(|error| ServerError::TokenRefused(error.to_string()))?;
    Ok(Subject { name: claims.sub.into(), from_token: true, expires_at: Some(claims.exp), calls: None })
}

/// The origin of the page a call comes from: its `Origin`, or where the browser sends none (a link followed, a
/// download), its `Referer`'s, so that a token bound to an origin is refused from another site's link too. Neither
/// (a referrer withheld, a caller that is no browser) tells nothing.
fn page_origin(headers: &HeaderMap) -> Option<String> {
    if let Some(origin) = headers.get(ORIGIN).and_then(|value| value.to_str().ok()) {
        return Some(origin.to_string());
    }
    let referer = headers.get(REFERER).and_then(|value| value.to_str().ok())?;
    let origin = url::Url::parse(referer).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// Through the whole app, in-process, with token access, and its parts alone.
#[cfg(test)]
mod tests;
