//! Kept results' addresses as links that carry their own permission: `.../api/results/{render}/{variation}/{file}`
//! with `?sig=`, this server's HMAC of the path, which anyone holding the link may read (as a listing shows it).
//!
//! The key comes from the widget secret, so every server of a deployment signs alike; without one, from a key kept
//! in the data dir. A link names one file of one variation: no signature opens another.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = hmac::Hmac<Sha256>;

/// What the signatures are made with (its `Debug` shows nothing of it).
#[derive(Clone)]
pub struct LinkKey(Vec<u8>);

impl std::fmt::Debug for LinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkKey(..)")
    }
}

impl LinkKey {
    /// The key for kept results' links, derived from `secret` (the widget secret, or a key of the data dir's).
    pub fn derived_from(secret: &[u8]) -> Self {
        let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes any key length");
        mac.update(b"vstage kept result links v1");
        LinkKey(mac.finalize().into_bytes().to_vec())
    }

    /// The signature of `path` (`render/variation/file`), for its link's `sig`.
    pub fn sign(&self, path: &str) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(path).finalize().into_bytes())
    }

    /// Whether `signature` is `path`'s (compared in constant time).
    pub fn verifies(&self, path: &str, signature: &str) -> bool {
        URL_SAFE_NO_PAD.decode(signature).is_ok_and(|bytes| self.mac(path).verify_slice(&bytes).is_ok())
    }

    fn mac(&self, path: &str) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(path.as_bytes());
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_opens_its_own_file_only() {
        let key = LinkKey::derived_from(b"test-widget-secret-0123456789abcdef");
        let signature = key.sign("rnd_1/var_1/0-url.jpg");
        assert!(key.verifies("rnd_1/var_1/0-url.jpg", &signature));
        assert!(!key.verifies("rnd_1/var_2/0-url.jpg", &signature), "another variation");
        assert!(!key.verifies("rnd_1/var_1/0-thumbnail_url.jpg", &signature), "another file");
        assert!(!key.verifies("rnd_1/var_1/0-url.jpg", &signature[1..]), "a signature cut short");
        assert!(!key.verifies("rnd_1/var_1/0-url.jpg", "not base64!"));
        let other = LinkKey::derived_from(b"another-secret-0123456789abcdef0123");
        assert!(!other.verifies("rnd_1/var_1/0-url.jpg", &signature), "another deployment's key");
        assert_eq!(key.sign("a"), key.sign("a"), "the same link every time, so browsers cache it");
    }
}
