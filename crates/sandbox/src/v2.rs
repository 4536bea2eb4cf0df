//! The v2 endpoints of API.md part 4, mounted under `/v2`: thin handlers over `renders` and `accounts`.
//! Each reads its input into `vstage-api` types, runs one store call and answers JSON.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use vstage_api::{
    AddVariations, AddedVariations, BulkAddVariations, BulkAddedVariations, BulkCreateRenders, BulkCreatedRenders,
    CreateRender, GetRender, ListRenders, Message, Render, RenderPage, SetWebhookSecret, User, Variation,
};

use crate::SandboxState;
use crate::accounts;
use crate::auth::Authenticated;
use crate::body::{JsonBody, QueryParams};
use crate::error::SandboxError;
use crate::renders;

type Shared = State<Arc<SandboxState>>;

pub fn routes() -> Router<Arc<SandboxState>> {
    Router::new()
        .route("/status", get(status))
        .route("/user", get(user))
        .route("/user/webhook-secret", post(set_webhook_secret).delete(delete_webhook_secret))
        .route("/renders", get(list_renders).post(create_render))
        .route("/renders/bulk", post(create_renders_in_bulk))
        .route("/renders/variations/bulk", post(add_variations_in_bulk))
        .route("/renders/{render_id}", get(get_render))
        .route("/renders/{render_id}/variations", post(add_variations))
        .route("/renders/{render_id}/variations/{variation_id}", get(get_variation))
}

/// `GET /v2/status`: 200 with no content while the sandbox runs.
async fn status(_account: Authenticated) -> StatusCode {
    StatusCode::OK
}

/// `GET /v2/user`.
async fn user(State(state): Shared, Authenticated(account): Authenticated) -> Result<Json<User>, SandboxError> {
    let uid = account.uid.clone();
    let used = state.store.run(move |db| accounts::usage(db, &uid)).await?;
    Ok(Json(account.as_user(used)))
}

/// `POST /v2/user/webhook-secret`: sets or replaces the secret that signs this account's webhooks.
async fn set_webhook_secret(
    State(state): Shared,
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
    State(state): Shared,
    Authenticated(account): Authenticated,
) -> Result<Json<Message>, SandboxError> {
    let removed = state.store.run(move |db| accounts::set_webhook_secret(db, &account.uid, None)).await?;
    let message = if removed { "Webhook secret removed." } else { "No webhook secret was set." };
    Ok(Json(Message { message: message.into() }))
}

/// `GET /v2/renders`.
async fn list_renders(
    State(state): Shared,
    Authenticated(account): Authenticated,
    QueryParams(query): QueryParams<ListRenders>,
) -> Result<Json<RenderPage>, SandboxError> {
    Ok(Json(state.store.run(move |db| renders::list(db, &account, &query)).await?))
}

/// `POST /v2/renders`.
async fn create_render(
    State(state): Shared,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<CreateRender>,
) -> Result<Json<Render>, SandboxError> {
    let pace = state.pace;
    let render = state.store.run(move |db| renders::create(db, &account, &request, pace)).await?;
    state.work_added.notify_waiters();
    Ok(Json(render))
}

/// `POST /v2/renders/bulk`.
async fn create_renders_in_bulk(
    State(state): Shared,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<BulkCreateRenders>,
) -> Result<Json<BulkCreatedRenders>, SandboxError> {
    let pace = state.pace;
    let created = state.store.run(move |db| renders::create_bulk(db, &account, &request, pace)).await?;
    state.work_added.notify_waiters();
    Ok(Json(BulkCreatedRenders { renders: created }))
}

/// `GET /v2/renders/{render_id}`.
async fn get_render(
    State(state): Shared,
    Authenticated(account): Authenticated,
    Path(render_id): Path<String>,
    QueryParams(query): QueryParams<GetRender>,
) -> Result<Json<Render>, SandboxError> {
    Ok(Json(state.store.run(move |db| renders::get(db, &account, &render_id, &query)).await?))
}

/// `POST /v2/renders/{render_id}/variations`.
async fn add_variations(
    State(state): Shared,
    Authenticated(account): Authenticated,
    Path(render_id): Path<String>,
    JsonBody(request): JsonBody<AddVariations>,
) -> Result<Json<AddedVariations>, SandboxError> {
    let pace = state.pace;
    let variations = state.store.run(move |db| renders::add(db, &account, &render_id, &request, pace)).await?;
    state.work_added.notify_waiters();
    Ok(Json(AddedVariations { variations }))
}

/// `POST /v2/renders/variations/bulk`.
async fn add_variations_in_bulk(
    State(state): Shared,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<BulkAddVariations>,
) -> Result<Json<BulkAddedVariations>, SandboxError> {
    let pace = state.pace;
    let results = state.store.run(move |db| renders::add_bulk(db, &account, &request, pace)).await?;
    state.work_added.notify_waiters();
    Ok(Json(BulkAddedVariations { results }))
}

/// `GET /v2/renders/{render_id}/variations/{variation_id}`.
async fn get_variation(
    State(state): Shared,
    Authenticated(account): Authenticated,
    Path((render_id, variation_id)): Path<(String, String)>,
) -> Result<Json<Variation>, SandboxError> {
    Ok(Json(state.store.run(move |db| renders::variation(db, &account, &render_id, &variation_id)).await?))
}
