//! The service's API key as a type that cannot leak: no `Debug`, `Display` or serialisation shows it.
//! The only way out is the `Authorization` header value, marked sensitive so no layer logs it.

use std::fmt;
use std::str::FromStr;

use axum::http::HeaderValue;

#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    /// A fresh random key, for the embedded sandbox.
    pub fn generate() -> anyhow::Result<Self> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for a sandbox key: {e}"))?;
        Ok(ApiKey(format!("sbx_{}", hex::encode(bytes))))
    }

    /// `Api-Key <key>`, as API.md part 5 spells it.
    pub fn authorization(&self) -> HeaderValue {
        let mut value = HeaderValue::from_str(&format!("Api-Key {}", self.0)).expect("checked when parsed");
        value.set_sensitive(true);
        value
    }

    /// The raw key, for handing to the embedded sandbox only.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl FromStr for ApiKey {
    type Err = String;

    fn from_str(key: &str) -> Result<Self, Self::Err> {
        let key = key.trim();
        if key.is_empty() {
            return Err("VSTAGE_API_KEY is empty; set it to the key from the service's account settings".into());
        }
        if HeaderValue::from_str(&format!("Api-Key {key}")).is_err() || key.contains(' ') {
            return Err("VSTAGE_API_KEY contains characters that cannot go in a header; copy the key again".into());
        }
        Ok(ApiKey(key.to_string()))
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let key: ApiKey = "k_live_123".parse().unwrap();
        assert!(!format!("{key:?}").contains("k_live_123"));
        assert!(key.authorization().is_sensitive());
        assert_eq!(key.authorization(), "Api-Key k_live_123");
    }

    #[test]
    fn blank_or_broken_keys_are_refused_with_a_sentence() {
        assert!("  ".parse::<ApiKey>().unwrap_err().contains("empty"));
        assert!("a\nb".parse::<ApiKey>().unwrap_err().contains("header"));
    }

    #[test]
    fn generated_keys_differ() {
        assert_ne!(ApiKey::generate().unwrap().expose(), ApiKey::generate().unwrap().expose());
    }
}
