//! Where the proxy's calls go: the real service, or the sandbox started in-process on its own loopback port.
//! Either way it is reached over HTTP with the key header, so every local run exercises the real chain.

pub mod http_client;
mod pool;
pub mod sandbox_files;

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use axum::http::header::AUTHORIZATION;
use axum::http::{Method, StatusCode};
use tokio::net::TcpListener;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

use crate::secret::ApiKey;
use crate::upstream::http_client::{CallFailure, HttpClient, InvalidTarget, Origin, Outgoing, Target};

#[derive(Debug)]
pub struct Upstream {
    /// The root under which `/v2` and `/v1` live.
    base: Base,
    /// Where waiting v2 calls go instead, when set (`--direct-sync-url`).
    direct_sync: Option<Base>,
    key: ApiKey,
    embedded: bool,
}

/// A base URL taken apart once: the origin its calls connect to, and the path their targets start with.
#[derive(Debug, Clone)]
pub struct Base {
    origin: Origin,
    /// The URL's path without the trailing slash (usually empty).
    prefix: String,
}

impl Upstream {
    /// The real service at `base_url`, with the key from `VSTAGE_API_KEY`.
    pub fn remote(base_url: &str, key: Option<String>) -> anyhow::Result<Self> {
        let Some(key) = key else {
            bail!("--upstream needs the service's API key in the environment variable VSTAGE_API_KEY");
        };
        let key: ApiKey = key.parse().map_err(anyhow::Error::msg)?;
        Ok(Upstream { base: Base::parse("--upstream", base_url)?, direct_sync: None, key, embedded: false })
    }

    /// Starts the sandbox on a free loopback port with its own key (made once and kept in `data_dir`, so the
    /// account and its renders survive restarts), and points at it. Its image URLs start with `public_url`; it
    /// fetches its own samples without HTTP, and may fetch this server's `uploads` (a URL prefix) on loopback.
    pub async fn embedded_sandbox(
        data_dir: &Path,
        public_url: &str,
        uploads: &str,
    ) -> anyhow::Result<(Self, RunningSandbox)> {
        let key = ApiKey::load_or_generate(&data_dir.join("sandbox-api-key"))?;
        let listener = TcpListener::bind("127.0.0.1:0").await.context("cannot open a loopback port for the sandbox")?;
        let config = SandboxConfig {
            data_dir: Some(data_dir.join("sandbox")),
            local_photo_sources: vec![uploads.to_string()],
            ..SandboxConfig::new(vec![key.expose().to_string()])
        };
        let running = vstage_sandbox::spawn(listener, &config, Some(public_url))?;
        tracing::info!(address = %running.addr, "embedded sandbox started");
        let base = Base::parse("the embedded sandbox's address", &running.base_url())?;
        let upstream = Upstream { base, direct_sync: None, key, embedded: true };
        Ok((upstream, running))
    }

    /// Sends waiting v2 calls to `url` (the service's direct synchronous address).
    pub fn with_direct_sync_url(mut self, url: Option<&str>) -> anyhow::Result<Self> {
        self.direct_sync = url.map(|url| Base::parse("--direct-sync-url", url)).transpose()?;
        Ok(self)
    }

    /// Where calls go.
    pub fn base(&self) -> &Base {
        &self.base
    }

    /// Where waiting v2 calls go, when configured.
    pub fn direct_sync(&self) -> Option<&Base> {
        self.direct_sync.as_ref()
    }

    /// The embedded sandbox's address, whose images this server relays; `None` with the real service.
    pub fn sandbox(&self) -> Option<&Base> {
        self.embedded.then_some(&self.base)
    }

    pub fn key(&self) -> &ApiKey {
        &self.key
    }

    pub fn mode(&self) -> &'static str {
        if self.embedded { "sandbox" } else { "upstream" }
    }

    /// `GET /v2/user` with the key: this server's own probe of the service (start-up check, readiness). The
    /// answer's status, or why none came.
    pub async fn probe(&self, http: &HttpClient, limit: Duration) -> anyhow::Result<Result<StatusCode, CallFailure>> {
        let request = self.own_request(Method::GET, "/v2/user")?;
        Ok(http.call(self.base.origin(), request, &[], limit).await.map(|answer| answer.status))
    }

    /// A call of this server's own (not one it relays) to a contract path, with the key.
    pub fn own_request(&self, method: Method, path: &str) -> anyhow::Result<Outgoing> {
        let mut request = Outgoing::new(method, self.base.target(path, None)?);
        request.headers.insert(AUTHORIZATION, self.key.authorization());
        Ok(request)
    }
}

/// `https://api.example/prefix`, as configured.
impl std::fmt::Display for Base {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.origin, self.prefix)
    }
}

impl Base {
    /// `url`, checked as `checked_base` does; `option` names it in the error.
    fn parse(option: &str, url: &str) -> anyhow::Result<Base> {
        let (url, parsed) = checked_url(option, url)?;
        let origin = Origin::of(&url).map_err(|e| anyhow::anyhow!("{option}: {e}"))?;
        let prefix = parsed.path().trim_end_matches('/').to_string();
        Ok(Base { origin, prefix })
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// The request target of a contract path such as `/v2/user` with its query, under this base. Only the
    /// proxy's allow-list and this server produce `path`.
    pub fn target(&self, path: &str, query: Option<&str>) -> Result<Target, InvalidTarget> {
        let query = query.unwrap_or_default();
        let mut target = String::with_capacity(self.prefix.len() + path.len() + 1 + query.len());
        target.push_str(&self.prefix);
        target.push_str(path);
        if !query.is_empty() {
            target.push('?');
            target.push_str(query);
        }
        Target::new(target)
    }
}

/// A plain http(s) base URL, without the trailing slash.
pub fn checked_base(option: &str, url: &str) -> anyhow::Result<String> {
    checked_url(option, url).map(|(url, _)| url)
}

/// `checked_base`, with the URL as parsed.
fn checked_url(option: &str, url: &str) -> anyhow::Result<(String, url::Url)> {
    let url = url.trim_end_matches('/');
    let parsed = url::Url::parse(url).with_context(|| {
        format!("{option} {} is not a URL; give e.g. https://api.example.com", without_credentials(url))
    })?;
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
    Ok((url.to_string(), parsed))
}

/// `url` as an error may show it: whatever stands between its scheme and an `@` (a user and password) hidden, as
/// it may be said before the URL is known to parse.
pub fn without_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_keep_the_base_path_and_the_query() {
        let base = Base::parse("--upstream", "https://api.example.com/staging/").unwrap();
        assert_eq!(base.target("/v2/renders", Some("limit=5")).unwrap().as_str(), "/staging/v2/renders?limit=5");
        let base = Base::parse("--upstream", "http://127.0.0.1:8787").unwrap();
        assert_eq!(base.target("/v2/user", None).unwrap().as_str(), "/v2/user");
        assert_eq!(base.target("/v2/user", Some("")).unwrap().as_str(), "/v2/user");
        assert!(base.target("/v2/renders", Some("cursor=a b")).is_err());
    }

    #[test]
    fn an_address_in_an_error_hides_its_user_and_password() {
        let refused = checked_base("--upstream", "https://u:s3cret@api.example:99999").unwrap_err().to_string();
        assert!(!refused.contains("s3cret") && refused.contains("https://***@api.example:99999"), "{refused}");
        assert_eq!(without_credentials("https://a@b@host/p?q=x@y"), "https://***@host/p?q=x@y");
        assert_eq!(without_credentials("https://host/p?mail=a@b"), "https://host/p?mail=a@b");
        assert_eq!(without_credentials("not a url"), "not a url");
    }
}
