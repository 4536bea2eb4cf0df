//! The service's API key as a type that cannot leak: no `Debug`, `Display` or serialisation shows it.
//! The only way out is the `Authorization` header value, marked sensitive so no layer logs it.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use anyhow::Context;

use axum::http::HeaderValue;

#[derive(Clone)]
pub struct ApiKey {
    key: String,
    /// `Api-Key <key>`, made once (every proxied call sends it), marked sensitive.
    header: HeaderValue,
}

impl ApiKey {
    /// The key kept in `path`, or a new random one written there (readable by its owner only).
    pub fn load_or_generate(path: &Path) -> anyhow::Result<Self> {
        load_or_generate(path, "sbx_")?.parse().map_err(anyhow::Error::msg)
    }

    /// `Api-Key <key>`, as service-api.md part 5 spells it.
    pub fn authorization(&self) -> HeaderValue {
        self.header.clone()
    }

    /// The raw key, for handing to the embedded sandbox only.
    pub(crate) fn expose(&self) -> &str {
        &self.key
    }
}

impl FromStr for ApiKey {
    type Err = String;

    fn from_str(key: &str) -> Result<Self, Self::Err> {
        let key = key.trim();
        if key.is_empty() {
            return Err("VSTAGE_API_KEY is empty; set it to the key from the service's account settings".into());
        }
        let bad = || "VSTAGE_API_KEY contains characters that cannot go in a header; copy the key again".to_string();
        if key.contains(' ') {
            return Err(bad());
        }
        let mut header = HeaderValue::from_str(&format!("Api-Key {key}")).map_err(|_| bad())?;
        header.set_sensitive(true);
        Ok(ApiKey { key: key.to_string(), header })
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// A random secret (`prefix` and 64 hex digits) kept in `path`: read when it exists, made and written otherwise.
/// Used for the embedded sandbox's key and the widget secret, so both survive restarts.
pub fn load_or_generate(path: &Path, prefix: &str) -> anyhow::Result<String> {
    if let Ok(text) = std::fs::read_to_string(path) {
        let text = text.trim();
        if text.is_empty() {
            anyhow::bail!("{} is empty; delete it and start again", path.display());
        }
        return Ok(text.to_string());
    }
    let secret = random(prefix)?;
    write_private(path, &secret)?;
    Ok(secret)
}

/// `prefix` and 64 random hex digits.
pub fn random(prefix: &str) -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for a secret: {e}"))?;
    Ok(format!("{prefix}{}", hex::encode(bytes)))
}

/// Writes `text` to `path`, readable by its owner only, atomically: a temporary file in the same folder, synced,
/// then renamed over `path`, so a crash leaves the old secret or the new one, never a torn file.
pub fn write_private(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create the data dir {}", dir.display()))?;
    let cannot = || format!("cannot write {}", path.display());
    // Created readable by its owner only (0600 on Unix).
    let mut file = tempfile::NamedTempFile::new_in(dir).with_context(cannot)?;
    std::io::Write::write_all(&mut file, text.as_bytes()).with_context(cannot)?;
    file.as_file().sync_all().with_context(cannot)?;
    file.persist(path).map_err(|e| e.error).with_context(cannot)?;
    // The rename itself is durable once the folder is synced.
    #[cfg(unix)]
    std::fs::File::open(dir).and_then(|dir| dir.sync_all()).with_context(cannot)?;
    Ok(())
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
    fn generated_secrets_differ_and_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let first = load_or_generate(&dir.path().join("a"), "p_").unwrap();
        let second = load_or_generate(&dir.path().join("b"), "p_").unwrap();
        assert_ne!(first, second);
        assert!(first.starts_with("p_") && first.len() == 66);
        assert_eq!(load_or_generate(&dir.path().join("a"), "p_").unwrap(), first);
    }

    #[test]
    fn a_secret_is_replaced_whole_and_stays_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret");
        write_private(&path, "first-and-longer").unwrap();
        write_private(&path, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["secret"], "no temporary file is left behind");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }
}
