//! The v2 endpoints of service-api.md part 4, mounted under `/v2`: thin handlers over `renders`, `accounts`, `analysis`.
//! Each reads its input into `vstage-api` types, runs one store call and answers JSON.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Extension, Json};
use vstage_api::{
    AddVariations, AddedVariations, BulkAddVariations, BulkAddedVariations, BulkCreateRenders, BulkCreatedRenders,
    CreateRender, GetRender, ListRenders, ListVariations, Message, Render, RenderPage, SetWebhookSecret, User,
    Variation, VariationPage,
};

use crate::accounts::{self, Account};
use crate::analysis;
use crate::auth::Authenticated;
use crate::body::{JsonBody, QueryParams};
use crate::error::SandboxError;
use crate::furniture;
use crate::multi_view;
use crate::renders;
use crate::{SandboxState, SyncWindow};

pub fn routes() -> Router<Arc<SandboxState>> {
    Router::new()
        .route("/status", get(status))
        .route("/user", get(user))
        .route("/user/webhook-secret", post(set_webhook_secret).delete(delete_webhook_secret))
        .route("/renders", get(list_renders).post(create_render))
        .route("/renders/bulk", post(create_renders_in_bulk))
        .route("/renders/variations/bulk", post(add_variations_in_bulk))
        .route("/renders/{render_id}", get(get_render))
        .route("/renders/{render_id}/variations", get(list_variations).post(add_variations))
        .route("/renders/{render_id}/variations/{variation_id}", get(get_variation))
        .route("/analyze", post(analysis::analyze))
        .route("/multi-view-compatability", post(multi_view::compatibility))
}

/// `GET /v2/status`: 200 with no content while the sandbox runs, with or without a key: a public client checks
/// it with none ("Listing Lab"'s `vsai.js`: `fetch(BASE + '/status')`, reading only the status).
async fn status() -> StatusCode {
    StatusCode::OK
}

/// `GET /v2/user`.
async fn user(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
) -> Result<Json<User>, SandboxError> {
    let counted = account.clone();
    let (used, period) = state.store.run(move |db| accounts::usage(db, &counted)).await?;
    Ok(Json(account.as_user(used, period)))
}

/// `POST /v2/user/webhook-secret`: sets or replaces the secret that signs this account's webhooks.
async fn set_webhook_secret(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<SetWebhookSecret>,
) -> Result<Json<Message>, SandboxError> {
    request.validate()?;
    let replaced = state
        .store
        .run(move |db| accounts::set_webhook_secret(db, &account.uid, Some(&request.webhook_secret)))
        .await?;
    let message = if replaced { "Webhook secret updated." } else { "Webhook secret set." };
    Ok(Json(Message { message: message.into() }))
}

/// `DELETE /v2/user/webhook-secret`: webhooks are sent unsigned from now on.
async fn delete_webhook_secret(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
) -> Result<Json<Message>, SandboxError> {
    let removed = state.store.run(move |db| accounts::set_webhook_secret(db, &account.uid, None)).await?;
    let message = if removed { "Webhook secret removed." } else { "No webhook secret was set." };
    Ok(Json(Message { message: message.into() }))
}

/// `GET /v2/renders`.
async fn list_renders(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    QueryParams(query): QueryParams<ListRenders>,
) -> Result<Json<RenderPage>, SandboxError> {
    Ok(Json(state.store.run(move |db| renders::list(db, &account, &query)).await?))
}

/// `POST /v2/renders`.
async fn create_render(
    State(state): State<Arc<SandboxState>>,
    Extension(window): Extension<SyncWindow>,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<CreateRender>,
) -> Result<Json<Render>, SandboxError> {
    let waits = request.wait_for_completion == Some(true);
    if !request.image_urls.is_empty() {
        request.validate()?;
        multi_view::same_size(&state, &request.image_urls).await.map_err(SandboxError::Unprocessable)?;
    }
    let again = account.clone();
    let checks = request.configs.entries().iter().any(|(config, _)| renders::needs_furniture_check(config));
    let planning = planning(&state, checks.then(|| request.image_url.clone())).await;
    let render = state.store.run(move |db| renders::create(db, &account, &request, &planning)).await?;
    state.work_added.notify_waiters();
    if !waits {
        return Ok(Json(render));
    }
    settle(&state, window, render.variation_items().iter().map(|v| v.id.clone()).collect()).await?;
    let query = GetRender::with_variations(20);
    Ok(Json(state.store.run(move |db| renders::get(db, &again, &render.id, &query)).await?))
}

/// `POST /v2/renders/bulk`.
async fn create_renders_in_bulk(
    State(state): State<Arc<SandboxState>>,
    Extension(window): Extension<SyncWindow>,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<BulkCreateRenders>,
) -> Result<Json<BulkCreatedRenders>, SandboxError> {
    let waits = request.wait_for_completion == Some(true);
    let again = account.clone();
    let photos =
        request.renders.iter().filter(|r| renders::needs_furniture_check(&r.config)).map(|r| r.image_url.clone());
    let planning = planning(&state, photos).await;
    let created = state.store.run(move |db| renders::create_bulk(db, &account, &request, &planning)).await?;
    state.work_added.notify_waiters();
    if !waits {
        return Ok(Json(BulkCreatedRenders { renders: created }));
    }
    let ids = created.iter().flat_map(|r| r.variation_items()).map(|v| v.id.clone()).collect();
    settle(&state, window, ids).await?;
    let ids: Vec<String> = created.into_iter().map(|r| r.id).collect();
    let query = GetRender::with_variations(20);
    let renders = state
        .store
        .run(move |db| ids.iter().map(|id| renders::get(db, &again, id, &query)).collect::<Result<Vec<_>, _>>())
        .await?;
    Ok(Json(BulkCreatedRenders { renders }))
}

/// `GET /v2/renders/{render_id}`.
async fn get_render(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    Path(render_id): Path<String>,
    QueryParams(query): QueryParams<GetRender>,
) -> Result<Json<Render>, SandboxError> {
    Ok(Json(state.store.run(move |db| renders::get(db, &account, &render_id, &query)).await?))
}

/// `GET /v2/renders/{render_id}/variations` (not in the contract): the render's variations as a page, `{total_count,
/// next_cursor, items}`. A Next.js client resolves a paid image with it, on a v1 render's id too, reading
/// `variations.items`, `variations`, `items` or the answer itself as the list (iconicvirtualai/iconic-virtual-vsai-demo,
/// pages/api/post-checkout.ts and pages/api/vsai-variation-result.ts).
async fn list_variations(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    Path(render_id): Path<String>,
    QueryParams(query): QueryParams<ListVariations>,
) -> Result<Json<VariationPage>, SandboxError> {
    query.validate()?;
    let page = query.as_render_query();
    Ok(Json(state.store.run(move |db| renders::variations(db, &account, &render_id, &page)).await?))
}

/// `POST /v2/renders/{render_id}/variations`.
async fn add_variations(
    State(state): State<Arc<SandboxState>>,
    Extension(window): Extension<SyncWindow>,
    Authenticated(account): Authenticated,
    Path(render_id): Path<String>,
    JsonBody(request): JsonBody<AddVariations>,
) -> Result<Json<AddedVariations>, SandboxError> {
    let waits = request.wait_for_completion == Some(true);
    let again = account.clone();
    let photo = match renders::needs_furniture_check(&request.config) {
        true => Some(photo_of(&state, &account, &render_id).await?),
        false => None,
    };
    let planning = planning(&state, photo).await;
    let variations = state.store.run(move |db| renders::add(db, &account, &render_id, &request, &planning)).await?;
    state.work_added.notify_waiters();
    if !waits {
        return Ok(Json(AddedVariations { variations }));
    }
    Ok(Json(AddedVariations { variations: reread(&state, window, again, variations).await? }))
}

/// `POST /v2/renders/variations/bulk`.
async fn add_variations_in_bulk(
    State(state): State<Arc<SandboxState>>,
    Extension(window): Extension<SyncWindow>,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<BulkAddVariations>,
) -> Result<Json<BulkAddedVariations>, SandboxError> {
    let waits = request.wait_for_completion == Some(true);
    let again = account.clone();
    let mut photos = Vec::new();
    for entry in request.renders.iter().filter(|entry| renders::needs_furniture_check(&entry.config)) {
        photos.push(photo_of(&state, &account, &entry.render_id).await?);
    }
    let planning = planning(&state, photos).await;
    let results = state.store.run(move |db| renders::add_bulk(db, &account, &request, &planning)).await?;
    state.work_added.notify_waiters();
    if !waits {
        return Ok(Json(BulkAddedVariations { results }));
    }
    Ok(Json(BulkAddedVariations { results: reread(&state, window, again, results).await? }))
}

/// `GET /v2/renders/{render_id}/variations/{variation_id}`.
async fn get_variation(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    Path((render_id, variation_id)): Path<(String, String)>,
) -> Result<Json<Variation>, SandboxError> {
    Ok(Json(state.store.run(move |db| renders::variation(db, &account, &render_id, &variation_id)).await?))
}

/// `wait_for_completion`: returns when every variation is final, or when the sync time-out has passed (the
/// caller then answers with things as they stand).
pub async fn settle(state: &SandboxState, window: SyncWindow, ids: Vec<String>) -> Result<(), SandboxError> {
    let deadline = Instant::now() + window.0;
    let ids = Arc::new(ids);
    loop {
        let watched = ids.clone();
        let pending = state.store.run(move |db| renders::pending(db, &watched)).await?;
        let now = Instant::now();
        if pending == 0 || now >= deadline {
            return Ok(());
        }
        let wait = (deadline - now).min(Duration::from_millis(250));
        let _ = tokio::time::timeout(wait, state.work_added.notified()).await;
    }
}

/// The variations again, once settled.
async fn reread(
    state: &SandboxState,
    window: SyncWindow,
    account: Account,
    variations: Vec<Variation>,
) -> Result<Vec<Variation>, SandboxError> {
    settle(state, window, variations.iter().map(|v| v.id.clone()).collect()).await?;
    state
        .store
        .run(move |db| {
            variations
                .iter()
                .map(|v| renders::variation(db, &account, &v.render_id, &v.id))
                .collect::<Result<Vec<_>, _>>()
        })
        .await
}

/// The planning of new variations, with `photos` analysed for furniture (for `auto` removal).
async fn planning(state: &SandboxState, photos: impl IntoIterator<Item = String>) -> renders::Planning {
    renders::Planning { pace: state.pace, unfurnished: furniture::unfurnished(state, photos).await }
}

async fn photo_of(state: &SandboxState, account: &Account, render_id: &str) -> Result<String, SandboxError> {
    let (account, render_id) = (account.clone(), render_id.to_string());
    state.store.run(move |db| renders::image_url(db, &account, &render_id)).await
}
