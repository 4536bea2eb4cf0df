//! The key check of service-api.md part 5: `Authorization: Api-Key <KEY>`, the key exact, the scheme in any case
//! (an authentication scheme is case-insensitive, RFC 9110 section 11.1; public clients send `Api-key`), and
//! `Bearer <KEY>` too, which a client in production sends (docs/api-notes.md, "Authentication failures").
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
        .and_then(api_key)
        .ok_or(SandboxError::Unauthorized("Malformed Authorization header: use `Api-Key <your key>`."))?;
    accounts.find(key).cloned().ok_or(SandboxError::Unauthorized("Invalid API key."))
}

/// The key of an `Api-Key <KEY>` (or `Bearer <KEY>`) credential: the scheme in any case, then one or more spaces,
/// then the key.
fn api_key(credentials: &str) -> Option<&str> {
    let (scheme, key) = credentials.split_once(' ')?;
    let key = key.trim_start_matches(' ');
    let known = ["Api-Key", "Bearer"].iter().any(|known| scheme.eq_ignore_ascii_case(known));
    (known && !key.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::api_key;

    #[test]
    fn the_scheme_is_read_in_any_case_and_the_key_exactly() {
        assert_eq!(api_key("Api-Key k-1"), Some("k-1"));
        // iconicvirtualai/iconic-virtual-vsai-demo, lib/vsai.ts: `Api-key ${VSAI_API_KEY}`
        assert_eq!(api_key("Api-key K-1"), Some("K-1"));
        assert_eq!(api_key("API-KEY  k"), Some("k"));
        // viktorvidual/digital-estate, supabase/functions/create-variations/index.ts: `Bearer ${KEY}`
        assert_eq!(api_key("Bearer k-1"), Some("k-1"));
        for refused in ["Api-Key", "Api-Key ", "Basic k", "Api-Keyk", "ApiKey k", "Token k"] {
            assert_eq!(api_key(refused), None, "{refused}");
        }
    }
}
