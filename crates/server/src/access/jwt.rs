//! Standard JWTs (RFC 7519) as widget tokens, beside the `v1.` format: HS256 keyed with the widget secret's UTF-8
//! bytes, read and checked by `jsonwebtoken`, so that any backend's JWT library (PyJWT, firebase/php-jwt, jose)
//! mints them. The claims: `sub`, `exp` (whole seconds since 1970), and the page origin the token is for as
//! `origin` or `aud` (one origin or a list of them); a token whose `nbf` or `iat` is more than a minute ahead of
//! this server's clock is not valid yet. A refusal says what is wrong in the words a developer looks for.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::errors::{Error, ErrorKind};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use super::grant::{Grant, TokenError, alternative_keys};

/// How far ahead of this server's clock a backend's may be.
const CLOCK_LEEWAY_S: u64 = 60;

/// The claims vstage reads; others are ignored.
#[derive(Deserialize)]
struct JwtClaims {
    sub: String,
    exp: u64,
    #[serde(default)]
    origin: Option<String>,
    #[serde(default)]
    aud: Option<Audience>,
    #[serde(default)]
    nbf: Option<f64>,
    #[serde(default)]
    iat: Option<f64>,
}

/// `aud`: one value or a list (RFC 7519, 4.1.3).
#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

/// The grant of a genuine JWT at `now` (seconds), with the page origins it is bound to (none: any).
pub(super) fn verify(secret: &[u8], token: &str, now: u64) -> Result<(Grant, Vec<String>), TokenError> {
    if token.contains('=') {
        return Err(TokenError::Malformed(
            "its parts end in '=' padding, and a JWT's are base64url without padding (RFC 7515)".into(),
        ));
    }
    let header = jsonwebtoken::decode_header(token).map_err(|error| match error.kind() {
        ErrorKind::Json(_) | ErrorKind::Utf8(_) => TokenError::Malformed(
            "its header is not JSON naming an algorithm vstage knows (`alg`: vstage takes HS256)".into(),
        ),
        _ => unreadable(&error, token),
    })?;
    if header.alg != Algorithm::HS256 {
        return Err(TokenError::Malformed(format!(
            "it is signed with {:?}, and vstage takes HS256 keyed with the widget secret",
            header.alg
        )));
    }
    let claims = jsonwebtoken::decode::<JwtClaims>(token, &DecodingKey::from_secret(secret), &checks(&["sub", "exp"]))
        .map_err(|error| match error.kind() {
            ErrorKind::InvalidSignature => TokenError::BadSignature(signed_instead_with(secret, token)),
            _ => unreadable(&error, token),
        })?
        .claims;
    let ahead = [claims.nbf, claims.iat].into_iter().flatten().map(|at| at.max(0.0) as u64).max().unwrap_or(0);
    if ahead > now + CLOCK_LEEWAY_S {
        return Err(TokenError::NotYet(ahead - now));
    }
    let mut origins: Vec<String> = claims.origin.into_iter().collect();
    match claims.aud {
        Some(Audience::One(origin)) => origins.push(origin),
        Some(Audience::Many(list)) => origins.extend(list),
        None => {}
    }
    if let Some(other) = origins.iter().find(|origin| url::Url::parse(origin).map_or(true, |url| !url.has_host())) {
        return Err(TokenError::Malformed(format!(
            "its origin or aud {other:?} is not a page origin such as https://your.site"
        )));
    }
    Ok((Grant { sub: claims.sub, exp: claims.exp }, origins))
}

/// An HS256 JWT of `sub` until `exp`, for the page `origin` (`aud`) when given: what `vstage token --jwt` prints.
pub(super) fn sign(secret: &[u8], sub: &str, exp: u64, origin: Option<&str>) -> String {
    let mut claims = serde_json::json!({"sub": sub, "exp": exp});
    if let Some(origin) = origin {
        claims["aud"] = origin.into();
    }
    let key = jsonwebtoken::EncodingKey::from_secret(secret);
    jsonwebtoken::encode(&jsonwebtoken::Header::new(Algorithm::HS256), &claims, &key).expect("HS256 signs any claims")
}

/// The library's checks: the signature and algorithm, and that `required` claims are there; times are ours, read
/// against the clock the caller gives.
fn checks(required: &[&str]) -> Validation {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.set_required_spec_claims(required);
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    validation
}

/// What a key that is not the secret's text, but bytes a developer decoded from it, would have signed: said when it
/// did, so that the backend is fixed where it is wrong.
fn signed_instead_with(secret: &[u8], token: &str) -> Option<&'static str> {
    alternative_keys(secret).into_iter().find_map(|(how, key)| {
        jsonwebtoken::decode::<serde_json::Value>(token, &DecodingKey::from_secret(&key), &checks(&[]))
            .is_ok()
            .then_some(how)
    })
}

/// Why a JWT whose signature held, or that could not be read, is refused.
fn unreadable(error: &Error, token: &str) -> TokenError {
    let why = match error.kind() {
        ErrorKind::InvalidToken => "it is not three base64url parts joined by dots".to_string(),
        ErrorKind::Base64(_) => "a part is not base64url".to_string(),
        ErrorKind::Json(_)
        | ErrorKind::Utf8(_)
        | ErrorKind::MissingRequiredClaim(_)
        | ErrorKind::InvalidClaimFormat(_) => claims_problem(token),
        other => format!("{other:?}"),
    };
    TokenError::Malformed(why)
}

/// What is wrong with the claims vstage reads: one missing, or not of its type (an `exp` with a fraction, a
/// number as `sub`).
fn claims_problem(token: &str) -> String {
    let payload = token.split('.').nth(1).and_then(|part| URL_SAFE_NO_PAD.decode(part).ok());
    let Some(claims) = payload.and_then(|json| serde_json::from_slice::<serde_json::Value>(&json).ok()) else {
        return "its claims are not a JSON object".to_string();
    };
    match (&claims["sub"], &claims["exp"]) {
        (serde_json::Value::Null, _) => "it has no `sub` claim".to_string(),
        (sub, _) if !sub.is_string() => format!("`sub` must be a string, and it is {sub}"),
        (_, serde_json::Value::Null) => "it has no `exp` claim".to_string(),
        (_, exp) if exp.as_u64().is_none() => {
            format!("`exp` must be whole seconds since 1970 (an integer), and it is {exp}")
        }
        _ => "its `origin` must be a string, `aud` a string or a list of them, `nbf` and `iat` numbers".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use jsonwebtoken::{EncodingKey, Header};
    use serde_json::{Value, json};

    use super::super::token::{TokenError, WidgetSecret};

    const SECRET: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn now() -> u64 {
        SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
    }

    /// A JWT of `claims` as a library makes one: HS256 (unless `alg` says otherwise) keyed with `key`.
    fn jwt(claims: &Value, alg: jsonwebtoken::Algorithm, key: &[u8]) -> String {
        jsonwebtoken::encode(&Header::new(alg), claims, &EncodingKey::from_secret(key)).unwrap()
    }

    fn verified(token: &str, origin: Option<&str>) -> Result<String, TokenError> {
        let secret = WidgetSecret::new(SECRET).unwrap();
        secret.verify(token, origin, SystemTime::now()).map(|grant| grant.sub)
    }

    fn refusal(token: &str) -> String {
        verified(token, None).unwrap_err().to_string()
    }

    #[test]
    fn a_standard_jwt_is_a_widget_token_bound_to_its_origin_or_audience() {
        let hs256 = jsonwebtoken::Algorithm::HS256;
        let plain = jwt(&json!({"sub": "agent-7", "exp": now() + 60}), hs256, SECRET.as_bytes());
        assert_eq!(verified(&plain, Some("https://any.example")), Ok("agent-7".into()));
        for bound in [
            json!({"sub": "agent-7", "exp": now() + 60, "origin": "https://listings.example"}),
            json!({"sub": "agent-7", "exp": now() + 60, "aud": "https://listings.example"}),
            json!({"sub": "agent-7", "exp": now() + 60, "aud": ["https://a.example", "https://listings.example"]}),
        ] {
            let token = jwt(&bound, hs256, SECRET.as_bytes());
            assert_eq!(verified(&token, Some("https://listings.example")), Ok("agent-7".into()), "{bound}");
            assert!(matches!(verified(&token, Some("https://evil.example")), Err(TokenError::WrongOrigin(_))));
        }
        let not_an_origin = jwt(&json!({"sub": "a", "exp": now() + 60, "aud": "vstage"}), hs256, SECRET.as_bytes());
        assert!(refusal(&not_an_origin).contains("not a page origin"), "{}", refusal(&not_an_origin));
    }

    #[test]
    fn a_minted_jwt_is_a_standard_one_that_verifies() {
        let secret = WidgetSecret::new(SECRET).unwrap();
        let token = secret.mint_jwt("agent-7", Duration::from_secs(60), Some("https://listings.example"));
        let header = jsonwebtoken::decode_header(&token).unwrap();
        assert_eq!((header.alg, header.typ.as_deref()), (jsonwebtoken::Algorithm::HS256, Some("JWT")));
        assert_eq!(verified(&token, Some("https://listings.example")), Ok("agent-7".into()));
        assert!(matches!(verified(&token, Some("https://evil.example")), Err(TokenError::WrongOrigin(_))));
    }

    #[test]
    fn a_jwt_is_refused_with_what_is_wrong_with_it() {
        let hs256 = jsonwebtoken::Algorithm::HS256;
        let key = SECRET.as_bytes();
        let cases = [
            (format!("{}=", jwt(&json!({"sub": "a", "exp": now() + 60}), hs256, key)), "'=' padding"),
            (jwt(&json!({"sub": "a", "exp": now() as f64 + 60.5}), hs256, key), "`exp` must be whole seconds"),
            (jwt(&json!({"sub": "a"}), hs256, key), "no `exp`"),
            (jwt(&json!({"sub": 7, "exp": now() + 60}), hs256, key), "`sub` must be a string"),
            (jwt(&json!({"sub": "a", "exp": now() + 60}), hs256, &hex::decode(SECRET).unwrap()), "hex-decoded"),
            (jwt(&json!({"sub": "a", "exp": now() + 60}), hs256, b"another secret"), "does not match"),
            (jwt(&json!({"sub": "a", "exp": now() + 60}), jsonwebtoken::Algorithm::HS512, key), "takes HS256"),
            (jwt(&json!({"sub": "a", "exp": now() - 1}), hs256, key), "expired"),
            (jwt(&json!({"sub": "a", "exp": now() + 600, "nbf": now() + 300}), hs256, key), "not valid yet"),
            (jwt(&json!({"sub": "a", "exp": now() + 600, "iat": now() + 300}), hs256, key), "not valid yet"),
            ("eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.".to_string(), "takes HS256"),
            ("not.a.jwt".to_string(), "base64url"),
        ];
        for (token, said) in cases {
            assert!(refusal(&token).contains(said), "{token}: {}", refusal(&token));
        }
        // a backend's clock a little ahead is no matter
        let skewed = jwt(&json!({"sub": "a", "exp": now() + 600, "nbf": now() + 30, "iat": now() + 30}), hs256, key);
        assert_eq!(verified(&skewed, None), Ok("a".into()));
        let later = SystemTime::now() + Duration::from_secs(601);
        let secret = WidgetSecret::new(SECRET).unwrap();
        assert_eq!(secret.verify(&skewed, None, later), Err(TokenError::Expired));
    }
}
