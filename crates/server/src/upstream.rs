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
        let base_url = base_url.trim_end_matches('/');
        let parsed = reqwest::Url::parse(base_url)
            .with_context(|| format!("--upstream {base_url} is not a URL; give e.g. https://api.example.com"))?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.query().is_some() || parsed.fragment().is_some() {
            bail!("--upstream must be a plain http(s) URL without query or fragment, e.g. https://api.example.com");
        }
        Ok(Upstream { base_url: base_url.to_string(), key, embedded: false })
    }

    /// Starts the sandbox on a free loopback port with its own key (made once and kept in `data_dir`, so the
    /// account and its renders survive restarts), and points at it.
    pub async fn embedded_sandbox(data_dir: &Path) -> anyhow::Result<(Self, RunningSandbox)> {
        let key = ApiKey::load_or_generate(&data_dir.join("sandbox-api-key"))?;
        let listener = TcpListener::bind("127.0.0.1:0").await.context("cannot open a loopback port for the sandbox")?;
        let config = SandboxConfig {
            data_dir: Some(data_dir.join("sandbox")),
            ..SandboxConfig::new(vec![key.expose().to_string()])
        };
        let running = vstage_sandbox::spawn(listener, &config)?;
        tracing::info!(address = %running.addr, "embedded sandbox started");
        Ok((Upstream { base_url: running.base_url(), key, embedded: true }, running))
    }

    /// The URL of a contract path such as `/v2/user`. Only the proxy's allow-list produces `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    pub fn key(&self) -> &ApiKey {
        &self.key
    }

    pub fn mode(&self) -> &'static str {
        if self.embedded { "sandbox" } else { "upstream" }
    }
}
