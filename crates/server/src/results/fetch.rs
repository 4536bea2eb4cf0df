//! Fetching a result image the service made (or a sample photo of the embedded sandbox's): from the sandbox
//! directly when the address is this server's `/sandbox/files/...` or `/sandbox/samples/...`, otherwise from the
//! service's public address (never this machine or a private network, however its name resolves); and the
//! extension its address gives it.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::Method;
use url::Url;

use crate::addresses;
use crate::error::ServerError;
use crate::upstream::Base;
use crate::upstream::http_client::{HttpClient, Origin, Outgoing, Target};

/// One image may take this long to arrive.
const TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone)]
pub struct ResultFetcher {
    /// For the embedded sandbox's files.
    sandbox_http: HttpClient,
    /// For any other address: public ones only, whatever a name resolves to.
    public_http: HttpClient,
    /// The embedded sandbox's loopback address, in sandbox mode.
    sandbox: Option<Base>,
    /// This server's public address, which the sandbox's result addresses start with.
    public_url: String,
}

impl ResultFetcher {
    /// Fetches the embedded sandbox's files with `http`, and anything else with a client of its own that connects
    /// to public addresses only.
    pub fn new(http: HttpClient, sandbox: Option<Base>, public_url: String) -> anyhow::Result<Self> {
        Ok(ResultFetcher { sandbox_http: http, public_http: HttpClient::public_only()?, sandbox, public_url })
    }

    pub async fn fetch(&self, url: &str) -> Result<Bytes, ServerError> {
        // the embedded sandbox's results and sample photos, at this server's `/sandbox/...`
        let sandbox_file = url.strip_prefix(self.public_url.trim_end_matches('/')).and_then(|path| {
            let inside = path
                .strip_prefix("/sandbox/")
                .filter(|inside| inside.starts_with("files/") || inside.starts_with("samples/"))?;
            Some((self.sandbox.as_ref()?, format!("/{inside}")))
        });
        let (http, origin, target) = match sandbox_file {
            Some((sandbox, path)) => {
                let target = sandbox.target(&path, None).map_err(|_| unreadable(url))?;
                (&self.sandbox_http, sandbox.origin().clone(), target)
            }
            // The service's results are on its own hosts: never this server, this machine or a private network.
            None if url.starts_with(self.public_url.trim_end_matches('/'))
                || addresses::is_private(url, &self.public_url) =>
            {
                return Err(unreadable(url));
            }
            None => {
                let parsed = Url::parse(url).map_err(|_| unreadable(url))?;
                if !matches!(parsed.scheme(), "http" | "https") {
                    return Err(unreadable(url));
                }
                let path = match parsed.query() {
                    Some(query) => format!("{}?{query}", parsed.path()),
                    None => parsed.path().to_string(),
                };
                let origin = Origin::of(url).map_err(|_| unreadable(url))?;
                (&self.public_http, origin, Target::new(path).map_err(|_| unreadable(url))?)
            }
        };
        let answer = http.call(&origin, Outgoing::new(Method::GET, target), &[], TIMEOUT).await.map_err(|failure| {
            tracing::warn!(error = %failure, "a result image could not be fetched");
            ServerError::BadGateway("A result image could not be fetched; try again in a moment.".into())
        })?;
        if !answer.status.is_success() {
            return Err(ServerError::BadGateway(format!(
                "A result image is no longer available (HTTP {}); the service may have removed it.",
                answer.status.as_u16()
            )));
        }
        Ok(answer.body)
    }
}

fn unreadable(url: &str) -> ServerError {
    ServerError::BadGateway(format!("The service gave a result address this server will not read: {url}"))
}

/// The image's extension from its address, `jpg` when it has none worth keeping.
pub fn extension(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let name = path.rsplit('/').next().unwrap_or_default();
    match name.rsplit_once('.').map(|(_, extension)| extension.to_ascii_lowercase()) {
        Some(extension) if ["jpg", "jpeg", "png", "webp", "avif"].contains(&extension.as_str()) => extension,
        _ => "jpg".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::extension;

    #[test]
    fn an_image_s_extension_comes_from_its_address() {
        assert_eq!(extension("https://cdn.example/r/a.PNG?sig=1"), "png");
        assert_eq!(extension("https://cdn.example/r/a"), "jpg");
        assert_eq!(extension("https://cdn.example/r/a.exe"), "jpg");
    }
}
