//! Recording a chosen result: the variation (or a v1 render's output) read from the service through the proxy, its
//! copy kept now if it was not yet, the original photo kept beside it, a labelled copy drawn where the profile asks
//! for a watermark, then the record.

use std::sync::Arc;

use axum::body::Bytes;
use vstage_api::config::Config;
use vstage_api::disclosure::{DiscloseRequest, Disclosure, v1_output_id, v1_output_index};
use vstage_api::render::Variation;
use vstage_api::time::now_millis;
use vstage_api::vocabulary::{RoomType, VariationStatus, VariationType};

use super::Disclosures;
use super::profiles::{Rules, rules};
use super::statement::Facts;
use super::words::words;
use crate::access::Subject;
use crate::error::ServerError;
use crate::proxy::Proxy;
use crate::proxy::reading::ReadRender;
use crate::results::credentials::media_type;
use crate::results::fetch::{ResultFetcher, extension};
use crate::results::kept::Original;
use crate::storage::store::{CapReached, DisclosureRecord, KeptFile, Kind, RecordsCap, choice_of};

/// What recording needs besides the shared part: this worker's proxy and fetcher.
pub struct Recorder {
    pub disclosures: Arc<Disclosures>,
    pub proxy: Arc<Proxy>,
    pub fetcher: ResultFetcher,
}

/// The span `--max-disclosures-a-day` counts over.
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The kept files' roles for the original photo and its copy for screens (at most 1280 pixels, as a result's
/// `optimized_url`); a labelled copy is `labelled-de` (in a language) or `labelled-rmls` (in a rule's words).
pub const ORIGINAL: &str = "original";
pub const ORIGINAL_FOR_SCREENS: &str = "original_optimized";

/// The result a request names, kept: where it is, what was done, and the file the listing shows.
struct Chosen {
    render_id: String,
    variation_id: String,
    index: u32,
    facts: Facts,
    /// The kept image (`render/variation/file`).
    photo: String,
    /// The photo the chosen image was made from: the render's, as the service names it (for a multi-view render's
    /// later images, which the service does not name, the view its creation named through this server).
    photographed: Option<String>,
    /// Whether the service drew its own "virtually staged" watermark into the result.
    service_watermarked: bool,
    /// Whether it is a staging of the outside (the `outdoor` room type).
    staged_outdoors: bool,
}

impl Recorder {
    /// Records the choice `request` makes for `subject`, once: the same choice again answers with its record.
    pub async fn record(&self, subject: &Subject, request: DiscloseRequest) -> Result<Disclosure, ServerError> {
        for (field, id) in [("render_id", &request.render_id), ("variation_id", &request.variation_id)] {
            vstage_api::validate::id(field, id).map_err(|e| ServerError::BadRequest(e.to_string()))?;
        }
        let profile = request.profile.unwrap_or(self.disclosures.default_profile);
        let lang = words(request.lang.as_deref().unwrap_or("en")).lang;
        let v1_output = v1_output_index(&request.variation_id);
        let variation_id = v1_output.map_or_else(|| request.variation_id.clone(), v1_output_id);
        // a v1 output is one image, recorded at index 0, whatever index the request named
        let image_index = if v1_output.is_some() { 0 } else { request.image_index };
        let choice =
            choice_of(subject.as_str(), &request.render_id, &variation_id, image_index, profile.as_str(), lang);
        let store = &self.disclosures.store;
        if let Some(recorded) = store.disclosure_of_choice(&choice).await? {
            return Ok(self.disclosures.shown(&recorded));
        }
        self.check_daily_cap(subject).await?;
        let chosen = match v1_output {
            Some(output) => self.v1_output(subject, &request.render_id, output).await?,
            None => self.variation(subject, &request).await?,
        };
        let rules = rules(profile);
        if chosen.staged_outdoors && !profile.allows_staged_exteriors() {
            return Err(exterior_staged(&rules));
        }
        let original = self.keep_original(subject, &chosen, request.original_url.as_deref()).await?;
        let labelled = rules.watermark && !chosen.service_watermarked;
        let photo = match labelled {
            true => self.keep_labelled(subject, &chosen, Label::under(&rules, &chosen.facts, lang)).await?,
            false => chosen.photo.clone(),
        };
        // A labelled photo's copies carry no label: the listing shows the photo alone.
        let (optimized_file, thumbnail_file) = match labelled {
            true => (None, None),
            false => self.kept_copies(&chosen).await?,
        };
        let reference = self.disclosures.store.reference_of(&chosen.render_id).await?;
        let record = DisclosureRecord {
            id: crate::secret::random("dsc_")
                .map(|id| id[..28].to_string())
                .map_err(|e| ServerError::Internal(e.to_string()))?,
            subject: subject.as_str().to_string(),
            created_at: now_millis(),
            variation_type: chosen.facts.kind.as_ref().map(|kind| kind.as_str().to_string()).unwrap_or_default(),
            style: chosen.facts.style.clone().unwrap_or_default(),
            furniture_removed: chosen.facts.furniture_removed,
            render_id: chosen.render_id,
            variation_id: chosen.variation_id,
            image_index: chosen.index,
            profile: profile.as_str().to_string(),
            lang: lang.to_string(),
            photo_file: photo,
            original_file: original,
            optimized_file,
            thumbnail_file,
            replaces: chosen.photographed.clone().or(request.original_url.clone()),
            reference,
        };
        // Two servers recording the same choice at once keep the first record, and report that one alone.
        let reported = match &self.disclosures.host_webhooks {
            Some(hooks) => hooks.result_chosen(&self.disclosures.shown(&record), record.created_at),
            None => Vec::new(),
        };
        // The cap is counted again with the record, in its transaction: choices made at once cannot all pass.
        let cap = RecordsCap { most: self.disclosures.max_a_day, since: record.created_at - DAY_MS };
        let recorded = match store.record_disclosure(&record, &reported, Some(cap)).await? {
            Ok(recorded) => recorded,
            Err(CapReached { oldest, .. }) => return Err(self.daily_cap_reached(oldest, record.created_at)),
        };
        if let Some(hooks) = &self.disclosures.host_webhooks {
            hooks.wake();
        }
        Ok(self.disclosures.shown(&recorded))
    }

    /// The kept copies of the chosen image for screens and for lists, when the service made them.
    async fn kept_copies(&self, chosen: &Chosen) -> Result<(Option<String>, Option<String>), ServerError> {
        let kept = &self.disclosures.kept;
        let (render_id, variation_id, index) = (chosen.render_id.as_str(), chosen.variation_id.as_str(), chosen.index);
        let optimized = kept.kept_file(render_id, variation_id, index, "optimized_url").await?;
        let thumbnail = kept.kept_file(render_id, variation_id, index, "thumbnail_url").await?;
        Ok((optimized, thumbnail))
    }

    /// A subject makes at most `--max-disclosures-a-day` new records in any 24 hours; beyond, 429 until the oldest
    /// of them is a day old. Asked before the work of a choice, so that a subject at its cap is refused at once;
    /// `record_disclosure` counts again as it records.
    async fn check_daily_cap(&self, subject: &Subject) -> Result<(), ServerError> {
        let now = now_millis();
        let (made, oldest) = self.disclosures.store.disclosures_since(subject.as_str(), now - DAY_MS).await?;
        match made < self.disclosures.max_a_day {
            true => Ok(()),
            false => Err(self.daily_cap_reached(oldest, now)),
        }
    }

    /// The refusal of one more record `now`, the oldest of the day's made at `oldest`.
    fn daily_cap_reached(&self, oldest: Option<i64>, now: i64) -> ServerError {
        let most = self.disclosures.max_a_day;
        let wait_ms = oldest.map_or(DAY_MS, |oldest| oldest + DAY_MS - now).clamp(1000, DAY_MS);
        let retry_after_s = (wait_ms as u64).div_ceil(1000);
        ServerError::LimitReached {
            message: format!(
                "{most} results were chosen for listings in the last 24 hours, the most one agent may; \
                 choosing again is possible in {} minutes (a result already chosen can be chosen again at once).",
                retry_after_s.div_ceil(60)
            ),
            retry_after_s,
        }
    }

    /// A finished v2 variation's image, read through the proxy and kept now if it was not yet.
    async fn variation(&self, subject: &Subject, request: &DiscloseRequest) -> Result<Chosen, ServerError> {
        let render_id = request.render_id.as_str();
        if subject.by_token() {
            self.proxy.require_owner(Kind::Render, vec![render_id.to_string()], subject).await?;
        }
        let missing = || ServerError::NotFound(format!("No render {render_id}; check the address."));
        let (render, variations) = self.proxy.read_whole_render(subject, render_id).await?.ok_or_else(missing)?;
        let variation = finished(&variations, request)?;
        let result = variation.result.as_ref().ok_or_else(not_finished)?;
        let kept = &self.disclosures.kept;
        kept.keep_now(subject.as_str(), render_id, &variation.id, variation.kind.as_ref(), result).await?;
        let index = request.image_index;
        let photo = kept.kept_file(render_id, &variation.id, index, "url").await?.ok_or_else(not_kept)?;
        let photographed = match index {
            0 => render.image_url,
            view => self.disclosures.store.photo_of(render_id, view).await?,
        };
        Ok(Chosen {
            render_id: render_id.to_string(),
            variation_id: variation.id.clone(),
            index,
            facts: Facts::of(variation),
            photo,
            photographed,
            service_watermarked: service_watermarked(variation),
            staged_outdoors: staged_outdoors(variation.config.as_ref()),
        })
    }

    /// Output `output` of a v1 render (v1 results have no ids: the event names it `v1-output-{n}`), kept now with
    /// its provenance if it was not yet.
    async fn v1_output(&self, subject: &Subject, render_id: &str, output: u32) -> Result<Chosen, ServerError> {
        if subject.by_token() {
            self.proxy.require_owner(Kind::V1Render, vec![render_id.to_string()], subject).await?;
        }
        let missing = || ServerError::NotFound(format!("No v1 render {render_id}; check the address."));
        let ReadRender { render, .. } = self.proxy.read_v1_render(render_id).await?.ok_or_else(missing)?;
        let at = output as usize;
        let url = render.outputs.get(at).ok_or_else(|| {
            ServerError::BadRequest(format!(
                "The v1 render has {} output(s); choose one of them.",
                render.outputs.len()
            ))
        })?;
        // the service names a decluttered output `..._furniture_removed_...` and lists it with the render's style
        // (docs/api-notes.md, "v1"); an output without a style is decluttered too
        let decluttered = url.contains("furniture_removed");
        let style = render.outputs_styles.get(at).filter(|style| !style.is_empty() && !decluttered).cloned();
        let kind = if style.is_some() { VariationType::Staging } else { VariationType::Removal };
        let room_type = render.outputs_room_types.get(at).map(|room| RoomType::from(room.trim()));
        let staged_outdoors = style.is_some() && room_type == Some(RoomType::Outdoor);
        let facts = Facts { furniture_removed: style.is_none(), style, kind: Some(kind.clone()) };
        let variation_id = v1_output_id(output);
        let kept = &self.disclosures.kept;
        let photo = match kept.kept_file(render_id, &variation_id, 0, "url").await? {
            Some(photo) => photo,
            None => {
                let fetched = self.fetcher.fetch(url).await?;
                let file = format!("0-url.{}", extension(url));
                let marked = kept.marked(fetched, Some(&kind), &file, None).await?;
                let record = kept_file(subject, render_id, &variation_id, 0, "url", &file, marked.len());
                kept.add_file(subject.as_str(), record, marked).await?;
                format!("{render_id}/{variation_id}/{file}")
            }
        };
        Ok(Chosen {
            render_id: render_id.to_string(),
            variation_id,
            index: 0,
            facts,
            photo,
            photographed: render.image_url,
            service_watermarked: false,
            staged_outdoors,
        })
    }

    /// The original photo kept with the variation's chosen image (once per image: a multi-view render's images
    /// have a photo each), stripped of its own metadata.
    async fn keep_original(
        &self,
        subject: &Subject,
        chosen: &Chosen,
        named: Option<&str>,
    ) -> Result<String, ServerError> {
        let (render_id, variation_id, index) = (chosen.render_id.as_str(), chosen.variation_id.as_str(), chosen.index);
        let kept = &self.disclosures.kept;
        if let Some(file) = kept.kept_file(render_id, variation_id, index, ORIGINAL).await? {
            return Ok(file);
        }
        // The service's word first; the widget's only for a service that does not say.
        let address = chosen.photographed.as_deref().or(named).ok_or_else(|| {
            ServerError::BadRequest(
                "The service does not say which photo this render was made from: send its address as original_url."
                    .into(),
            )
        })?;
        let original = kept.original_at(address).await?;
        let extension = original.format.trim_start_matches("image/").replace("jpeg", "jpg");
        // The first image's names are those of a render of one photo.
        let prefix = if index == 0 { String::new() } else { format!("{index}-") };
        let (file, cleaned) = (format!("{prefix}{ORIGINAL}.{extension}"), original.bytes);
        let decoding = cleaned.clone();
        let turn = self.disclosures.decoding.acquire().await.map_err(|e| ServerError::Internal(e.to_string()))?;
        let for_screens = tokio::task::spawn_blocking(move || {
            let photo = vstage_imaging::decode(&decoding)?;
            vstage_imaging::optimized_copy(&photo, usize::MAX)
        })
        .await
        .map_err(|e| ServerError::Internal(format!("making the original's copy for screens stopped: {e}")))?
        .map_err(ServerError::BadRequest)?;
        // Given back before the copies are kept: keeping waits for the subject's other copies.
        drop(turn);
        let record = kept_file(subject, render_id, variation_id, index, ORIGINAL, &file, cleaned.len());
        kept.add_file(subject.as_str(), record, cleaned).await?;
        let screens = format!("{prefix}original-1280.jpg");
        let (role, size) = (ORIGINAL_FOR_SCREENS, for_screens.len());
        let record = kept_file(subject, render_id, variation_id, index, role, &screens, size);
        kept.add_file(subject.as_str(), record, for_screens.into()).await?;
        Ok(format!("{render_id}/{variation_id}/{file}"))
    }

    /// The kept photo with `label` drawn into it, kept beside it (once per label).
    async fn keep_labelled(&self, subject: &Subject, chosen: &Chosen, label: Label) -> Result<String, ServerError> {
        let (render_id, variation_id, index) = (chosen.render_id.as_str(), chosen.variation_id.as_str(), chosen.index);
        let kept = &self.disclosures.kept;
        let role = format!("labelled-{}", label.key);
        if let Some(file) = kept.kept_file(render_id, variation_id, index, &role).await? {
            return Ok(file);
        }
        let text = label.text;
        let photo = kept.read_file(&chosen.photo).await?;
        let drawn_on = photo.clone();
        let turn = self.disclosures.decoding.acquire().await.map_err(|e| ServerError::Internal(e.to_string()))?;
        let labelled = tokio::task::spawn_blocking(move || labelled_jpeg(&drawn_on, text))
            .await
            .map_err(|e| ServerError::Internal(format!("drawing a label stopped: {e}")))??;
        drop(turn);
        let file = format!("{index}-{role}.jpg");
        // Its credentials name the kept photo it was drawn on (whose own name the original) as its parent.
        let parent = media_type(&photo).map(|format| Original { format, bytes: photo });
        let labelled = kept.marked(labelled, chosen.facts.kind.as_ref(), &file, parent.as_ref()).await?;
        let record = kept_file(subject, render_id, variation_id, index, &role, &file, labelled.len());
        kept.add_file(subject.as_str(), record, labelled).await?;
        Ok(format!("{render_id}/{variation_id}/{file}"))
    }
}

/// The words drawn into a labelled copy, and what names its copy: the listing's language (`labelled-de`), or the
/// profile whose rule prescribes the words whatever the language (`labelled-rmls`).
struct Label {
    text: &'static str,
    key: &'static str,
}

impl Label {
    fn under(rules: &Rules, facts: &Facts, lang: &'static str) -> Label {
        let words = words(lang);
        let text = facts.label(rules, words);
        let key = if text == facts.short_statement(words) { lang } else { rules.profile.as_str() };
        Label { text, key }
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

fn not_kept() -> ServerError {
    ServerError::Conflict(
        "This result is not kept on this server (it was removed, or the quota is full), so it cannot be disclosed \
         with a lasting link; choose another result or free some space."
            .into(),
    )
}

fn not_finished() -> ServerError {
    ServerError::Conflict("This variation is not finished yet; choose it once it is done.".into())
}

/// Whether a v2 variation's config stages the outside.
fn staged_outdoors(config: Option<&Config>) -> bool {
    let room_type = match config {
        Some(Config::Staging(staging)) => &staging.add_furniture.room_type,
        Some(Config::LegacyStaging(legacy)) => &legacy.room_type,
        _ => return false,
    };
    *room_type == RoomType::Outdoor
}

/// A staging of the outside chosen under a rule that forbids it: refused with no record, before the original or a labelled copy is kept.
fn exterior_staged(rules: &Rules) -> ServerError {
    let rule = rules.source.map_or_else(String::new, |source| format!(" ({})", source.citation));
    ServerError::AgainstRules(format!(
        "This result virtually stages the outside of the property, which the listing's rules{rule} do not allow: \
         choose a result of an interior room, or set the listing's disclosure rules if these are not its rules."
    ))
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

/// `photo` with `text` drawn in its lower right corner, as a JPEG.
fn labelled_jpeg(photo: &[u8], text: &str) -> Result<Bytes, ServerError> {
    let mut image = vstage_imaging::decode(photo)
        .map_err(|e| ServerError::Internal(format!("the kept photo could not be decoded: {e}")))?;
    vstage_imaging::watermark::label(&mut image, text);
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90)
        .encode_image(&image)
        .map_err(|e| ServerError::Internal(format!("the labelled photo could not be encoded: {e}")))?;
    Ok(jpeg.into())
}
