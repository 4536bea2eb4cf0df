//! The demo listing page of sandbox mode: `/demo/listing.html`, a listing site with two agents' widgets, and
//! `POST /demo/token`, which mints their widget tokens as a host site's backend would. Offered only in open access
//! with the embedded sandbox, never with `--upstream` or to a server that takes real tokens.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::access::DEMO_SUBJECT_PREFIX;
use crate::access::token::WidgetSecret;
use crate::error::ServerError;

const PAGE: &str = include_str!("../../assets/demo/listing.html");
const DEFAULT_TTL_S: u64 = 3600;
const MAX_TTL_S: u64 = 24 * 3600;

#[derive(Debug, Deserialize)]
struct TokenRequest {
    /// The agent's name on the demo page: letters, digits and `-`.
    agent: String,
    /// Seconds the token lasts (1 to a day; an hour by default).
    #[serde(default)]
    ttl_s: Option<u64>,
}

#[derive(Debug, Serialize)]
struct Minted {
    token: String,
    subject: String,
    /// Seconds since the Unix epoch.
    expires_at: u64,
}

pub fn routes(secret: WidgetSecret) -> Router {
    Router::new()
        .route(
            "/demo/listing.html",
            get(|| async { ([(CONTENT_TYPE, "text/html; charset=utf-8"), (CACHE_CONTROL, "no-cache")], PAGE) }),
        )
        .route("/demo/token", post(mint))
        .with_state(Arc::new(secret))
}

async fn mint(
    State(secret): State<Arc<WidgetSecret>>,
    Json(request): Json<TokenRequest>,
) -> Result<impl IntoResponse, ServerError> {
    let agent = request.agent.trim();
    if agent.is_empty() || agent.len() > 32 || !agent.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(ServerError::BadRequest("agent must be 1 to 32 letters, digits or dashes, e.g. \"ana\"".into()));
    }
    let ttl_s = request.ttl_s.unwrap_or(DEFAULT_TTL_S);
    if !(1..=MAX_TTL_S).contains(&ttl_s) {
        return Err(ServerError::BadRequest(format!("ttl_s must be between 1 and {MAX_TTL_S} seconds")));
    }
    let subject = format!("{DEMO_SUBJECT_PREFIX}{agent}");
    let ttl = Duration::from_secs(ttl_s);
    let token = secret.mint(&subject, ttl, None);
    let expires_at = (SystemTime::now() + ttl).duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    Ok(([(CACHE_CONTROL, "no-store")], Json(Minted { token, subject, expires_at })))
}
