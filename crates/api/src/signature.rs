//! Webhook signatures (service-api.md part 6): the HMAC-SHA256 of a delivery's exact bytes under the account's webhook
//! secret, made by the sandbox and checked by the server in any usual encoding (hex in either case, with or without
//! `sha256=`, or base64). Behind the `signature` feature, so the widget does not carry it.

use base64::Engine;
use hmac::{KeyInit, Mac};

/// The header a delivery's signature comes in.
pub const HEADER: &str = "x-service-signature";

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
    let Some(expected) = decode(signature) else { return false };
    hmac_sha256(secret.as_bytes(), body).verify_slice(&expected).is_ok()
}

fn decode(signature: &str) -> Option<Vec<u8>> {
    let signature = signature.trim();
    let signature = match signature.get(..7) {
        Some(prefix) if prefix.eq_ignore_ascii_case("sha256=") => &signature[7..],
        _ => signature,
    };
    if signature.len() == 64 && signature.bytes().all(|b| b.is_ascii_hexdigit()) {
        return hex::decode(signature).ok();
    }
    let engine = &base64::engine::general_purpose::STANDARD;
    engine.decode(signature).ok().or_else(|| base64::engine::general_purpose::URL_SAFE.decode(signature).ok())
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
