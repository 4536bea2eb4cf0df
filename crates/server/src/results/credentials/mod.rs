//! Content credentials (C2PA) in kept results: each kept image carries a manifest, signed with the operator's
//! certificate (`--c2pa-cert`/`--c2pa-key`) or one a server made at first start, kept in the database for every
//! server on it (`authority`), that says what
//! was done (an edit by trained algorithmic media, IPTC's digital source type), which service did it, and, when
//! the server knows the photo the render was made from, that photo as the parent ingredient with its SHA-256. The
//! originals page reads them back with the reference crate's reader (`reading`, into a `verdict`).
//!
//! Signing and reading are the `c2pa` crate's (the C2PA reference implementation, its pure-Rust crypto), in the
//! `content-credentials` feature (`signed`, `reading`); both are synchronous and CPU-bound, so callers run them on
//! the blocking pool. A build without the feature has `not_built` in their place, which signs and reads nothing
//! and says so.

#[cfg(feature = "content-credentials")]
pub mod authority;
#[cfg(not(feature = "content-credentials"))]
mod not_built;
#[cfg(feature = "content-credentials")]
mod reading;
#[cfg(feature = "content-credentials")]
mod signed;
mod verdict;

#[cfg(not(feature = "content-credentials"))]
pub use not_built::ContentCredentials;
#[cfg(feature = "content-credentials")]
pub use signed::{ContentCredentials, Signer};
pub use verdict::{OriginalCheck, Trust, Verdict};

/// Whether this build signs and reads content credentials (the `content-credentials` feature).
pub const IN_THIS_BUILD: bool = cfg!(feature = "content-credentials");

/// What a build without them says instead, and how to have them.
pub const NOT_IN_THIS_BUILD: &str = "content credentials (C2PA) are not in this build of vstage: kept results \
                                     carry none; build the server with `--features content-credentials` to sign them";

/// What a kept image's credentials say was done, besides the parent photo.
pub struct Made<'a> {
    /// The image's media type (`image/jpeg`, `image/png`, `image/webp`).
    pub format: &'a str,
    /// The file's name, as the manifest's title.
    pub title: &'a str,
    /// IPTC's digital source type of the result.
    pub source_type: &'a str,
    /// What was done, in a sentence.
    pub description: &'a str,
}

/// The media type C2PA reads `bytes` as, for the formats the service's results come in.
pub fn media_type(bytes: &[u8]) -> Option<&'static str> {
    match image::guess_format(bytes).ok()? {
        image::ImageFormat::Jpeg => Some("image/jpeg"),
        image::ImageFormat::Png => Some("image/png"),
        image::ImageFormat::WebP => Some("image/webp"),
        _ => None,
    }
}

#[cfg(all(test, feature = "content-credentials"))]
mod tests;
