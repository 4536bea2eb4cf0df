//! The legacy v1 API (API.md parts 2-4 and the appendix), mounted under `/v1`: ping, options, create (JSON, or a
//! multipart `file` with the other arguments in the query), render, and create-variation. v1 renders live in the
//! same store as v2's; their staging variations carry `legacy_staging` configs.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::routing::{get, post};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::Deserialize;
use vstage_api::{
    Config, LegacyStagingConfig, OutputResolution, RemovalMode, RemovalOnlyConfig, RemoveFurniture, RoomType, Style,
    Variation, VariationStatus, VariationType, v1,
};

use crate::SandboxState;
use crate::accounts;
use crate::auth::Authenticated;
use crate::body::{JsonBody, QueryParams};
use crate::error::SandboxError;
use crate::ids::new_id;
use crate::imaging;
use crate::renders::{self, Planned};
use vstage_api::time::now_millis;

/// Renders of one account in progress at once (API.md part 8).
pub const MAX_RENDERS_IN_PROGRESS: i64 = 50;

pub fn routes() -> Router<Arc<SandboxState>> {
    Router::new()
        .route("/ping", get(ping))
        .route("/options", get(options))
        .route("/render/create", post(create))
        .route("/render", get(render))
        .route("/render/create-variation", post(create_variation))
}

#[derive(Deserialize)]
struct RenderId {
    render_id: String,
}

async fn ping(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
) -> Result<Json<v1::Ping>, SandboxError> {
    let uid = account.uid.clone();
    let used = state.store.run(move |db| accounts::usage(db, &uid)).await?;
    Ok(Json(v1::Ping {
        user: Some(v1::PingUser { email: account.email, uid: account.uid }),
        photo_limit: account.photo_limit.staging as f64,
        photos_used_this_period: used.staging as f64,
    }))
}

async fn options(_account: Authenticated) -> Json<v1::Options> {
    let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
    Json(v1::Options {
        room_types: strings(v1::ROOM_TYPES),
        styles: strings(v1::CREATE_STYLES),
        variation_styles: strings(v1::VARIATION_STYLES),
    })
}

/// `POST /v1/render/create`.
async fn create(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    QueryParams(query): QueryParams<v1::CreateRender>,
    request: Request,
) -> Result<Json<v1::Created>, SandboxError> {
    let is_multipart = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let (mut settings, file) = if is_multipart {
        let multipart =
            Multipart::from_request(request, &()).await.map_err(|e| SandboxError::BadRequest(e.body_text()))?;
        (query, Some(uploaded_file(multipart).await?))
    } else {
        let JsonBody(settings) = JsonBody::<v1::CreateRender>::from_request(request, &()).await?;
        (settings, None)
    };
    settings.validate(file.is_some())?;
    let render_id = new_id("rnd")?;
    if let Some(bytes) = file {
        let name = format!("{render_id}-source.img");
        imaging::decode(&bytes).map_err(SandboxError::Unprocessable)?;
        state.files.write(&name, &bytes)?;
        settings.image_url = Some(format!("{}/files/{name}", state.base_url));
    }
    let waits = settings.wait_for_completion.unwrap_or(true);
    let pace = state.pace;
    let id = render_id.clone();
    let created = state
        .store
        .run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let in_progress: i64 = tx.prepare_cached("SELECT COUNT(DISTINCT r.id) FROM renders r JOIN variations v ON v.render_id = r.id
                 WHERE r.account_uid = ?1 AND v.status NOT IN ('done', 'error')")?.query_row([&account.uid],
                |r| r.get(0),
            )?;
            if in_progress >= MAX_RENDERS_IN_PROGRESS {
                return Err(SandboxError::TooManyRequests(format!(
                    "{in_progress} renders of this account are in progress, the most allowed at once; wait for some to finish and try again."
                )));
            }
            let stored = serde_json::to_string(&settings).map_err(|e| SandboxError::Internal(e.to_string()))?;
            tx.prepare_cached("INSERT INTO renders (id, account_uid, created_at, queued_at, image_url, api_version, v1_settings)
                 VALUES (?1, ?2, ?3, ?3, ?4, 1, ?5)")?.execute(params![id, account.uid, now_millis(), settings.image_url, stored],
            )?;
            renders::insert_variations(&tx, &account, &id, 0, &plan(&settings)?, pace)?;
            tx.commit()?;
            Ok(())
        })
        .await;
    created?;
    state.work_added.notify_waiters();
    answer(&state, render_id, waits).await
}

/// The `file` field of a multipart create.
async fn uploaded_file(mut multipart: Multipart) -> Result<Bytes, SandboxError> {
    while let Some(field) = multipart.next_field().await.map_err(|e| SandboxError::BadRequest(e.body_text()))? {
        if field.name() == Some("file") {
            return field.bytes().await.map_err(|e| SandboxError::BadRequest(e.body_text()));
        }
    }
    Err(SandboxError::BadRequest("file: the multipart form has no `file` field; add the photo as `file`.".into()))
}

/// The variations of a v1 create (API.md's three modes of use).
fn plan(settings: &v1::CreateRender) -> Result<Vec<Planned>, SandboxError> {
    let declutter = settings.declutter_mode.clone().unwrap_or(RemovalMode::Off);
    let resolution = resolution(settings);
    let mut planned = Vec::new();
    let mut base = None;
    if declutter != RemovalMode::Off {
        let id = new_id("var")?;
        let config = Config::RemovalOnly(RemovalOnlyConfig {
            output_resolution: resolution,
            add_virtually_staged_watermark: settings.add_virtually_staged_watermark,
            remove_furniture: RemoveFurniture { mode: RemovalMode::On, mask_url: settings.declutter_mask_url.clone() },
        });
        planned.push(Planned { id: id.clone(), kind: VariationType::Removal, config, base_variation_id: None });
        base = Some(id);
    }
    let declutter_only = declutter == RemovalMode::On && settings.add_furniture == Some(false);
    if !declutter_only {
        let (Some(room_type), Some(style)) = (settings.room_type.clone(), settings.style.clone()) else {
            return Err(SandboxError::BadRequest("room_type and style: both are needed for staging.".into()));
        };
        planned.push(staging(room_type, style, base)?);
    }
    Ok(planned)
}

fn staging(room_type: RoomType, style: Style, base: Option<String>) -> Result<Planned, SandboxError> {
    Ok(Planned {
        id: new_id("var")?,
        kind: VariationType::Staging,
        config: Config::LegacyStaging(LegacyStagingConfig { room_type, style }),
        base_variation_id: base,
    })
}

/// v1's `resolution` as the output resolution of its variations.
pub fn resolution(settings: &v1::CreateRender) -> Option<OutputResolution> {
    match settings.resolution.as_ref()? {
        v1::Resolution::FourK => Some(OutputResolution::FourK),
        v1::Resolution::FullHd => Some(OutputResolution::FullHd),
        v1::Resolution::Other(_) => None,
    }
}

/// `GET /v1/render?render_id=...`.
async fn render(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    QueryParams(RenderId { render_id }): QueryParams<RenderId>,
) -> Result<Json<v1::Render>, SandboxError> {
    Ok(Json(state.store.run(move |db| v1_render(db, &account, &render_id)).await?))
}

/// The appendix's v1 render object, from the render and its variations.
fn v1_render(db: &Connection, account: &accounts::Account, render_id: &str) -> Result<v1::Render, SandboxError> {
    let seq = renders::render_seq(db, account, render_id)?;
    let (created_at, queued_flag): (i64, bool) = db
        .prepare_cached("SELECT created_at, v1_queued FROM renders WHERE seq = ?1")?
        .query_row([seq], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let variations: Vec<Variation> = db
        .prepare_cached(&format!(
            "SELECT {} FROM variations WHERE render_id = ?1 ORDER BY seq",
            renders::VARIATION_COLUMNS
        ))?
        .query_map([render_id], renders::variation_from_row)?
        .collect::<Result<_, _>>()?;
    let pending = variations.iter().any(|v| !v.status.is_final());
    let processing = variations.iter().any(|v| v.status == VariationStatus::Processing);
    let status = if pending && queued_flag && !processing {
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
    };
    for variation in variations.iter().filter(|v| v.status == VariationStatus::Done) {
        let Some(image) = variation.result.as_ref().and_then(|r| r.primary()) else { continue };
        render.outputs.push(image.url.clone());
        let (room_type, style) = match &variation.config {
            Some(Config::LegacyStaging(c)) => (c.room_type.to_string(), c.style.to_string()),
            _ => (String::new(), String::new()),
        };
        render.outputs_room_types.push(room_type);
        render.outputs_styles.push(style);
    }
    Ok(render)
}

/// `POST /v1/render/create-variation?render_id=...`: only on a done render; staged on its decluttered image when
/// the first call decluttered.
async fn create_variation(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    QueryParams(RenderId { render_id }): QueryParams<RenderId>,
    body: Bytes,
) -> Result<Json<v1::Created>, SandboxError> {
    let request: v1::CreateVariation = if body.iter().all(u8::is_ascii_whitespace) {
        v1::CreateVariation::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| SandboxError::BadRequest(format!("The request body is not what this endpoint takes: {e}.")))?
    };
    request.validate()?;
    let waits = request.wait_for_completion.unwrap_or(false);
    let pace = state.pace;
    let id = render_id.clone();
    state
        .store
        .run(move |db| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            renders::render_seq(&tx, &account, &id)?;
            let (api_version, settings): (i64, Option<String>) =
                tx.prepare_cached("SELECT api_version, v1_settings FROM renders WHERE id = ?1")?.query_row([&id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let settings: v1::CreateRender = match (api_version, settings) {
                (1, Some(settings)) => serde_json::from_str(&settings).map_err(|e| SandboxError::Internal(e.to_string()))?,
                _ => return Err(SandboxError::Conflict(format!("Render {id} was not made by /v1/render/create; add variations through v2."))),
            };
            if v1_render(&tx, &account, &id)?.status != v1::Status::Done {
                return Err(SandboxError::Conflict(format!("Render {id} is not done yet; wait until its status is done.")));
            }
            let room_type = request.room_type.clone().or(settings.room_type).unwrap_or(RoomType::Living);
            let style = request.style.clone().or(settings.style).unwrap_or(Style::Standard);
            let base: Option<String> = tx.prepare_cached("SELECT id FROM variations WHERE render_id = ?1 AND kind = 'removal' AND status = 'done' ORDER BY seq DESC LIMIT 1")?.query_row([&id],
                |r| r.get(0),
            ).ok();
            let existing: i64 = tx.prepare_cached("SELECT COUNT(*) FROM variations WHERE render_id = ?1")?.query_row([&id], |r| r.get(0))?;
            renders::insert_variations(&tx, &account, &id, existing as u64, &[staging(room_type, style, base)?], pace)?;
            tx.prepare_cached("UPDATE renders SET v1_queued = ?1 WHERE id = ?2")?.execute(params![request.switch_to_queued_immediately.unwrap_or(false), id],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    state.work_added.notify_waiters();
    answer(&state, render_id, waits).await
}

/// `{render_id}` at once, or after waiting: with the newest staged image and the decluttered one.
async fn answer(state: &Arc<SandboxState>, render_id: String, waits: bool) -> Result<Json<v1::Created>, SandboxError> {
    if !waits {
        return Ok(Json(v1::Created { render_id, result_image_url: None, removal_output: None }));
    }
    let id = render_id.clone();
    let ids = state
        .store
        .run(move |db| {
            Ok(db
                .prepare_cached("SELECT id FROM variations WHERE render_id = ?1")?
                .query_map([&id], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?)
        })
        .await?;
    crate::v2::settle(state, ids).await?;
    let id = render_id.clone();
    let (staged, removal) = state
        .store
        .run(move |db| {
            Ok((newest_output(db, &id, VariationType::Staging)?, newest_output(db, &id, VariationType::Removal)?))
        })
        .await?;
    Ok(Json(v1::Created { render_id, result_image_url: staged.clone().or(removal.clone()), removal_output: removal }))
}

/// The result of the newest finished variation of `kind`.
fn newest_output(db: &Connection, render_id: &str, kind: VariationType) -> Result<Option<String>, SandboxError> {
    let result: Option<String> = db
        .prepare_cached("SELECT result FROM variations WHERE render_id = ?1 AND kind = ?2 AND status = 'done' ORDER BY seq DESC LIMIT 1")?.query_row(params![render_id, kind.as_str()],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    Ok(result
        .and_then(|r| serde_json::from_str::<vstage_api::VariationResult>(&r).ok())
        .and_then(|r| r.primary().map(|image| image.url.clone())))
}
