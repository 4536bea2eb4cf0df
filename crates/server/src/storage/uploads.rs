//! `POST /api/uploads`: a photo or mask from the browser (multipart or a raw body, 25 MB and 50 megapixels at most),
//! checked to decode whole as an image, reduced to what draws it (no metadata but its orientation), kept in the
//! object store (the data dir, or S3 that several servers share) under its subject's quota for the retention
//! period, and served at an unguessable address by any server.

use std::io::Cursor;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use futures_util::TryStreamExt;
use image::{ImageFormat, ImageReader, Limits};
use object_store::path::Path as Location;
use object_store::{ObjectStore, ObjectStoreExt};
use serde::Serialize;
use tokio::sync::Semaphore;
use vstage_api::time::now_millis;
use vstage_api::validate::MAX_PHOTO_PIXELS;

use crate::access::Subject;
use crate::error::ServerError;
use crate::metrics::metrics;
use crate::storage::metadata;
use crate::storage::store::{Store, UploadRecord};

/// The largest photo file the service takes.
pub const MAX_BYTES: usize = vstage_api::validate::MAX_PHOTO_BYTES;
/// The body limit: the photo plus multipart framing.
pub const BODY_LIMIT: usize = MAX_BYTES + 64 * 1024;
/// What decoding the largest photo may allocate: 16-bit RGBA, and some room for the decoder.
const DECODE_MEMORY: u64 = MAX_PHOTO_PIXELS * 8 + 64 * 1024 * 1024;

#[derive(Debug)]
pub struct Uploads {
    files: Arc<dyn ObjectStore>,
    /// The address the service and browsers reach this server at, without a trailing slash.
    public_base: String,
    store: Arc<dyn Store>,
    limits: UploadLimits,
    /// Decodes at once: each may take `DECODE_MEMORY`.
    decoding: Semaphore,
}

/// How much each subject may keep, and for how long.
#[derive(Debug, Clone, Copy)]
pub struct UploadLimits {
    /// Bytes a subject's uploads may take together; `None` for no limit.
    pub quota: Option<u64>,
    /// How long an upload is kept; `None` for ever.
    pub retention: Option<Duration>,
}

/// The answer to an upload.
#[derive(Debug, Serialize)]
pub struct Uploaded {
    pub url: String,
    pub width: u32,
    pub height: u32,
    pub bytes: usize,
    pub content_type: &'static str,
}

impl Uploads {
    pub fn new(files: Arc<dyn ObjectStore>, public_base: &str, store: Arc<dyn Store>, limits: UploadLimits) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let public_base = public_base.trim_end_matches('/').to_string();
        Uploads { files, public_base, store, limits, decoding: Semaphore::new(cores) }
    }

    /// Checks, cleans and stores one image of `subject`'s. Once it is counted against the quota, storing it runs
    /// to its end even when the caller goes away meanwhile: cut off between the two, the quota would count for
    /// good a file that is not there (the retention sweep frees only what it finds stored).
    pub async fn store(self: &Arc<Self>, bytes: Bytes, subject: &str) -> Result<Uploaded, ServerError> {
        if bytes.is_empty() {
            return Err(ServerError::BadRequest("The upload is empty; choose a photo and send it again.".into()));
        }
        if bytes.len() > MAX_BYTES {
            return Err(too_large());
        }
        let (cleaned, format, width, height) = {
            let _decoding = self.decoding.acquire().await.map_err(|e| ServerError::Internal(e.to_string()))?;
            tokio::task::spawn_blocking(move || inspect(bytes))
                .await
                .map_err(|e| ServerError::Internal(format!("an upload check stopped: {e}")))??
        };
        let extension = format.extensions_str().first().copied().unwrap_or("img");
        let name = format!("{}.{extension}", random_name()?);
        let size = cleaned.len();
        let (uploads, kept_as, subject_of) = (self.clone(), name.clone(), subject.to_string());
        tokio::spawn(async move { uploads.reserve_and_put(&kept_as, &subject_of, cleaned).await })
            .await
            .map_err(|e| ServerError::Internal(format!("storing an upload stopped: {e}")))??;
        // Not its name: whoever has it may read the photo.
        tracing::info!(bytes = size, width, height, "stored an upload");
        Ok(Uploaded {
            url: format!("{}/api/uploads/{name}", self.public_base),
            width,
            height,
            bytes: size,
            content_type: format.to_mime_type(),
        })
    }

    /// Counts `cleaned` against `subject`'s quota as `name`, then stores it; not counted when it could not be stored.
    async fn reserve_and_put(&self, name: &str, subject: &str, cleaned: Bytes) -> Result<(), ServerError> {
        self.reserve(name, subject, cleaned.len() as u64).await?;
        if let Err(error) = self.files.put(&Location::from(name), cleaned.into()).await {
            self.store.forget_uploads(&[name.to_string()]).await?;
            return Err(ServerError::Internal(format!("the storage refused an upload: {error}")));
        }
        Ok(())
    }

    /// Records `name` as `subject`'s, if its uploads stay within the quota with it (checked and recorded in one
    /// transaction, so uploads at once cannot both squeeze in).
    async fn reserve(&self, name: &str, subject: &str, bytes: u64) -> Result<(), ServerError> {
        let record = UploadRecord { name: name.into(), subject: subject.into(), bytes, stored_at: now_millis() };
        match self.store.reserve_upload(&record, self.limits.quota).await? {
            Ok(()) => Ok(()),
            Err(used) => {
                metrics().quota_refused("uploads");
                Err(quota_reached(used, self.limits.quota.unwrap_or_default(), self.limits.retention))
            }
        }
    }

    /// Removes the uploads older than the retention period, now and then, for as long as the server runs.
    pub async fn remove_expired_forever(self: Arc<Self>) {
        let Some(retention) = self.limits.retention else { return };
        super::sweep_forever(retention, "uploads", || self.remove_expired(retention)).await;
    }

    /// Removes every upload stored more than `retention` ago (by the object's time, so files from before the
    /// uploads were recorded go too). With several servers on one store, each may remove the same: a file gone
    /// already is no error.
    async fn remove_expired(&self, retention: Duration) -> Result<(), ServerError> {
        let cutoff = now_millis().saturating_sub(i64::try_from(retention.as_millis()).unwrap_or(i64::MAX));
        let listing_failed = |e: object_store::Error| ServerError::Internal(format!("listing the uploads: {e}"));
        let expired: Vec<Location> = self
            .files
            .list(None)
            .try_filter(|object| std::future::ready(object.last_modified.timestamp_millis() < cutoff))
            .map_ok(|object| object.location)
            .try_collect()
            .await
            .map_err(listing_failed)?;
        let mut removed = Vec::new();
        for location in expired {
            match self.files.delete(&location).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => removed.push(location.to_string()),
                Err(error) => tracing::warn!(%error, %location, "an expired upload could not be removed"),
            }
        }
        if !removed.is_empty() {
            tracing::info!(count = removed.len(), "removed uploads past their retention period");
            self.store.forget_uploads(&removed).await?;
        }
        Ok(())
    }
}

/// A retention as a sentence says it: `30 days`, `12 hours`, else humantime's `90s`.
fn spoken(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match (seconds % 86_400, seconds % 3_600) {
        (0, _) if seconds > 0 => format!("{} day{}", seconds / 86_400, if seconds == 86_400 { "" } else { "s" }),
        (_, 0) if seconds > 0 => format!("{} hour{}", seconds / 3_600, if seconds == 3_600 { "" } else { "s" }),
        _ => humantime::format_duration(duration).to_string(),
    }
}

fn quota_reached(used: u64, quota: u64, retention: Option<Duration>) -> ServerError {
    let megabytes = |bytes: u64| bytes.div_ceil(1024 * 1024);
    let freed = match retention {
        Some(retention) => {
            format!(" Uploads are removed {} after they are made.", spoken(retention))
        }
        None => String::new(),
    };
    ServerError::InsufficientStorage(format!(
        "Your uploads take {} MB of the {} MB you may keep, and this photo does not fit.{freed}",
        megabytes(used),
        megabytes(quota)
    ))
}

/// Format, size and a full decode of what is kept (so a truncated or corrupt file is caught here, not by the
/// service).
fn inspect(bytes: Bytes) -> Result<(Bytes, ImageFormat, u32, u32), ServerError> {
    let (cleaned, format, _, _) = cleaned_photo(bytes)?;
    let mut limits = Limits::default();
    limits.max_alloc = Some(DECODE_MEMORY);
    let mut reader = ImageReader::with_format(Cursor::new(&cleaned[..]), format);
    reader.limits(limits);
    let image = reader.decode().map_err(unreadable)?;
    Ok((cleaned, format, image.width(), image.height()))
}

/// A photo passing through (an upload, v1's form): a JPEG, PNG or WebP within the service's size from its header,
/// whole (not cut short), returned with only what draws it (`metadata::strip`), with its format and size. Nothing
/// is decoded, so it costs about its bytes.
pub(crate) fn cleaned_photo(bytes: Bytes) -> Result<(Bytes, ImageFormat, u32, u32), ServerError> {
    let format = image::guess_format(&bytes).map_err(|_| not_an_image())?;
    if !matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP) {
        return Err(ServerError::Unsupported(format!(
            "{format:?} images are not accepted; upload a JPEG, PNG or WebP image."
        )));
    }
    // Its structure first (a file cut short is told so), then the size from the header: a photo the service
    // would refuse is not decoded at all.
    let cleaned = metadata::strip(bytes, format).map_err(ServerError::BadRequest)?;
    let (width, height) =
        ImageReader::with_format(Cursor::new(&cleaned[..]), format).into_dimensions().map_err(unreadable)?;
    if u64::from(width) * u64::from(height) > MAX_PHOTO_PIXELS {
        return Err(ServerError::TooLarge(format!(
            "The photo is {width}x{height} pixels, over the {} megapixels the service takes; resize it and upload \
             it again.",
            MAX_PHOTO_PIXELS / 1_000_000
        )));
    }
    Ok((cleaned, format, width, height))
}

fn unreadable(error: image::ImageError) -> ServerError {
    ServerError::BadRequest(format!(
        "The file is not a readable image ({error}); export it again as JPEG or PNG and upload that."
    ))
}

fn random_name() -> Result<String, ServerError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ServerError::Internal(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

fn not_an_image() -> ServerError {
    ServerError::Unsupported("The file is not an image; upload a JPEG, PNG or WebP photo.".into())
}

pub(crate) fn too_large() -> ServerError {
    ServerError::TooLarge("The photo is over 25 MB; export it smaller and upload it again.".into())
}

/// `POST /api/uploads`: `multipart/form-data` (the first file field) or the image as the body.
pub async fn upload(
    State(uploads): State<Arc<Uploads>>,
    Extension(subject): Extension<Subject>,
    request: Request,
) -> Result<Json<Uploaded>, ServerError> {
    let is_multipart = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("multipart/form-data"));
    let bytes = if is_multipart {
        let mut multipart = Multipart::from_request(request, &())
            .await
            .map_err(|e| ServerError::BadRequest(format!("The upload form is malformed: {e}")))?;
        let mut file = None;
        while let Some(field) = multipart.next_field().await.map_err(body_error)? {
            if field.file_name().is_some() || field.name() == Some("file") {
                file = Some(field.bytes().await.map_err(body_error)?);
                break;
            }
        }
        file.ok_or_else(|| ServerError::BadRequest("The form has no file; add the photo as a `file` field.".into()))?
    } else {
        Bytes::from_request(request, &()).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                ServerError::BadRequest(e.body_text())
            }
        })?
    };
    Ok(Json(uploads.store(bytes, subject.as_str()).await?))
}

fn body_error(error: axum::extract::multipart::MultipartError) -> ServerError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ServerError::BadRequest(format!("The upload was cut short or is malformed ({error}); send it again."))
    }
}

impl Uploads {
    /// The stored upload called `name` and its format; `NotFound` for a name that is not an upload's.
    async fn get(&self, name: &str) -> Result<(object_store::GetResult, ImageFormat), ServerError> {
        let missing = || ServerError::NotFound("No such upload; upload the photo again.".into());
        let (stem, extension) = name.split_once('.').ok_or_else(missing)?;
        if stem.len() != 32 || !stem.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(missing());
        }
        let format = ImageFormat::from_extension(extension).ok_or_else(missing)?;
        let stored = self.files.get(&Location::from(name)).await.map_err(|error| match error {
            object_store::Error::NotFound { .. } => missing(),
            other => ServerError::Internal(format!("the storage could not read an upload: {other}")),
        })?;
        Ok((stored, format))
    }

    /// The bytes of the upload called `name`.
    pub async fn read(&self, name: &str) -> Result<Bytes, ServerError> {
        let (stored, _) = self.get(name).await?;
        stored
            .bytes()
            .await
            .map_err(|error| ServerError::Internal(format!("the storage could not read an upload: {error}")))
    }
}

/// `GET /api/uploads/{name}`: a stored upload. Names are 128 random bits, so knowing one is the permission.
pub async fn serve(State(uploads): State<Arc<Uploads>>, Path(name): Path<String>) -> Result<Response, ServerError> {
    let (stored, format) = uploads.get(&name).await?;
    let mut response =
        axum::body::Body::from_stream(stored.into_stream().map_err(std::io::Error::other)).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(format.to_mime_type()));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    crate::inert::as_inert(headers);
    Ok(response)
}

/// Through the whole app, in-process.
#[cfg(test)]
mod tests;
