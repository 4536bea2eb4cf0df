//! Fetching a photo or mask the way the service would: an http(s) URL (25 MB at most, a time limit, at most three
//! redirects) or a base64 data URL. Only public addresses are fetched, each hop checked on the address its name
//! resolved to and connected to at that address; the exceptions are the sandbox's own samples and files (read
//! without HTTP) and the local sources it was started with. Failures are sentences that say what is wrong with
//! the image's address.

mod addresses;

use std::path::PathBuf;
use std::time::Duration;

use base64::Engine;
use reqwest::header::LOCATION;
use url::{Host, Url};

use crate::error::SandboxError;
use crate::samples::Sample;
use addresses::{NotPublic, PublicOnly};
use vstage_api::addresses::is_public;

/// The largest image the sandbox downloads.
pub const MAX_BYTES: usize = vstage_api::validate::MAX_PHOTO_BYTES;

/// The most redirects followed for one image.
const MAX_REDIRECTS: usize = 3;

/// What is fetched, as the errors name it.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A photo (`image_url`).
    Image,
    /// A mask (`mask_url`, `declutter_mask_url`).
    Mask,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Image => "image",
            Kind::Mask => "mask",
        })
    }
}

#[derive(Debug)]
pub struct Fetcher {
    /// For public addresses: its resolver refuses a name that leads anywhere else. It follows no redirect itself.
    public: reqwest::Client,
    /// For the local sources, which may be on this machine or a private network. It follows no redirect itself.
    local: reqwest::Client,
    local_sources: Vec<Url>,
    own: Own,
}

/// The sandbox's own images, read where they are kept.
#[derive(Debug)]
struct Own {
    /// The sandbox's public address (its `/samples` and `/files` are under it).
    base: Url,
    samples: Vec<Sample>,
    files: PathBuf,
}

/// Where one address is fetched from.
enum Route<'a> {
    Own(Result<Vec<u8>, String>),
    Client(&'a reqwest::Client),
    Refused,
}

impl Fetcher {
    /// A fetcher for a sandbox at `base_url` with these samples and files, which may also fetch from
    /// `local_sources` (URL prefixes) although they are on this machine or a private network.
    pub fn new(
        base_url: &str,
        samples: &[Sample],
        files: PathBuf,
        local_sources: &[String],
    ) -> Result<Self, SandboxError> {
        let client = |builder: reqwest::ClientBuilder| {
            builder
                .redirect(reqwest::redirect::Policy::none())
                .no_proxy()
                .connect_timeout(Duration::from_secs(10))
                .timeout(Duration::from_secs(30))
                .build()
                .map_err(|e| SandboxError::Startup(format!("cannot set up the HTTP client for photos: {e}")))
        };
        let base = Url::parse(base_url)
            .map_err(|e| SandboxError::Startup(format!("the sandbox's address {base_url} is not a URL ({e})")))?;
        Ok(Fetcher {
            public: client(reqwest::Client::builder().dns_resolver(PublicOnly))?,
            local: client(reqwest::Client::builder())?,
            local_sources: local_sources.iter().map(|source| local_source(source)).collect::<Result<_, _>>()?,
            own: Own { base, samples: samples.to_vec(), files },
        })
    }

    /// The bytes behind `address`, the `kind` of image a field names.
    pub async fn fetch(&self, kind: Kind, address: &str) -> Result<Vec<u8>, String> {
        if let Some(rest) = address.strip_prefix("data:") {
            return decode_data_url(kind, rest);
        }
        let mut url = Url::parse(address)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https"))
            .ok_or_else(|| format!("The {kind} at {address} is not an http(s) address; give one, or a data URL."))?;
        let mut redirects = 0;
        loop {
            let hop = Hop { kind, address, url: &url };
            let client = match self.route(&url).await {
                Route::Own(bytes) => return bytes.map_err(|why| hop.say(&why)),
                Route::Client(client) => client,
                Route::Refused => return Err(hop.private()),
            };
            let response = client.get(url.clone()).send().await.map_err(|e| hop.failed(&e))?;
            let status = response.status().as_u16();
            if matches!(status, 301 | 302 | 303 | 307 | 308) {
                redirects += 1;
                if redirects > MAX_REDIRECTS {
                    return Err(format!(
                        "The {kind} at {address} redirects more than {MAX_REDIRECTS} times; give its final address."
                    ));
                }
                let location = response.headers().get(LOCATION).and_then(|location| location.to_str().ok());
                let Some(next) = location.and_then(|location| url.join(location).ok()) else {
                    return Err(hop.say("redirects without saying where to; give the image's final address"));
                };
                url = next;
                continue;
            }
            if !response.status().is_success() {
                return Err(hop.say(&format!("could not be downloaded (HTTP {status})")));
            }
            return read(response, &hop).await;
        }
    }

    /// Where `url` is fetched from: the sandbox's own images from where they are kept, a local source with the
    /// local client, a public address with the public client (whose resolver checks names); anything else is
    /// refused.
    async fn route(&self, url: &Url) -> Route<'_> {
        if let Some(bytes) = self.own.read(url).await {
            return Route::Own(bytes);
        }
        if self.local_sources.iter().any(|source| under(url, source)) {
            return Route::Client(&self.local);
        }
        let literal = match url.host() {
            Some(Host::Ipv4(ip)) => Some(ip.into()),
            Some(Host::Ipv6(ip)) => Some(ip.into()),
            _ => None,
        };
        match literal {
            Some(ip) if !is_public(ip) => Route::Refused,
            _ => Route::Client(&self.public),
        }
    }
}

impl Own {
    /// The sample or file `url` names when it is under the sandbox's own address; `None` for other addresses.
    async fn read(&self, url: &Url) -> Option<Result<Vec<u8>, String>> {
        if !same_origin(url, &self.base) {
            return None;
        }
        let base = self.base.path().trim_end_matches('/');
        let rest = url.path().strip_prefix(base)?;
        if let Some(name) = rest.strip_prefix("/samples/") {
            let sample = self.samples.iter().find(|sample| sample.name == name);
            return Some(sample.map(|sample| sample.jpeg.to_vec()).ok_or_else(|| {
                "is not one of the sandbox's samples (GET /samples lists them); check the address".to_string()
            }));
        }
        let name = rest.strip_prefix("/files/")?;
        let missing = || "is not one of the sandbox's images; check the address".to_string();
        if !crate::files::Files::is_file_name(name) {
            return Some(Err(missing()));
        }
        let path = self.files.join(name);
        Some(match tokio::fs::metadata(&path).await {
            Ok(found) if found.len() > MAX_BYTES as u64 => Err("is over 25 MB; send a smaller image".into()),
            Ok(_) => tokio::fs::read(&path).await.map_err(|_| missing()),
            Err(_) => Err(missing()),
        })
    }
}

/// How an error names the image an address gives: by the address, or as a data URL (whose content is no name).
pub fn named(kind: Kind, address: &str) -> String {
    if address.starts_with("data:") {
        format!("The {kind} given as a data URL")
    } else {
        format!("The {kind} at {address}")
    }
}

/// One address on the way to an image, for the errors: the address given, and where it led when it redirected.
struct Hop<'a> {
    kind: Kind,
    address: &'a str,
    url: &'a Url,
}

impl Hop<'_> {
    /// "The image at ADDRESS (which led to URL) WHY."
    fn say(&self, why: &str) -> String {
        let Hop { kind, address, url } = self;
        if url.as_str() == *address {
            format!("The {kind} at {address} {why}.")
        } else {
            format!("The {kind} at {address} leads to {url}, which {why}.")
        }
    }

    fn private(&self) -> String {
        let Hop { kind, address, url } = self;
        let place = "on this machine or a private network, which the service cannot fetch; give a public address";
        if url.as_str() == *address {
            format!("The {kind} at {address} is {place}.")
        } else {
            format!("The {kind} at {address} leads to {url}, which is {place}.")
        }
    }

    fn failed(&self, error: &reqwest::Error) -> String {
        let mut source: Option<&dyn std::error::Error> = Some(error);
        while let Some(cause) = source {
            if cause.is::<NotPublic>() {
                return self.private();
            }
            source = cause.source();
        }
        if error.is_timeout() {
            self.say("did not arrive in time; check that the address answers")
        } else {
            self.say("could not be downloaded; check that the address is reachable")
        }
    }
}

/// The body of a successful answer, within the size limit.
async fn read(mut response: reqwest::Response, hop: &Hop<'_>) -> Result<Vec<u8>, String> {
    let too_large = || hop.say("is over 25 MB; send a smaller image");
    if response.content_length().is_some_and(|length| length > MAX_BYTES as u64) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| hop.failed(&e))? {
        if bytes.len() + chunk.len() > MAX_BYTES {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// A local source as given (`http://127.0.0.1:8080/api/uploads/`), checked: an http(s) URL whose path is taken as
/// a folder, so that `/api/uploads` does not let `/api/uploads-old` through.
fn local_source(source: &str) -> Result<Url, SandboxError> {
    let refused = |why: &str| {
        SandboxError::Startup(format!(
            "the local photo source {source} {why}; give an address prefix such as http://127.0.0.1:8080/api/uploads/"
        ))
    };
    let mut url = Url::parse(source).map_err(|e| refused(&format!("is not a URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(refused("is not an http(s) address"));
    }
    if url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
        return Err(refused("has a query, a fragment or a user name"));
    }
    if !url.path().ends_with('/') {
        let folder = format!("{}/", url.path());
        url.set_path(&folder);
    }
    Ok(url)
}

fn same_origin(url: &Url, other: &Url) -> bool {
    url.scheme() == other.scheme()
        && url.host() == other.host()
        && url.port_or_known_default() == other.port_or_known_default()
}

/// Whether `url` is under the local source `source` (whose path ends with `/`).
fn under(url: &Url, source: &Url) -> bool {
    same_origin(url, source) && url.username().is_empty() && url.path().starts_with(source.path())
}

fn decode_data_url(kind: Kind, rest: &str) -> Result<Vec<u8>, String> {
    let (_, data) = rest
        .split_once(";base64,")
        .ok_or_else(|| format!("The {kind}'s data URL is not base64: use data:image/<type>;base64,<data>."))?;
    if data.len() / 4 * 3 > MAX_BYTES {
        return Err(format!("The {kind}'s data URL holds over 25 MB; send a smaller image."));
    }
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| format!("The base64 of the {kind}'s data URL is damaged ({e}); encode the image again."))
}
