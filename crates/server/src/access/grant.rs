//! What a genuine widget token grants, and why a token is refused, in words for the developer of the backend that
//! made it: shared by both formats, vstage's own `v1.` tokens (`token.rs`) and standard JWTs (`jwt.rs`).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// What a genuine token grants: its subject, until when (seconds since the Unix epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub sub: String,
    pub exp: u64,
}

/// Why a token is refused, in words for the developer of the backend that made it (the widget shows them too).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("The widget token cannot be read: {0}. Ask the host site for a new one.")]
    Malformed(String),
    #[error("The widget token's signature does not match{}; ask the host site for a new one.", signed_with(.0))]
    BadSignature(Option<&'static str>),
    #[error("The widget token has expired; reload the page to get a new one.")]
    Expired,
    #[error(
        "The widget token is not valid yet: its nbf or iat is {0} s ahead of this server's clock; check the clock of \
         the backend that made it."
    )]
    NotYet(u64),
    #[error("The widget token was issued for another site ({0}).")]
    WrongOrigin(String),
}

fn signed_with(instead: &Option<&'static str>) -> String {
    instead.map(|how| format!(" (it was signed with {how}; sign with the secret's text as UTF-8)")).unwrap_or_default()
}

/// Keys a developer may have made from the secret's text instead of using its bytes, each with how it was made.
pub(super) fn alternative_keys(secret: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let text = std::str::from_utf8(secret).unwrap_or_default();
    let hex = hex::decode(text).ok().map(|key| ("the secret's hex-decoded bytes", key));
    let base64 = base64::engine::general_purpose::STANDARD
        .decode(text)
        .or_else(|_| URL_SAFE_NO_PAD.decode(text))
        .ok()
        .map(|key| ("the secret's base64-decoded bytes", key));
    hex.into_iter().chain(base64).filter(|(_, key)| !key.is_empty()).collect()
}
