//! Widget tokens: what a host site's backend hands its page so the widget may call `/api` in `token` access.
//! `v1.<base64url(JSON {sub, exp, origin?})>.<base64url(HMAC-SHA256(secret, "v1." + payload))>`, no padding.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::Mac;
use serde::{Deserialize, Serialize};

use vstage_api::signature::hmac_sha256;

const VERSION: &str = "v1";
/// A secret shorter than this is too easy to guess.
pub const MIN_SECRET_BYTES: usize = 32;

/// What a token grants: the subject (the host site's user), until when, and from which page origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    /// Expiry, in seconds since the Unix epoch.
    pub exp: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
}

/// The shared secret (`VSTAGE_WIDGET_SECRET`) that signs and checks tokens. Never printed.
#[derive(Clone)]
pub struct WidgetSecret(Vec<u8>);

impl std::fmt::Debug for WidgetSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WidgetSecret(<redacted>)")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("The widget token is malformed; ask the host site for a new one.")]
    Malformed,
    #[error("The widget token's signature does not match; ask the host site for a new one.")]
    BadSignature,
    #[error("The widget token has expired; reload the page to get a new one.")]
    Expired,
    #[error("The widget token was issued for another site ({0}).")]
    WrongOrigin(String),
}

impl WidgetSecret {
    /// Checks that the secret is long enough to be safe.
    pub fn new(secret: &str) -> Result<Self, String> {
        if secret.len() < MIN_SECRET_BYTES {
            return Err(format!(
                "VSTAGE_WIDGET_SECRET must be at least {MIN_SECRET_BYTES} characters; generate one with \
                 `openssl rand -hex 32`"
            ));
        }
        Ok(WidgetSecret(secret.as_bytes().to_vec()))
    }

    fn mac(&self, signed_part: &str) -> hmac::Hmac<sha2::Sha256> {
        hmac_sha256(&self.0, signed_part.as_bytes())
    }

    /// The secret's bytes, to derive other keys from (the kept results' links).
    pub(crate) fn as_key(&self) -> &[u8] {
        &self.0
    }

    /// A token for `sub`, valid for `ttl` from now (however long: the expiry saturates).
    pub fn mint(&self, sub: &str, ttl: Duration, origin: Option<&str>) -> String {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let exp = now.saturating_add(ttl.as_secs());
        let claims = Claims { sub: sub.to_string(), exp, origin: origin.map(str::to_string) };
        self.sign(&claims)
    }

    /// The token carrying exactly `claims`.
    pub fn sign(&self, claims: &Claims) -> String {
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims).expect("claims serialise"));
        let signed_part = format!("{VERSION}.{payload}");
        let signature = URL_SAFE_NO_PAD.encode(self.mac(&signed_part).finalize().into_bytes());
        format!("{signed_part}.{signature}")
    }

    /// The claims of a genuine, unexpired token used from `request_origin` (the `Origin` header, when the browser
    /// sent one: same-origin GETs carry none, and non-browser callers could forge it anyway).
    pub fn verify(&self, token: &str, request_origin: Option<&str>, now: SystemTime) -> Result<Claims, TokenError> {
        let (signed_part, signature) = token.rsplit_once('.').ok_or(TokenError::Malformed)?;
        let payload = signed_part.strip_prefix("v1.").ok_or(TokenError::Malformed)?;
        let signature = URL_SAFE_NO_PAD.decode(signature).map_err(|_| TokenError::Malformed)?;
        // Constant-time and length-checked.
        self.mac(signed_part).verify_slice(&signature).map_err(|_| TokenError::BadSignature)?;
        let claims: Claims = URL_SAFE_NO_PAD
            .decode(payload)
            .ok()
            .and_then(|json| serde_json::from_slice(&json).ok())
            .ok_or(TokenError::Malformed)?;
        if claims.sub.is_empty() {
            return Err(TokenError::Malformed);
        }
        let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        if claims.exp <= now {
            return Err(TokenError::Expired);
        }
        if let (Some(expected), Some(actual)) = (&claims.origin, request_origin)
            && expected.trim_end_matches('/') != actual
        {
            return Err(TokenError::WrongOrigin(expected.clone()));
        }
        Ok(claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret() -> WidgetSecret {
        WidgetSecret::new("0123456789abcdef0123456789abcdef").unwrap()
    }

    #[test]
    fn a_minted_token_verifies_and_carries_its_claims() {
        let token = secret().mint("agent-7", Duration::from_secs(60), Some("https://listings.example"));
        let claims = secret().verify(&token, Some("https://listings.example"), SystemTime::now()).unwrap();
        assert_eq!(claims.sub, "agent-7");
        assert_eq!(secret().verify(&token, None, SystemTime::now()).unwrap().sub, "agent-7");
    }

    /// docs/embedding.md's test vector, which kit/widget-token.mjs makes too (crates/server/tests/browser/host_kit.rs).
    #[test]
    fn the_documented_test_vector_is_what_the_server_signs_and_accepts() {
        let secret = WidgetSecret::new("test-vector-secret-for-vstage-tokens").unwrap();
        let claims =
            Claims { sub: "agent-7".into(), exp: 4_102_444_800, origin: Some("https://listings.example".into()) };
        let vector = "v1.eyJzdWIiOiJhZ2VudC03IiwiZXhwIjo0MTAyNDQ0ODAwLCJvcmlnaW4iOiJodHRwczovL2xpc3RpbmdzLmV4YW1wbGUifQ.\
                      kPzeVRkrhUFeqBA42hUiwH9he5_G11xsWAk0XrCo4gw";
        assert_eq!(secret.sign(&claims), vector);
        assert_eq!(secret.verify(vector, Some("https://listings.example"), SystemTime::now()), Ok(claims));
    }

    #[test]
    fn expired_tampered_foreign_and_wrong_origin_tokens_are_refused() {
        let token = secret().mint("agent-7", Duration::from_secs(60), Some("https://listings.example"));
        let later = SystemTime::now() + Duration::from_secs(61);
        assert_eq!(secret().verify(&token, None, later), Err(TokenError::Expired));

        let other = WidgetSecret::new("another-secret-another-secret-xx").unwrap();
        assert_eq!(other.verify(&token, None, SystemTime::now()), Err(TokenError::BadSignature));

        let forged_claims = Claims { sub: "admin".into(), exp: u64::MAX, origin: None };
        let forged_payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&forged_claims).unwrap());
        let signature = token.rsplit_once('.').unwrap().1;
        let tampered = format!("v1.{forged_payload}.{signature}");
        assert_eq!(secret().verify(&tampered, None, SystemTime::now()), Err(TokenError::BadSignature));

        assert!(matches!(
            secret().verify(&token, Some("https://evil.example"), SystemTime::now()),
            Err(TokenError::WrongOrigin(_))
        ));
        for junk in ["", "v1.", "v1..", "abc", "v2.e30.AAAA", "v1.!!.!!"] {
            assert!(secret().verify(junk, None, SystemTime::now()).is_err(), "{junk}");
        }
    }

    #[test]
    fn short_secrets_are_refused_with_advice() {
        assert!(WidgetSecret::new("short").unwrap_err().contains("openssl rand"));
    }
}
