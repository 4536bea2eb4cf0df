//! The legacy v1 API (service-api.md parts 2-4 and the appendix), mounted under `/v1`: ping, options, create (JSON, or a
//! multipart `file` with the other arguments in the query), render, and create-variation. v1 renders live in the
//! same store as v2's; their staging variations carry `legacy_staging` configs.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::Value;
use vstage_api::{
    Config, LegacyStagingConfig, OutputResolution, RemovalMode, RemovalOnlyConfig, RemoveFurniture, RoomType, Style,
    VariationType, v1,
};

use crate::accounts;
use crate::auth::Authenticated;
use crate::body::{JsonBody, QueryParams};
use crate::error::SandboxError;
use crate::furniture;
use crate::ids::new_id;
use crate::renders::Planned;
use crate::v1_renders::{self, Varying};
use crate::{SandboxState, SyncWindow};
use vstage_imaging as imaging;

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

/// create-variation's `render_id`, which may come in the body instead.
#[derive(Deserialize)]
struct MaybeRenderId {
    render_id: Option<String>,
}

async fn ping(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
) -> Result<Json<v1::Ping>, SandboxError> {
    let counted = account.clone();
    let (used, _) = state.store.run(move |db| accounts::usage(db, &counted)).await?;
    Ok(Json(v1::Ping {
        user: Some(v1::PingUser { email: account.email, uid: account.uid }),
        photo_limit: account.photo_limit.staging as f64,
        photos_used_this_period: used.staging as f64,
    }))
}

async fn options(_account: Authenticated) -> Json<v1::Options> {
    let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
    Json(v1::Options { room_types: strings(v1::ROOM_TYPES), styles: strings(v1::STYLES), variation_styles: Vec::new() })
}

/// `POST /v1/render/create`.
async fn create(
    State(state): State<Arc<SandboxState>>,
    axum::Extension(window): axum::Extension<SyncWindow>,
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
        let (file, form) = uploaded_form(multipart).await?;
        (with_form_arguments(query, form)?, Some(file))
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
    let unfurnished = unfurnished(&state, &settings).await;
    let planned = plan(&settings, unfurnished)?;
    state.store.run(move |db| v1_renders::create(db, &account, &id, &settings, &planned, pace)).await?;
    state.work_added.notify_waiters();
    answer(&state, window, render_id, waits).await
}

/// The `file` field of a multipart create, and its other fields as text.
async fn uploaded_form(mut multipart: Multipart) -> Result<(Bytes, serde_json::Map<String, Value>), SandboxError> {
    let (mut file, mut form) = (None, serde_json::Map::new());
    while let Some(field) = multipart.next_field().await.map_err(|e| SandboxError::BadRequest(e.body_text()))? {
        match field.name().map(str::to_string) {
            Some(name) if name == "file" => {
                file = Some(field.bytes().await.map_err(|e| SandboxError::BadRequest(e.body_text()))?);
            }
            // another file (a page's form may send its file input under its own name, beside `file`) is no argument
            Some(name) if field.file_name().is_none() => {
                let text = field.text().await.map_err(|e| SandboxError::BadRequest(e.body_text()))?;
                form.insert(name, Value::String(text));
            }
            _ => {}
        }
    }
    let file = file.ok_or_else(|| {
        SandboxError::BadRequest("file: the multipart form has no `file` field; add the photo as `file`.".into())
    })?;
    Ok((file, form))
}

/// The flags of a multipart form, read as the service's JavaScript reads a form field: any text but the empty one
/// is true, `"false"` too (docs/api-notes.md, "Flags"); the arguments' place is the query.
const FORM_FLAGS: [&str; 3] = ["wait_for_completion", "add_virtually_staged_watermark", "add_furniture"];

/// The create's arguments from the query, each missing one taken from the multipart form's fields.
fn with_form_arguments(
    query: v1::CreateRender,
    mut form: serde_json::Map<String, Value>,
) -> Result<v1::CreateRender, SandboxError> {
    for flag in FORM_FLAGS {
        if let Some(Value::String(text)) = form.get(flag) {
            let truthy = !text.is_empty();
            form.insert(flag.to_string(), Value::Bool(truthy));
        }
    }
    let form: v1::CreateRender = serde_json::from_value(Value::Object(form)).map_err(|e| {
        SandboxError::BadRequest(format!("The multipart form's fields are not what create takes: {e}."))
    })?;
    Ok(v1::CreateRender {
        image_url: query.image_url.or(form.image_url),
        room_type: query.room_type.or(form.room_type),
        style: query.style.or(form.style),
        resolution: query.resolution.or(form.resolution),
        wait_for_completion: query.wait_for_completion.or(form.wait_for_completion),
        add_virtually_staged_watermark: query.add_virtually_staged_watermark.or(form.add_virtually_staged_watermark),
        declutter_mode: query.declutter_mode.or(form.declutter_mode),
        declutter_mask_url: query.declutter_mask_url.or(form.declutter_mask_url),
        add_furniture: query.add_furniture.or(form.add_furniture),
    })
}

/// Whether `declutter_mode` is `auto` and the photo has no furniture, so that nothing is decluttered.
async fn unfurnished(state: &SandboxState, settings: &v1::CreateRender) -> bool {
    let Some(photo) = settings.image_url.clone().filter(|_| settings.declutter_mode == Some(RemovalMode::Auto)) else {
        return false;
    };
    furniture::unfurnished(state, [photo]).await.len() == 1
}

/// The variations of a v1 create (service-api.md's three modes of use); `auto` declutters only a furnished photo.
fn plan(settings: &v1::CreateRender, unfurnished: bool) -> Result<Vec<Planned>, SandboxError> {
    let declutter = settings.declutter_mode.clone().unwrap_or(RemovalMode::Off);
    let resolution = resolution(settings);
    let mut planned = Vec::new();
    let mut base = None;
    if declutter == RemovalMode::On || (declutter == RemovalMode::Auto && !unfurnished) {
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
    Ok(Json(state.store.run(move |db| v1_renders::read(db, &account, &render_id)).await?))
}

/// `POST /v1/render/create-variation?render_id=...` (or `render_id` in the body): only on a done render; staged on its decluttered image when
/// the first call decluttered.
async fn create_variation(
    State(state): State<Arc<SandboxState>>,
    axum::Extension(window): axum::Extension<SyncWindow>,
    Authenticated(account): Authenticated,
    QueryParams(query): QueryParams<MaybeRenderId>,
    body: Bytes,
) -> Result<Json<v1::Created>, SandboxError> {
    let request: v1::CreateVariation = if body.iter().all(u8::is_ascii_whitespace) {
        v1::CreateVariation::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| SandboxError::BadRequest(format!("The request body is not what this endpoint takes: {e}.")))?
    };
    let render_id = query.render_id.or(request.render_id.clone()).ok_or_else(|| {
        SandboxError::BadRequest("render_id: name the render in the query (`?render_id=...`) or in the body.".into())
    })?;
    request.validate()?;
    let waits = request.wait_for_completion.unwrap_or(false);
    let pace = state.pace;
    let id = render_id.clone();
    let varying = Varying {
        room_type: request.room_type,
        style: request.style,
        switch_to_queued_immediately: request.switch_to_queued_immediately.unwrap_or(false),
    };
    state.store.run(move |db| v1_renders::vary(db, &account, &id, varying, staging, pace)).await?;
    state.work_added.notify_waiters();
    answer(&state, window, render_id, waits).await
}

/// `{render_id}` at once, or after waiting: with the newest staged image and the decluttered one.
async fn answer(
    state: &Arc<SandboxState>,
    window: SyncWindow,
    render_id: String,
    waits: bool,
) -> Result<Json<v1::Created>, SandboxError> {
    if !waits {
        return Ok(Json(v1::Created { render_id, result_image_url: None, removal_output: None }));
    }
    let id = render_id.clone();
    let ids = state.store.run(move |db| v1_renders::variation_ids(db, &id)).await?;
    crate::v2::settle(state, window, ids).await?;
    let id = render_id.clone();
    let (staged, removal) = state
        .store
        .run(move |db| {
            let newest = |kind| v1_renders::newest_output(db, &id, kind);
            Ok((newest(VariationType::Staging)?, newest(VariationType::Removal)?))
        })
        .await?;
    Ok(Json(v1::Created { render_id, result_image_url: staged.clone().or(removal.clone()), removal_output: removal }))
}
