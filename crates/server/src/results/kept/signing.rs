//! The content credentials signed into each kept copy (`results::credentials`), naming as its parent the photo
//! the render was made from: the address its creation named (recorded by the proxy), read from this server's
//! uploads or fetched as results are, and stripped of its own metadata as the original kept for a disclosure is,
//! so that the hash in the credentials is the hash of that kept original.

use image::ImageFormat;

use super::*;
use crate::results::credentials::{self, Made, media_type};
use crate::storage::metadata;

/// What signs, and where photos are read.
#[derive(Debug)]
pub(super) struct Signing {
    credentials: Arc<ContentCredentials>,
    uploads: Arc<Uploads>,
    /// `{public_url}/api/uploads/`, which this server's own uploads start with.
    own_uploads: String,
    /// The last photo read, by render and view: a render's variations are kept one after another, each naming it.
    last_original: Mutex<Option<((String, u32), Original)>>,
}

/// The photo a render was made from, as kept: its media type and bytes without metadata of its own.
#[derive(Debug, Clone)]
pub struct Original {
    pub format: &'static str,
    pub bytes: Bytes,
}

impl KeptResults {
    /// Signs every copy with `credentials`, reading the renders' photos from `uploads` when they are this server's.
    pub fn signing(mut self, credentials: Arc<ContentCredentials>, uploads: Arc<Uploads>, public_url: &str) -> Self {
        let own_uploads = format!("{}/api/uploads/", public_url.trim_end_matches('/'));
        self.signing = Some(Signing { credentials, uploads, own_uploads, last_original: Mutex::default() });
        self
    }

    /// A photo's bytes: this server's own upload from the store, anything else as results are fetched (never
    /// from this machine or a private network).
    pub async fn read_photo(&self, address: &str) -> Result<Bytes, ServerError> {
        let own =
            self.signing.as_ref().and_then(|signing| Some((signing, address.strip_prefix(&signing.own_uploads)?)));
        match own {
            Some((signing, name)) => signing.uploads.read(name).await,
            None => self.fetcher.fetch(address).await.map_err(|_| {
                ServerError::BadGateway(format!("The original photo could not be read from {address}; try again."))
            }),
        }
    }

    /// The photo at `address` as an original is kept: a JPEG, PNG or WebP without its own metadata.
    pub async fn original_at(&self, address: &str) -> Result<Original, ServerError> {
        let bytes = self.read_photo(address).await?;
        let format = image::guess_format(&bytes)
            .ok()
            .filter(|format| matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP))
            .ok_or_else(|| ServerError::BadRequest("The original photo is not a JPEG, PNG or WebP image.".into()))?;
        let bytes = metadata::strip(bytes, format).map_err(ServerError::BadRequest)?;
        Ok(Original { format: format.to_mime_type(), bytes })
    }

    /// The photo `render_id`'s images of `view` were made from (0 but for a multi-view render's later views), when
    /// its creation went through this server and it can be read now (read once for a render's variations kept one
    /// after another).
    pub(super) async fn original_of(&self, render_id: &str, view: u32) -> Option<Original> {
        let key = (render_id.to_string(), view);
        let last = |signing: &Signing| signing.last_original.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let remembered = self.signing.as_ref().and_then(last).filter(|(of, _)| *of == key);
        if let Some((_, original)) = remembered {
            return Some(original);
        }
        let original = self.read_original_of(render_id, view).await?;
        if let Some(signing) = &self.signing {
            *signing.last_original.lock().unwrap_or_else(|p| p.into_inner()) = Some((key, original.clone()));
        }
        Some(original)
    }

    async fn read_original_of(&self, render_id: &str, view: u32) -> Option<Original> {
        let address = match self.store.photo_of(render_id, view).await {
            Ok(address) => address?,
            Err(error) => {
                tracing::warn!(%error, render_id, "the render's photo could not be looked up");
                return None;
            }
        };
        match self.original_at(&address).await {
            Ok(original) => Some(original),
            Err(error) => {
                tracing::warn!(%error, render_id, "the render's photo could not be read for its credentials");
                None
            }
        }
    }

    /// `fetched` as it is kept: without its own metadata, with its provenance (`provenance::mark`) and, last,
    /// content credentials naming `parent` (the original photo, or the copy it was drawn on) when known. A copy
    /// whose credentials cannot be made is kept without them, and the log says why; a build without content
    /// credentials keeps every copy without them.
    pub async fn marked(
        &self,
        fetched: Bytes,
        kind: Option<&VariationType>,
        title: &str,
        parent: Option<&Original>,
    ) -> Result<Bytes, ServerError> {
        let marked = provenance::mark(fetched, kind).map_err(ServerError::BadGateway)?;
        let (Some(signing), Some(format), true) = (&self.signing, media_type(&marked), credentials::IN_THIS_BUILD)
        else {
            return Ok(marked);
        };
        let (credentials, parent, named) = (signing.credentials.clone(), parent.cloned(), title.to_string());
        let (source_type, description) = (provenance::source_type(kind), provenance::description(kind));
        let unsigned = marked.clone();
        let signed = tokio::task::spawn_blocking(move || {
            let made = Made { format, title: &named, source_type, description };
            credentials.sign(&unsigned, &made, parent.as_ref().map(|parent| (parent.format, &parent.bytes[..])))
        })
        .await;
        match signed {
            Ok(Ok(signed)) => Ok(signed.into()),
            Ok(Err(error)) => {
                tracing::warn!(%error, title, "a kept copy's content credentials could not be made");
                Ok(marked)
            }
            Err(error) => Err(ServerError::Internal(format!("signing a kept copy stopped: {error}"))),
        }
    }

    /// What signs the copies, for the originals page to read them back.
    pub fn credentials(&self) -> Option<&Arc<ContentCredentials>> {
        self.signing.as_ref().map(|signing| &signing.credentials)
    }
}
