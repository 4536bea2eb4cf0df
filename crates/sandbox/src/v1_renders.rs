//! Legacy v1 renders in the store: created with their settings under the account's in-progress limit, read as the
//! appendix's v1 render object, varied while done, and their finished outputs. The v1 routes hold no SQL.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use vstage_api::{Config, RoomType, Style, Variation, VariationStatus, VariationType, v1};

use crate::accounts::{self, Account};
use crate::error::SandboxError;
use crate::renders::{self, NewRender, Pace, Planned};

/// Renders of one account in progress at once (service-api.md part 8).
pub const MAX_RENDERS_IN_PROGRESS: i64 = 50;

/// Records render `id` made by `POST /v1/render/create` with `settings` and its `planned` variations, unless the
/// account already has the most renders in progress.
pub fn create(
    db: &mut Connection,
    account: &Account,
    id: &str,
    settings: &v1::CreateRender,
    planned: &[Planned],
    pace: Pace,
) -> Result<(), SandboxError> {
    let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let in_progress: i64 = tx
        .prepare_cached(
            "SELECT COUNT(DISTINCT r.id)
             FROM renders r JOIN variations v ON v.render_id = r.id
             WHERE r.account_uid = ?1 AND v.status NOT IN ('done', 'error')",
        )?
        .query_row([&account.uid], |row| row.get(0))?;
    if in_progress >= MAX_RENDERS_IN_PROGRESS {
        return Err(SandboxError::TooManyRequests(format!(
            "{in_progress} renders of this account are in progress, the most allowed at once; wait for some to \
             finish and try again."
        )));
    }
    let stored = serde_json::to_string(settings).map_err(|e| SandboxError::Internal(e.to_string()))?;
    let image_url = settings.image_url.as_deref().unwrap_or_default();
    renders::insert_render_row(
        &tx,
        account,
        &NewRender { id, image_url, webhook_url: None, v1_settings: Some(&stored) },
    )?;
    accounts::charge(&tx, account, vstage_api::usage::V1_RENDER)?;
    renders::insert_variations(&tx, id, 0, planned, pace)?;
    tx.commit()?;
    Ok(())
}

/// The appendix's v1 render object, from the render and its variations.
pub fn read(db: &Connection, account: &Account, render_id: &str) -> Result<v1::Render, SandboxError> {
    let seq = renders::render_seq(db, account, render_id)?;
    let (created_at, queued_flag, image_url, settings): (i64, bool, Option<String>, Option<String>) = db
        .prepare_cached("SELECT created_at, v1_queued, image_url, v1_settings FROM renders WHERE seq = ?1")?
        .query_row([seq], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?;
    let settings: Option<v1::CreateRender> = settings.and_then(|s| serde_json::from_str(&s).ok());
    let variations: Vec<Variation> = db
        .prepare_cached(&format!(
            "SELECT {} FROM variations WHERE render_id = ?1 ORDER BY seq",
            renders::VARIATION_COLUMNS
        ))?
        .query_map([render_id], renders::variation_from_row)?
        .collect::<Result<_, _>>()?;
    let pending = variations.iter().any(|v| !v.status.is_final());
    let rendering = variations.iter().any(|v| v.status == VariationStatus::Rendering);
    let status = if pending && queued_flag && !rendering {
        v1::Status::Queued
    } else if pending {
        v1::Status::Rendering
    } else if !variations.is_empty() && variations.iter().all(|v| v.status == VariationStatus::Error) {
        v1::Status::Error
    } else {
        v1::Status::Done
    };
    let mut render = v1::Render {
        render_id: render_id.to_string(),
        status,
        created_at: Some(vstage_api::Timestamp::from_millis(created_at)),
        outputs: Vec::new(),
        progress: Some(
            variations.iter().filter(|v| v.status.is_final()).count() as f64 / variations.len().max(1) as f64,
        ),
        outputs_room_types: Vec::new(),
        outputs_styles: Vec::new(),
        image_url: image_url.filter(|url| !url.is_empty()),
    };
    for variation in variations.iter().filter(|v| v.status == VariationStatus::Done) {
        let Some(image) = variation.result.as_ref().and_then(|r| r.primary()) else { continue };
        render.outputs.push(image.url.clone());
        // a decluttered output is listed with the render's room type and style, as the service lists it
        // (sportolopez/myhouseai, error-php.log: `"outputs_styles":["scandinavian","scandinavian"]` beside a
        // `_furniture_removed` output); without them (declutter only), empty
        let (room_type, style) = match (&variation.config, &settings) {
            (Some(Config::LegacyStaging(c)), _) => (c.room_type.to_string(), c.style.to_string()),
            (_, Some(first)) => (
                first.room_type.as_ref().map(ToString::to_string).unwrap_or_default(),
                first.style.as_ref().map(ToString::to_string).unwrap_or_default(),
            ),
            _ => (String::new(), String::new()),
        };
        render.outputs_room_types.push(room_type);
        render.outputs_styles.push(style);
    }
    Ok(render)
}

/// What a v1 variation asks for beyond its staging.
pub struct Varying {
    pub room_type: Option<RoomType>,
    pub style: Option<Style>,
    pub switch_to_queued_immediately: bool,
}

/// Adds a staging variation to v1 render `id` while it is done, on its newest decluttered image when it has one;
/// room type and style default to the first call's. `staging` makes the variation from them and its base.
pub fn vary(
    db: &mut Connection,
    account: &Account,
    id: &str,
    varying: Varying,
    staging: impl FnOnce(RoomType, Style, Option<String>) -> Result<Planned, SandboxError>,
    pace: Pace,
) -> Result<(), SandboxError> {
    let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
    renders::render_seq(&tx, account, id)?;
    let (api_version, settings): (i64, Option<String>) = tx
        .prepare_cached("SELECT api_version, v1_settings FROM renders WHERE id = ?1")?
        .query_row([id], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let settings: v1::CreateRender = match (api_version, settings) {
        (1, Some(settings)) => serde_json::from_str(&settings).map_err(|e| SandboxError::Internal(e.to_string()))?,
        _ => {
            return Err(SandboxError::Conflict(format!(
                "Render {id} was not made by /v1/render/create; add variations through v2."
            )));
        }
    };
    if read(&tx, account, id)?.status != v1::Status::Done {
        return Err(SandboxError::Conflict(format!("Render {id} is not done yet; wait until its status is done.")));
    }
    let room_type = varying.room_type.or(settings.room_type).unwrap_or(RoomType::Living);
    let style = varying.style.or(settings.style).unwrap_or(Style::Standard);
    let base: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM variations
             WHERE render_id = ?1 AND kind = 'removal' AND status = 'done'
             ORDER BY seq DESC LIMIT 1",
        )?
        .query_row([id], |row| row.get(0))
        .optional()?;
    let existing: i64 =
        tx.prepare_cached("SELECT COUNT(*) FROM variations WHERE render_id = ?1")?.query_row([id], |row| row.get(0))?;
    let planned = staging(room_type, style, base)?;
    accounts::charge(&tx, account, renders::cost_of_adding(&tx, id, &planned.config)?)?;
    renders::insert_variations(&tx, id, existing as u64, &[planned], pace)?;
    tx.prepare_cached("UPDATE renders SET v1_queued = ?1 WHERE id = ?2")?
        .execute(params![varying.switch_to_queued_immediately, id])?;
    tx.commit()?;
    Ok(())
}

/// The ids of render `render_id`'s variations.
pub fn variation_ids(db: &Connection, render_id: &str) -> Result<Vec<String>, SandboxError> {
    Ok(db
        .prepare_cached("SELECT id FROM variations WHERE render_id = ?1")?
        .query_map([render_id], |row| row.get(0))?
        .collect::<Result<_, _>>()?)
}

/// The result address of the newest finished variation of `kind`.
pub fn newest_output(db: &Connection, render_id: &str, kind: VariationType) -> Result<Option<String>, SandboxError> {
    let result: Option<String> = db
        .prepare_cached(
            "SELECT result FROM variations
             WHERE render_id = ?1 AND kind = ?2 AND status = 'done'
             ORDER BY seq DESC LIMIT 1",
        )?
        .query_row(params![render_id, kind.as_str()], |row| row.get(0))
        .optional()?
        .flatten();
    Ok(result
        .and_then(|r| serde_json::from_str::<vstage_api::VariationResult>(&r).ok())
        .and_then(|r| r.primary().map(|image| image.url.clone())))
}
