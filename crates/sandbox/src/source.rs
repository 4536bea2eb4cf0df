//! Fetching a photo or mask the way the service would: an http(s) URL (25 MB at most, a time limit, at most three
//! redirects) or a base64 data URL. Failures are sentences that say what is wrong with the image's address.

use std::time::Duration;

use base64::Engine;

use crate::error::SandboxError;

/// The largest image the sandbox downloads.
pub const MAX_BYTES: usize = vstage_api::validate::MAX_PHOTO_BYTES;

#[derive(Debug, Clone)]
pub struct Fetcher {
    http: reqwest::Client,
}

impl Fetcher {
    pub fn new() -> Result<Self, SandboxError> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::limited(3))
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| SandboxError::Startup(format!("cannot set up the HTTP client for photos: {e}")))?;
        Ok(Fetcher { http })
    }

    /// The bytes behind `url`.
    pub async fn fetch(&self, url: &str) -> Result<Vec<u8>, String> {
        if let Some(rest) = url.strip_prefix("data:") {
            return decode_data_url(rest);
        }
        let mut response = self.http.get(url).send().await.map_err(|e| describe(url, &e))?;
        if !response.status().is_success() {
            return Err(format!("The image at {url} could not be downloaded (HTTP {}).", response.status().as_u16()));
        }
        if response.content_length().is_some_and(|length| length as usize > MAX_BYTES) {
            return Err(too_large(url));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| describe(url, &e))? {
            if bytes.len() + chunk.len() > MAX_BYTES {
                return Err(too_large(url));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }
}

fn decode_data_url(rest: &str) -> Result<Vec<u8>, String> {
    let (_, data) = rest
        .split_once(";base64,")
        .ok_or_else(|| "The data URL is not base64: use data:image/<type>;base64,<data>.".to_string())?;
    if data.len() / 4 * 3 > MAX_BYTES {
        return Err("The data URL's image is over 25 MB; send a smaller image.".into());
    }
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| format!("The data URL's base64 is damaged ({e}); encode the image again."))
}

fn too_large(url: &str) -> String {
    format!("The image at {url} is over 25 MB; send a smaller image.")
}

fn describe(url: &str, error: &reqwest::Error) -> String {
    if error.is_timeout() {
        format!("The image at {url} did not arrive in time; check that the address answers.")
    } else if error.is_redirect() {
        format!("The image at {url} redirects more than 3 times; give its final address.")
    } else {
        format!("The image at {url} could not be downloaded; check that the address is reachable.")
    }
}
