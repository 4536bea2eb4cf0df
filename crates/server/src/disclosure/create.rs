//! Recording a chosen result: the variation read from the service (through the proxy, so with its kept copies),
//! its copy kept now if it was not yet, the original photo kept beside it, a labelled copy drawn where the profile
//! asks for a watermark, then the record.

use std::sync::Arc;

use axum::body::Bytes;
use image::ImageFormat;
use vstage_api::config::Config;
use vstage_api::disclosure::{DiscloseRequest, Disclosure};
use vstage_api::render::{Render, Variation};
use vstage_api::time::now_millis;
use vstage_api::vocabulary::VariationStatus;

use super::Disclosures;
use super::profiles::rules;
use super::statement::Facts;
use super::words::words;
use crate::access::Subject;
use crate::error::ServerError;
use crate::proxy::Proxy;
use crate::proxy::listing::render_with_variations;
use crate::results::fetch::ResultFetcher;
use crate::results::provenance;
use crate::storage::metadata;
use crate::storage::store::{DisclosureRecord, KeptFile};
use crate::storage::uploads::Uploads;

/// What recording needs besides the shared part: this worker's proxy and fetcher, and the uploads.
pub struct Recorder {
    pub disclosures: Arc<Disclosures>,
    pub proxy: Arc<Proxy>,
    pub fetcher: ResultFetcher,
    pub uploads: Arc<Uploads>,
}

/// The kept files' roles for the original photo and its copy for screens (at most 1280 pixels, as a result's
/// `optimized_url`); a copy labelled in a language is `labelled-de`.
pub const ORIGINAL: &str = "original";
pub const ORIGINAL_FOR_SCREENS: &str = "original_optimized";

impl Recorder {
    pub async fn record(&self, subject: &Subject, request: DiscloseRequest) -> Result<Disclosure, ServerError> {
        for (field, id) in [("render_id", &request.render_id), ("variation_id", &request.variation_id)] {
            vstage_api::validate::id(field, id).map_err(|e| ServerError::BadRequest(e.to_string()))?;
        }
        let render_id = request.render_id.as_str();
        if subject.by_token() {
            self.proxy.require_owner(crate::storage::store::Kind::Render, vec![render_id.to_string()], subject).await?;
        }
        let missing = || ServerError::NotFound(format!("No render {render_id}; check the address."));
        let (render, variations) =
            render_with_variations(&self.proxy, subject, render_id).await?.ok_or_else(missing)?;
        let variation = finished(&variations, &request)?;
        let result = variation.result.as_ref().ok_or_else(not_finished)?;
        let kept = &self.disclosures.kept;
        kept.keep_now(subject.as_str(), render_id, &variation.id, variation.kind.as_ref(), result).await?;
        let index = request.image_index;
        let photo = kept.kept_file(render_id, &variation.id, index, "url").await?.ok_or_else(|| {
            ServerError::Conflict(
                "This result is not kept on this server (it was removed, or the quota is full), so it cannot be \
                 disclosed with a lasting link; choose another result or free some space."
                    .into(),
            )
        })?;
        let original = self.keep_original(subject, &render, variation, request.original_url.as_deref()).await?;
        let profile = request.profile.unwrap_or(self.disclosures.default_profile);
        let lang = words(request.lang.as_deref().unwrap_or("en")).lang;
        let facts = Facts::of(variation);
        let photo = match rules(profile).watermark && !service_watermarked(variation) {
            true => self.keep_labelled(subject, &photo, variation, &facts, index, lang).await?,
            false => photo,
        };
        let record = DisclosureRecord {
            id: crate::secret::random("dsc_")
                .map(|id| id[..28].to_string())
                .map_err(|e| ServerError::Internal(e.to_string()))?,
            subject: subject.as_str().to_string(),
            created_at: now_millis(),
            render_id: render_id.to_string(),
            variation_id: variation.id.clone(),
            image_index: index,
            variation_type: variation.kind.as_ref().map(|kind| kind.as_str().to_string()).unwrap_or_default(),
            style: facts.style.clone().unwrap_or_default(),
            furniture_removed: facts.furniture_removed,
            profile: profile.as_str().to_string(),
            lang: lang.to_string(),
            photo_file: photo,
            original_file: original,
        };
        self.disclosures.store.record_disclosure(&record).await?;
        Ok(self.disclosures.shown(&record))
    }

    /// The original photo kept with the variation (once per variation), stripped of its own metadata.
    async fn keep_original(
        &self,
        subject: &Subject,
        render: &Render,
        variation: &Variation,
        named: Option<&str>,
    ) -> Result<String, ServerError> {
        let kept = &self.disclosures.kept;
        if let Some(file) = kept.kept_file(&render.id, &variation.id, 0, ORIGINAL).await? {
            return Ok(file);
        }
        // The service's word first; the widget's only for a service that does not say.
        let address = render.image_url.as_deref().or(named).ok_or_else(|| {
            ServerError::BadRequest(
                "The service does not say which photo this render was made from: send its address as original_url."
                    .into(),
            )
        })?;
        let bytes = self.read_photo(address).await?;
        let format = image::guess_format(&bytes)
            .ok()
            .filter(|format| matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP))
            .ok_or_else(|| ServerError::BadRequest("The original photo is not a JPEG, PNG or WebP image.".into()))?;
        let cleaned = metadata::strip(bytes, format).map_err(ServerError::BadRequest)?;
        let file = format!("{ORIGINAL}.{}", format.extensions_str().first().copied().unwrap_or("jpg"));
        let decoding = cleaned.clone();
        let for_screens = tokio::task::spawn_blocking(move || {
            let photo = vstage_sandbox::imaging::decode(&decoding)?;
            vstage_sandbox::imaging::optimized_copy(&photo, usize::MAX)
        })
        .await
        .map_err(|e| ServerError::Internal(format!("making the original's copy for screens stopped: {e}")))?
        .map_err(ServerError::BadRequest)?;
        let record = kept_file(subject, &render.id, &variation.id, 0, ORIGINAL, &file, cleaned.len());
        kept.add_file(subject.as_str(), record, cleaned).await?;
        let screens = "original-1280.jpg";
        let record = kept_file(subject, &render.id, &variation.id, 0, ORIGINAL_FOR_SCREENS, screens, for_screens.len());
        kept.add_file(subject.as_str(), record, for_screens.into()).await?;
        Ok(format!("{}/{}/{file}", render.id, variation.id))
    }

    /// A photo's bytes: this server's own upload from the store, anything else as results are fetched (never
    /// from this machine or a private network).
    async fn read_photo(&self, address: &str) -> Result<Bytes, ServerError> {
        let own_uploads = format!("{}/api/uploads/", self.proxy.state.public_url.trim_end_matches('/'));
        match address.strip_prefix(&own_uploads) {
            Some(name) => self.uploads.read(name).await,
            None => self.fetcher.fetch(address).await.map_err(|_| {
                ServerError::BadGateway(format!("The original photo could not be read from {address}; try again."))
            }),
        }
    }

    /// The kept photo with the statement drawn into it in `lang`, kept beside it (once per language).
    async fn keep_labelled(
        &self,
        subject: &Subject,
        photo: &str,
        variation: &Variation,
        facts: &Facts,
        index: u32,
        lang: &'static str,
    ) -> Result<String, ServerError> {
        let kept = &self.disclosures.kept;
        let role = format!("labelled-{lang}");
        if let Some(file) = kept.kept_file(&variation.render_id, &variation.id, index, &role).await? {
            return Ok(file);
        }
        let text = facts.short_statement(words(lang));
        let bytes = kept.read_file(photo).await?;
        let kind = variation.kind.clone();
        let labelled = tokio::task::spawn_blocking(move || label(&bytes, text, kind.as_ref()))
            .await
            .map_err(|e| ServerError::Internal(format!("drawing a label stopped: {e}")))??;
        let file = format!("{index}-{role}.jpg");
        let record = kept_file(subject, &variation.render_id, &variation.id, index, &role, &file, labelled.len());
        kept.add_file(subject.as_str(), record, labelled).await?;
        Ok(format!("{}/{}/{file}", variation.render_id, variation.id))
    }
}

/// The variation asked for, finished, with the image asked for.
fn finished<'a>(variations: &'a [Variation], request: &DiscloseRequest) -> Result<&'a Variation, ServerError> {
    let variation = variations.iter().find(|variation| variation.id == request.variation_id).ok_or_else(|| {
        ServerError::NotFound(format!("The render has no variation {}; check its id.", request.variation_id))
    })?;
    if variation.status != VariationStatus::Done {
        return Err(not_finished());
    }
    let images = variation.result.as_ref().map_or(0, |result| result.images().len());
    if request.image_index as usize >= images {
        return Err(ServerError::BadRequest(format!(
            "image_index: the result has {images} image(s); give a number from 0 to {}.",
            images.saturating_sub(1)
        )));
    }
    Ok(variation)
}

fn not_finished() -> ServerError {
    ServerError::Conflict("This variation is not finished yet; choose it once it is done.".into())
}

/// Whether the service drew its own "virtually staged" watermark into the result.
fn service_watermarked(variation: &Variation) -> bool {
    matches!(&variation.config, Some(Config::Staging(staging)) if staging.add_virtually_staged_watermark == Some(true))
}

fn kept_file(
    subject: &Subject,
    render_id: &str,
    variation_id: &str,
    index: u32,
    role: &str,
    file: &str,
    bytes: usize,
) -> KeptFile {
    KeptFile {
        render_id: render_id.into(),
        variation_id: variation_id.into(),
        file: file.into(),
        image_index: index,
        role: role.into(),
        subject: subject.as_str().into(),
        bytes: bytes as u64,
        kept_at: now_millis(),
        removed: false,
    }
}

/// `photo` with `text` drawn in its lower right corner, as a JPEG with its provenance.
fn label(photo: &[u8], text: &str, kind: Option<&vstage_api::vocabulary::VariationType>) -> Result<Bytes, ServerError> {
    let mut image = vstage_sandbox::imaging::decode(photo)
        .map_err(|e| ServerError::Internal(format!("the kept photo could not be decoded: {e}")))?;
    vstage_sandbox::imaging::watermark::label(&mut image, text);
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90)
        .encode_image(&image)
        .map_err(|e| ServerError::Internal(format!("the labelled photo could not be encoded: {e}")))?;
    provenance::mark(jpeg.into(), kind).map_err(ServerError::Internal)
}
