//! Webhook signatures (service-api.md part 6): the HMAC-SHA256 of a delivery's exact bytes under the account's webhook
//! secret, made by the sandbox and checked by the server. The service's public docs do not show the header or the
//! encoding, so both are settings of the receiver (`Encoding`): by default any usual encoding (hex in either case,
//! with or without `sha256=`, or base64). Behind the `signature` feature, so the widget does not carry it.

use base64::Engine;
use hmac::{KeyInit, Mac};

/// The header a delivery's signature comes in, as service-api.md part 5 names it (the receiver's default).
pub const HEADER: &str = "X-SERVICE-Signature";

/// How a receiver expects a signature to be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Any of the others.
    #[default]
    Any,
    /// 64 hex digits, in either case.
    Hex,
    /// `sha256=` then 64 hex digits.
    Sha256Hex,
    /// The 32 bytes in base64 (standard or URL-safe alphabet).
    Base64,
}

impl Encoding {
    pub const ALL: [Encoding; 4] = [Encoding::Any, Encoding::Hex, Encoding::Sha256Hex, Encoding::Base64];

    /// How the encoding is named on the command line and in `vstage check`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Any => "any",
            Encoding::Hex => "hex",
            Encoding::Sha256Hex => "sha256-hex",
            Encoding::Base64 => "base64",
        }
    }
}

impl std::str::FromStr for Encoding {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Encoding::ALL.into_iter().find(|encoding| encoding.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Encoding::ALL.iter().map(|encoding| encoding.name()).collect();
            format!("`{name}` is not a signature encoding; use one of {}", names.join(", "))
        })
    }
}

/// HMAC-SHA256 of `message` keyed by `key`, to finalize (sign) or verify (constant-time, length-checked).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> hmac::Hmac<sha2::Sha256> {
    let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message);
    mac
}

/// The signature of `body` under `secret`, in lowercase hex (the sandbox's encoding).
pub fn sign(secret: &str, body: &[u8]) -> String {
    hex::encode(hmac_sha256(secret.as_bytes(), body).finalize().into_bytes())
}

/// Whether `signature` is that of `body` under `secret`, in any usual encoding; constant-time, and refusing any
/// length but 32 bytes.
pub fn verifies(secret: &str, body: &[u8], signature: &str) -> bool {
    verifies_as(Encoding::Any, secret, body, signature)
}

/// Whether `signature`, written as `encoding` says, is that of `body` under `secret`.
pub fn verifies_as(encoding: Encoding, secret: &str, body: &[u8], signature: &str) -> bool {
    let Some(expected) = decode(encoding, signature.trim()) else { return false };
    hmac_sha256(secret.as_bytes(), body).verify_slice(&expected).is_ok()
}

fn decode(encoding: Encoding, signature: &str) -> Option<Vec<u8>> {
    let prefixed = signature.get(..7).filter(|prefix| prefix.eq_ignore_ascii_case("sha256=")).map(|_| &signature[7..]);
    match encoding {
        Encoding::Hex => hex_digest(signature),
        Encoding::Sha256Hex => hex_digest(prefixed?),
        Encoding::Base64 => base64_digest(signature),
        Encoding::Any => {
            let bare = prefixed.unwrap_or(signature);
            hex_digest(bare).or_else(|| base64_digest(bare))
        }
    }
}

fn hex_digest(text: &str) -> Option<Vec<u8>> {
    (text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())).then(|| hex::decode(text).ok()).flatten()
}

fn base64_digest(text: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE};
    STANDARD.decode(text).ok().or_else(|| URL_SAFE.decode(text).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_common_encoding_of_a_signature_verifies() {
        let body = br#"{"event_type":"done"}"#;
        let hex = sign("s3cret", body);
        let raw = hex::decode(&hex).unwrap();
        for signature in [
            hex.clone(),
            hex.to_uppercase(),
            format!("sha256={hex}"),
            format!("SHA256={}", hex.to_uppercase()),
            base64::engine::general_purpose::STANDARD.encode(&raw),
        ] {
            assert!(verifies("s3cret", body, &signature), "{signature}");
        }
    }

    #[test]
    fn a_set_encoding_takes_only_its_own_form() {
        let body = br#"{"event_type":"done"}"#;
        let hex = sign("s3cret", body);
        let prefixed = format!("sha256={hex}");
        let base64 = base64::engine::general_purpose::STANDARD.encode(hex::decode(&hex).unwrap());
        assert!(verifies_as(Encoding::Hex, "s3cret", body, &hex));
        assert!(!verifies_as(Encoding::Hex, "s3cret", body, &prefixed));
        assert!(verifies_as(Encoding::Sha256Hex, "s3cret", body, &prefixed));
        assert!(!verifies_as(Encoding::Sha256Hex, "s3cret", body, &hex));
        assert!(verifies_as(Encoding::Base64, "s3cret", body, &base64));
        assert!(!verifies_as(Encoding::Base64, "s3cret", body, &hex));
    }

    #[test]
    fn tampered_short_wrong_or_missing_signatures_fail() {
        let body = br#"{"event_type":"done"}"#;
        let hex = sign("s3cret", body);
        assert!(!verifies("s3cret", br#"{"event_type":"error"}"#, &hex));
        assert!(!verifies("s3cret", body, &hex[..62]));
        assert!(!verifies("s3cret", body, ""));
        assert!(!verifies("s3cret", body, "sha256="));
        assert!(!verifies("other", body, &hex));
    }
}
