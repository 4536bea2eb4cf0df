//! The workers: each takes the oldest queued variation whose base (if any) is finished, processes it for real,
//! stores its three images, and marks it done or failed. Work left `processing` by a crash is queued again at start.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::AbortHandle;

use image::GrayImage;
use rusqlite::{Connection, OptionalExtension, params};
use vstage_api::time::now_millis;
use vstage_api::webhook::{VariationDone, VariationFailed};
use vstage_api::{Config, ResultImage, Timestamp, VariationResult, VariationType, WebhookEvent};

use crate::SandboxState;
use crate::error::SandboxError;
use crate::source::{self, Kind};
use crate::webhooks;
use vstage_imaging::{self as imaging, Operation};

/// A variation taken for processing.
struct Job {
    variation_id: String,
    config: Option<Config>,
    /// The photo to start from: the render's, or the base removal variation's result.
    source_url: Option<String>,
    /// A multi-view render's photos, each staged the same way (the seed is the variation's); none otherwise.
    views: Vec<String>,
    /// Why the job cannot run, decided when it was taken (e.g. its base failed).
    refused: Option<String>,
    /// v1's `resolution` of the render, for its `legacy_staging` variations.
    v1_resolution: Option<vstage_api::OutputResolution>,
}

/// A variation taken by a worker that stopped is queued again (`processing` is what earlier versions wrote).
const RESUME: &str = "UPDATE variations SET status = 'queued' WHERE status IN ('rendering', 'processing')";

/// Starts `count` workers on the runtime; they stop when the returned handles are aborted.
pub fn start(state: &Arc<SandboxState>, count: usize) -> Result<Vec<AbortHandle>, SandboxError> {
    state.store.run_now(|db| Ok(db.execute(RESUME, [])?))?;
    let mut handles = Vec::new();
    for _ in 0..count.max(1) {
        let state = state.clone();
        let task = tokio::spawn(async move {
            loop {
                match take(&state).await {
                    Ok(Some(job)) => finish(&state, job).await,
                    Ok(None) => {
                        // woken by new work, or checking again after a while
                        let _ = tokio::time::timeout(Duration::from_millis(500), state.work_added.notified()).await;
                    }
                    Err(error) => {
                        tracing::error!(%error, "a worker could not take work");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        });
        handles.push(task.abort_handle());
    }
    Ok(handles)
}

/// Marks the next ready variation `rendering` (as the service says it, docs/api-notes.md) and describes it; the
/// work of a held account (`/sandbox/hold`) waits.
async fn take(state: &Arc<SandboxState>) -> Result<Option<Job>, SandboxError> {
    let held = state.held.as_json();
    state
        .store
        .run(move |db| {
            // The oldest queued variation whose base, if it has one, is final.
            let taken: Option<(String, String, String, Option<String>)> = db
                .prepare_cached(
                    "UPDATE variations SET status = 'rendering'
                     WHERE seq = (
                         SELECT v.seq FROM variations v
                         WHERE v.status = 'queued'
                           AND NOT EXISTS (
                               SELECT 1 FROM renders r, json_each(?1) h
                               WHERE r.id = v.render_id AND r.account_uid = h.value)
                           AND (v.base_variation_id IS NULL OR EXISTS (
                               SELECT 1 FROM variations b
                               WHERE b.id = v.base_variation_id AND b.status IN ('done', 'error')))
                         ORDER BY v.seq LIMIT 1)
                     RETURNING id, render_id, config, base_variation_id",
                )?
                .query_row([&held], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
                .optional()?;
            let Some((variation_id, render_id, config, base)) = taken else { return Ok(None) };
            let config = serde_json::from_str(&config).ok();
            let (render_image, v1_settings, views): (String, Option<String>, Option<String>) = db
                .prepare_cached("SELECT image_url, v1_settings, image_urls FROM renders WHERE id = ?1")?
                .query_row([&render_id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?;
            let views = crate::renders::stored_views(views);
            let v1_resolution = v1_settings
                .and_then(|settings| serde_json::from_str::<vstage_api::v1::CreateRender>(&settings).ok())
                .and_then(|settings| crate::v1::resolution(&settings));
            let (source_url, refused) = match base {
                None => (Some(render_image), None),
                Some(base) => {
                    let (status, result): (String, Option<String>) = db
                        .prepare_cached("SELECT status, result FROM variations WHERE id = ?1")?
                        .query_row([&base], |row| Ok((row.get(0)?, row.get(1)?)))?;
                    let base_url = result
                        .and_then(|r| serde_json::from_str::<VariationResult>(&r).ok())
                        .and_then(|r| r.primary().map(|image| image.url.clone()));
                    match (status.as_str(), base_url) {
                        ("done", Some(url)) => (Some(url), None),
                        _ => {
                            let why = format!(
                                "Its base removal variation {base} failed, so there is no empty room to stage."
                            );
                            (None, Some(why))
                        }
                    }
                }
            };
            Ok(Some(Job { variation_id, config, source_url, views, refused, v1_resolution }))
        })
        .await
}

/// Processes a job, taking at least the configured time, and records the outcome.
async fn finish(state: &Arc<SandboxState>, job: Job) {
    let started = Instant::now();
    let outcome = match &job.refused {
        Some(reason) => Err(reason.clone()),
        None => produce(state, &job).await,
    };
    let pace = Duration::from_millis(state.pace.processing_ms);
    if let Some(rest) = pace.checked_sub(started.elapsed()) {
        tokio::time::sleep(rest).await;
    }
    let id = job.variation_id.clone();
    let recorded = state.store.run(move |db| record(db, &id, outcome)).await;
    if let Err(error) = recorded {
        tracing::error!(%error, variation = job.variation_id, "could not record a finished variation");
    }
    state.work_added.notify_waiters();
    state.deliveries_added.notify_waiters();
}

/// Stores the outcome and queues the webhook for it, in one transaction.
fn record(db: &mut Connection, id: &str, outcome: Result<VariationResult, String>) -> Result<(), SandboxError> {
    let tx = db.transaction()?;
    let (render_id, kind, base): (String, String, Option<String>) = tx
        .prepare_cached("SELECT render_id, kind, base_variation_id FROM variations WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    let (account_uid, webhook_url): (String, Option<String>) = tx
        .prepare_cached("SELECT account_uid, webhook_url FROM renders WHERE id = ?1")?
        .query_row([&render_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let timestamp = Timestamp::from_millis(now_millis());
    let variation_type = Some(VariationType::from(kind.as_str()));
    let event = match outcome {
        Ok(result) => {
            let stored = serde_json::to_string(&result).map_err(|e| SandboxError::Internal(e.to_string()))?;
            tx.prepare_cached("UPDATE variations SET status = 'done', result = ?1 WHERE id = ?2")?
                .execute(params![stored, id])?;
            WebhookEvent::Done(VariationDone {
                render_id,
                variation_id: id.to_string(),
                variation_type,
                base_variation_id: base,
                timestamp,
                result,
            })
        }
        Err(message) => {
            tx.prepare_cached("UPDATE variations SET status = 'error', error_message = ?1 WHERE id = ?2")?
                .execute(params![message, id])?;
            WebhookEvent::Error(VariationFailed {
                render_id,
                variation_id: id.to_string(),
                variation_type,
                timestamp,
                error_message: Some(message),
            })
        }
    };
    if let Some(url) = webhook_url {
        webhooks::enqueue(&tx, &account_uid, &url, &event)?;
    }
    tx.commit()?;
    Ok(())
}

/// The result images of a job, or why there are none (a sentence for the person).
async fn produce(state: &Arc<SandboxState>, job: &Job) -> Result<VariationResult, String> {
    let source_url = job.source_url.as_deref().ok_or("The variation has no photo to start from.")?;
    if job.views.is_empty() {
        return Ok(VariationResult::One(produce_image(state, job, source_url, &stem(job)).await?));
    }
    // multi-view: every photo staged with the same seed, so the furniture stands alike in each view
    let mut images = Vec::new();
    for (index, view) in job.views.iter().enumerate() {
        images.push(produce_image(state, job, view, &format!("{}-view{}", job.variation_id, index + 1)).await?);
    }
    Ok(VariationResult::Many(images))
}

/// The name a variation's images start with: its id, and for a removal `_furniture_removed` after it, as the
/// service names its decluttered outputs (`{id}_furniture_removed_[0].png` beside `{id}-u1_0.png`: sportolopez/myhouseai,
/// error-php.log), which clients tell apart by that word in the URL (its src/Controller/DefaultController.php).
fn stem(job: &Job) -> String {
    match job.config {
        Some(Config::RemovalOnly(_)) => format!("{}_furniture_removed", job.variation_id),
        _ => job.variation_id.clone(),
    }
}

/// The result of the job's config on the photo at `source_url`, kept as `{stem}.jpg` with its optimized copy and
/// thumbnail.
async fn produce_image(
    state: &Arc<SandboxState>,
    job: &Job,
    source_url: &str,
    stem: &str,
) -> Result<ResultImage, String> {
    if source_url.contains("sandbox-fail") {
        return Err("The sandbox failed this photo on purpose: its address contains `sandbox-fail`.".into());
    }
    let config = job.config.clone().ok_or("The variation's configuration is not one the sandbox knows.")?;
    let source = state.fetcher.fetch(Kind::Image, source_url).await?;
    let mask = match mask_url(&config) {
        Some(url) => Some(Given { bytes: state.fetcher.fetch(Kind::Mask, &url).await?, url }),
        None => None,
    };
    let v1_resolution = job.v1_resolution.clone();
    let seed = job
        .variation_id
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3));
    let (outputs, mask) = tokio::task::spawn_blocking(move || process(&source, mask, &config, seed, v1_resolution))
        .await
        .map_err(|e| format!("Processing stopped unexpectedly ({e})."))??;
    // kept as the grey levels it was read as, so what a removal used can be checked afterwards (docs/api-notes.md)
    // and nothing else of the file given (its metadata) is ever served under `/files`
    if let Some(mask) = mask {
        state.files.write(&format!("{}-mask.png", job.variation_id), &mask).map_err(|e| e.to_string())?;
    }
    let name = |suffix: &str| format!("{stem}{suffix}.jpg");
    for (suffix, bytes) in [("", &outputs.full), ("-optimized", &outputs.optimized), ("-thumbnail", &outputs.thumbnail)]
    {
        state.files.write(&name(suffix), bytes).map_err(|e| e.to_string())?;
    }
    let url = |suffix: &str| format!("{}/files/{}", state.base_url, name(suffix));
    Ok(ResultImage { url: url(""), optimized_url: Some(url("-optimized")), thumbnail_url: Some(url("-thumbnail")) })
}

/// A mask as fetched, and where from.
struct Given {
    bytes: Vec<u8>,
    url: String,
}

/// The result images of `source` under `config`, and the mask as a PNG of the grey levels it was read as.
fn process(
    source: &[u8],
    mask: Option<Given>,
    config: &Config,
    seed: u64,
    v1_resolution: Option<vstage_api::OutputResolution>,
) -> Result<(imaging::Outputs, Option<Vec<u8>>), String> {
    let photo = imaging::decode(source)?;
    let (mask, kept) = match mask {
        Some(Given { bytes, url }) => {
            // decoded with the same limits as a photo, then taken as grey levels
            let image = imaging::decode(&bytes)
                .map_err(|e| format!("{} cannot be used as a mask. {e}", source::named(Kind::Mask, &url)))?;
            let grey = image::DynamicImage::ImageRgb8(image).into_luma8();
            let mut png = Vec::new();
            grey.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
                .map_err(|e| format!("The mask could not be kept ({e})."))?;
            (Some(grey), Some(png))
        }
        None => (None, None),
    };
    let (operation, resolution) = operation(config, mask, seed, v1_resolution)?;
    let disclaimer = match config {
        Config::Staging(staging) => staging.add_virtually_staged_watermark == Some(true),
        Config::RemovalOnly(removal) => removal.add_virtually_staged_watermark == Some(true),
        _ => false,
    };
    Ok((imaging::encode(&imaging::apply(&photo, &operation, disclaimer), resolution.as_ref())?, kept))
}

/// The mask a removal variation was given (`remove_furniture.mask_url`).
fn mask_url(config: &Config) -> Option<String> {
    match config {
        // a staging variation stages its base's empty room; the mask was used by that removal variation
        Config::RemovalOnly(removal) => removal.remove_furniture.mask_url.clone(),
        _ => None,
    }
}

/// The image operation a config asks for, and its output resolution.
fn operation(
    config: &Config,
    mask: Option<GrayImage>,
    seed: u64,
    v1_resolution: Option<vstage_api::OutputResolution>,
) -> Result<(Operation, Option<vstage_api::OutputResolution>), String> {
    Ok(match config {
        Config::Staging(staging) => (
            Operation::Stage {
                room_type: staging.add_furniture.room_type.clone(),
                style: staging.add_furniture.style.clone(),
                seed,
            },
            staging.output_resolution.clone(),
        ),
        Config::RemovalOnly(removal) => (Operation::Remove { mask }, removal.output_resolution.clone()),
        Config::DayToDusk(dusk) => (Operation::Dusk { sky: dusk.sky_style.clone() }, dusk.output_resolution.clone()),
        Config::Enhancement(enhancement) => (Operation::Enhance, enhancement.output_resolution.clone()),
        Config::LegacyStaging(legacy) => {
            (Operation::Stage { room_type: legacy.room_type.clone(), style: legacy.style.clone(), seed }, v1_resolution)
        }
        Config::Other(_) => return Err("The variation's configuration is not one the sandbox knows.".into()),
    })
}
