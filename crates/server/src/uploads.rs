//! `POST /api/uploads`: a photo or mask from the browser (multipart or a raw body, 25 MB at most), checked to
//! decode as an image, cleared of location metadata, kept in the data dir and served at an unguessable address.

use std::io::Cursor;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use image::{ImageFormat, ImageReader, Limits};
use serde::Serialize;

use crate::error::ServerError;
use crate::metadata;

/// The service's own limit for a photo.
pub const MAX_BYTES: usize = 25 * 1024 * 1024;
/// The body limit: the photo plus multipart framing.
pub const BODY_LIMIT: usize = MAX_BYTES + 64 * 1024;
/// Larger photos are refused rather than decoded (about 270 megapixels).
const MAX_SIDE: u32 = 16_384;

#[derive(Debug)]
pub struct Uploads {
    dir: PathBuf,
    /// The address the service and browsers reach this server at, without a trailing slash.
    public_base: String,
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
    pub fn open(dir: PathBuf, public_base: &str) -> anyhow::Result<Self> {
        std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("cannot create the uploads folder {}: {e}", dir.display()))?;
        Ok(Uploads { dir, public_base: public_base.trim_end_matches('/').to_string() })
    }

    /// Checks, cleans and stores one image.
    pub async fn store(&self, bytes: Bytes) -> Result<Uploaded, ServerError> {
        if bytes.is_empty() {
            return Err(ServerError::BadRequest("The upload is empty; choose a photo and send it again.".into()));
        }
        if bytes.len() > MAX_BYTES {
            return Err(too_large());
        }
        let (cleaned, format, width, height) = tokio::task::spawn_blocking(move || inspect(bytes))
            .await
            .map_err(|e| ServerError::Internal(format!("an upload check stopped: {e}")))??;
        let extension = format.extensions_str().first().copied().unwrap_or("img");
        let name = format!("{}.{extension}", random_name()?);
        let path = self.dir.join(&name);
        let size = cleaned.len();
        tokio::fs::write(&path, &cleaned)
            .await
            .map_err(|e| ServerError::Internal(format!("cannot write {}: {e}", path.display())))?;
        tracing::info!(%name, bytes = size, width, height, "stored an upload");
        Ok(Uploaded {
            url: format!("{}/api/uploads/{name}", self.public_base),
            width,
            height,
            bytes: size,
            content_type: format.to_mime_type(),
        })
    }
}

/// Format, size and a full decode (so a truncated or corrupt file is caught here, not by the service).
fn inspect(bytes: Bytes) -> Result<(Bytes, ImageFormat, u32, u32), ServerError> {
    let format = image::guess_format(&bytes).map_err(|_| not_an_image())?;
    if !matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP) {
        return Err(ServerError::Unsupported(format!(
            "{format:?} images are not accepted; upload a JPEG, PNG or WebP image."
        )));
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    let mut reader = ImageReader::with_format(Cursor::new(&bytes[..]), format);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => ServerError::TooLarge(format!(
            "The image is larger than {MAX_SIDE} pixels on a side; resize it and upload it again."
        )),
        other => ServerError::BadRequest(format!(
            "The file is not a readable image ({other}); export it again as JPEG or PNG and upload that."
        )),
    })?;
    let cleaned = metadata::strip(bytes, format).map_err(ServerError::BadRequest)?;
    Ok((cleaned, format, image.width(), image.height()))
}

fn random_name() -> Result<String, ServerError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ServerError::Internal(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

fn not_an_image() -> ServerError {
    ServerError::Unsupported("The file is not an image; upload a JPEG, PNG or WebP photo.".into())
}

fn too_large() -> ServerError {
    ServerError::TooLarge("The photo is over 25 MB; export it smaller and upload it again.".into())
}

/// `POST /api/uploads`: `multipart/form-data` (the first file field) or the image as the body.
pub async fn upload(State(uploads): State<Arc<Uploads>>, request: Request) -> Result<Json<Uploaded>, ServerError> {
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
    Ok(Json(uploads.store(bytes).await?))
}

fn body_error(error: axum::extract::multipart::MultipartError) -> ServerError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ServerError::BadRequest(format!("The upload was cut short or is malformed ({error}); send it again."))
    }
}

/// `GET /api/uploads/{name}`: a stored upload. Names are 128 random bits, so knowing one is the permission.
pub async fn serve(State(uploads): State<Arc<Uploads>>, Path(name): Path<String>) -> Result<Response, ServerError> {
    let missing = || ServerError::NotFound("No such upload; upload the photo again.".into());
    let (stem, extension) = name.split_once('.').ok_or_else(missing)?;
    if stem.len() != 32 || !stem.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(missing());
    }
    let format = ImageFormat::from_extension(extension).ok_or_else(missing)?;
    let bytes = tokio::fs::read(uploads.dir.join(&name)).await.map_err(|_| missing())?;
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(format.to_mime_type()));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    Ok(response)
}
