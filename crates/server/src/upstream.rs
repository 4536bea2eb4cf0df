//! Where the proxy's calls go: the real service, or the sandbox started in-process on its own loopback port.
//! Either way it is reached over HTTP with the key header, so every local run exercises the real chain.

use std::path::Path;

use anyhow::{Context, bail};
use tokio::net::TcpListener;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

use crate::secret::ApiKey;

#[derive(Debug)]
pub struct Upstream {
    /// The root under which `/v2` and `/v1` live, without a trailing slash.
    base_url: String,
    /// Where waiting v2 calls go instead, when set (`--direct-sync-url`).
    direct_sync_base: Option<String>,
    key: ApiKey,
    embedded: bool,
}

impl Upstream {
    /// The real service at `base_url`, with the key from `VSTAGE_API_KEY`.
    pub fn remote(base_url: &str, key: Option<String>) -> anyhow::Result<Self> {
        let Some(key) = key else {
            bail!("--upstream needs the service's API key in the environment variable VSTAGE_API_KEY");
        };
        let key: ApiKey = key.parse().map_err(anyhow::Error::msg)?;
        Ok(Upstream { base_url: checked_base("--upstream", base_url)?, direct_sync_base: None, key, embedded: false })
    }

    /// Starts the sandbox on a free loopback port with its own key (made once and kept in `data_dir`, so the
    /// account and its renders survive restarts), and points at it. Its image URLs start with `public_url`.
    pub async fn embedded_sandbox(data_dir: &Path, public_url: &str) -> anyhow::Result<(Self, RunningSandbox)> {
        let key = ApiKey::load_or_generate(&data_dir.join("sandbox-api-key"))?;
        let listener = TcpListener::bind("127.0.0.1:0").await.context("cannot open a loopback port for the sandbox")?;
        let config = SandboxConfig {
            data_dir: Some(data_dir.join("sandbox")),
            ..SandboxConfig::new(vec![key.expose().to_string()])
        };
        let running = vstage_sandbox::spawn(listener, &config, Some(public_url))?;
        tracing::info!(address = %running.addr, "embedded sandbox started");
        let upstream = Upstream { base_url: running.base_url(), direct_sync_base: None, key, embedded: true };
        Ok((upstream, running))
    }

    /// Sends waiting v2 calls to `url` (the service's direct synchronous address).
    pub fn with_direct_sync_url(mut self, url: Option<&str>) -> anyhow::Result<Self> {
        self.direct_sync_base = url.map(|url| checked_base("--direct-sync-url", url)).transpose()?;
        Ok(self)
    }

    /// The URL of a contract path such as `/v2/user`. Only the proxy's allow-list produces `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// The direct synchronous URL of `path`, when one is configured.
    pub fn direct_sync_url(&self, path: &str) -> Option<String> {
        self.direct_sync_base.as_ref().map(|base| format!("{base}{path}"))
    }

    pub fn key(&self) -> &ApiKey {
        &self.key
    }

    pub fn mode(&self) -> &'static str {
        if self.embedded { "sandbox" } else { "upstream" }
    }
}

/// A plain http(s) base URL, without the trailing slash.
pub fn checked_base(option: &str, url: &str) -> anyhow::Result<String> {
    let url = url.trim_end_matches('/');
    let parsed = url::Url::parse(url)
        .with_context(|| format!("{option} {url} is not a URL; give e.g. https://api.example.com"))?;
    if !matches!(parsed.scheme(), "http" | "https")
        || parsed.query().is_some()
        || parsed.fragment().is_some()
        || !parsed.username().is_empty()
        || parsed.password().is_some()
    {
        bail!(
            "{option} must be a plain http(s) URL without credentials, query or fragment, e.g. https://api.example.com"
        );
    }
    Ok(url.to_string())
}
