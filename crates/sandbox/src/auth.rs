//! The key check of service-api.md part 5: `Authorization: Api-Key <KEY>`, exactly, case-sensitive.
//! Handlers that take an `Authenticated` run only for a known key; anything else is a 401 `{"message"}`.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use crate::SandboxState;
use crate::accounts::{Account, Accounts};
use crate::error::SandboxError;

/// The account whose key authorised this request.
#[derive(Debug, Clone)]
pub struct Authenticated(pub Account);

impl FromRequestParts<Arc<SandboxState>> for Authenticated {
    type Rejection = SandboxError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<SandboxState>) -> Result<Self, Self::Rejection> {
        authenticate(&parts.headers, &state.accounts).map(Authenticated)
    }
}

/// The account of the request's key, or why there is none.
pub fn authenticate(headers: &HeaderMap, accounts: &Accounts) -> Result<Account, SandboxError> {
    let header = headers
        .get(AUTHORIZATION)
        .ok_or(SandboxError::Unauthorized("Missing Authorization header: send `Authorization: Api-Key <your key>`."))?;
    let key = header
        .to_str()
        .ok()
        .and_then(|value| value.strip_prefix("Api-Key "))
        .ok_or(SandboxError::Unauthorized("Malformed Authorization header: use `Api-Key <your key>`."))?;
    accounts.find(key).cloned().ok_or(SandboxError::Unauthorized("Invalid API key."))
}
