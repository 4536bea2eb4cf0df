//! Widget tokens: what a host site's backend hands its page so the widget may call `/api` in `token` access.
//! Ours, `v1.<base64url(JSON {sub, exp, origin?})>.<base64url(HMAC-SHA256(secret, "v1." + payload))>` without
//! padding, or a standard JWT (`jwt.rs`), both keyed with the secret's UTF-8 bytes.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::Mac;
use serde::{Deserialize, Serialize};

use vstage_api::signature::hmac_sha256;

use super::grant::alternative_keys;
pub use super::grant::{Grant, TokenError};

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

    /// A standard JWT for `sub`, valid for `ttl` from now, bound to `origin` (as `aud`) when given.
    pub fn mint_jwt(&self, sub: &str, ttl: Duration, origin: Option<&str>) -> String {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        super::jwt::sign(&self.0, sub, now.saturating_add(ttl.as_secs()), origin)
    }

    /// The token carrying exactly `claims`.
    pub fn sign(&self, claims: &Claims) -> String {
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims).expect("claims serialise"));
        let signed_part = format!("{VERSION}.{payload}");
        let signature = URL_SAFE_NO_PAD.encode(self.mac(&signed_part).finalize().into_bytes());
        format!("{signed_part}.{signature}")
    }

    /// The grant of a genuine, unexpired token (ours or a JWT) used from `request_origin` (the page's origin, when
    /// the browser told it: same-origin GETs carry none, and non-browser callers could forge it anyway).
    pub fn verify(&self, token: &str, request_origin: Option<&str>, now: SystemTime) -> Result<Grant, TokenError> {
        let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let (grant, origins) = match token.starts_with("v1.") {
            true => self.verify_v1(token)?,
            false => super::jwt::verify(&self.0, token, now)?,
        };
        if grant.sub.is_empty() {
            return Err(TokenError::Malformed("its `sub` is empty".into()));
        }
        if grant.exp <= now {
            return Err(TokenError::Expired);
        }
        if let Some(actual) = request_origin
            && !origins.is_empty()
            && !origins.iter().any(|expected| expected.trim_end_matches('/') == actual)
        {
            return Err(TokenError::WrongOrigin(origins.join(", ")));
        }
        Ok(grant)
    }

    /// Our own format's grant and origin, once its signature holds.
    fn verify_v1(&self, token: &str) -> Result<(Grant, Vec<String>), TokenError> {
        let malformed = |why: &str| TokenError::Malformed(why.to_string());
        if token.contains('=') {
            return Err(malformed("its parts end in '=' padding, and they are base64url without padding"));
        }
        let (signed_part, signature) = token
            .rsplit_once('.')
            .filter(|(signed, _)| signed.len() > 3)
            .ok_or_else(|| malformed("it has no signature"))?;
        let payload = &signed_part[3..];
        let signature = URL_SAFE_NO_PAD.decode(signature).map_err(|_| malformed("its signature is not base64url"))?;
        // Constant-time and length-checked.
        if self.mac(signed_part).verify_slice(&signature).is_err() {
            let instead = alternative_keys(&self.0).into_iter().find_map(|(how, key)| {
                hmac_sha256(&key, signed_part.as_bytes()).verify_slice(&signature).is_ok().then_some(how)
            });
            return Err(TokenError::BadSignature(instead));
        }
        let json = URL_SAFE_NO_PAD.decode(payload).map_err(|_| malformed("its claims are not base64url"))?;
        let claims: Claims = serde_json::from_slice(&json).map_err(|error| {
            let exp = serde_json::from_slice::<serde_json::Value>(&json).ok().map(|claims| claims["exp"].clone());
            match exp {
                Some(exp @ serde_json::Value::Number(_)) if exp.as_u64().is_none() => TokenError::Malformed(format!(
                    "`exp` must be whole seconds since 1970 (an integer), and it is {exp}"
                )),
                _ => TokenError::Malformed(format!("its claims are not {{sub, exp, origin?}} ({error})")),
            }
        })?;
        Ok((Grant { sub: claims.sub, exp: claims.exp }, claims.origin.into_iter().collect()))
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
        let grant = secret().verify(&token, Some("https://listings.example"), SystemTime::now()).unwrap();
        assert_eq!(grant.sub, "agent-7");
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
        let grant = Grant { sub: claims.sub, exp: claims.exp };
        assert_eq!(secret.verify(vector, Some("https://listings.example"), SystemTime::now()), Ok(grant));
    }

    #[test]
    fn expired_tampered_foreign_and_wrong_origin_tokens_are_refused() {
        let token = secret().mint("agent-7", Duration::from_secs(60), Some("https://listings.example"));
        let later = SystemTime::now() + Duration::from_secs(61);
        assert_eq!(secret().verify(&token, None, later), Err(TokenError::Expired));

        let other = WidgetSecret::new("another-secret-another-secret-xx").unwrap();
        assert_eq!(other.verify(&token, None, SystemTime::now()), Err(TokenError::BadSignature(None)));

        let forged_claims = Claims { sub: "admin".into(), exp: u64::MAX, origin: None };
        let forged_payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&forged_claims).unwrap());
        let signature = token.rsplit_once('.').unwrap().1;
        let tampered = format!("v1.{forged_payload}.{signature}");
        assert_eq!(secret().verify(&tampered, None, SystemTime::now()), Err(TokenError::BadSignature(None)));

        assert!(matches!(
            secret().verify(&token, Some("https://evil.example"), SystemTime::now()),
            Err(TokenError::WrongOrigin(_))
        ));
        for junk in ["", "v1.", "v1..", "abc", "v2.e30.AAAA", "v1.!!.!!"] {
            assert!(secret().verify(junk, None, SystemTime::now()).is_err(), "{junk}");
        }
    }

    /// The mistakes a developer hand-writing our format makes are named: padding, an `exp` with a fraction, a
    /// secret decoded from hex before signing.
    #[test]
    fn a_v1_token_is_refused_with_what_is_wrong_with_it() {
        let refusal = |token: &str| secret().verify(token, None, SystemTime::now()).unwrap_err().to_string();
        let padded = format!("{}=", secret().mint("agent-7", Duration::from_secs(60), None));
        assert!(refusal(&padded).contains("'=' padding"), "{}", refusal(&padded));

        let payload = URL_SAFE_NO_PAD.encode(br#"{"sub":"agent-7","exp":4102444800.5}"#);
        let signed = format!("v1.{payload}");
        let signature = URL_SAFE_NO_PAD.encode(secret().mac(&signed).finalize().into_bytes());
        let float = refusal(&format!("{signed}.{signature}"));
        assert!(float.contains("`exp` must be whole seconds") && float.contains("4102444800.5"), "{float}");

        let hex_secret = WidgetSecret::new("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff").unwrap();
        let claims = Claims { sub: "agent-7".into(), exp: u64::MAX, origin: None };
        let by_bytes = WidgetSecret(hex::decode(std::str::from_utf8(&hex_secret.0).unwrap()).unwrap()).sign(&claims);
        let refused = hex_secret.verify(&by_bytes, None, SystemTime::now()).unwrap_err().to_string();
        assert!(refused.contains("hex-decoded bytes") && refused.contains("as UTF-8"), "{refused}");
    }

    #[test]
    fn short_secrets_are_refused_with_advice() {
        assert!(WidgetSecret::new("short").unwrap_err().contains("openssl rand"));
    }
}
