//! The v2 endpoints of API.md part 4, mounted under `/v2`.
//! So far: `GET /status`, `GET /user` and the webhook secret (`POST`/`DELETE /user/webhook-secret`).

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use vstage_api::{Message, SetWebhookSecret, User};

use crate::SandboxState;
use crate::auth::Authenticated;
use crate::body::JsonBody;
use crate::error::SandboxError;

pub fn routes() -> Router<Arc<SandboxState>> {
    Router::new()
        .route("/status", get(status))
        .route("/user", get(user))
        .route("/user/webhook-secret", post(set_webhook_secret).delete(delete_webhook_secret))
}

/// `GET /v2/status`: 200 with no content while the sandbox runs.
async fn status(_account: Authenticated) -> StatusCode {
    StatusCode::OK
}

/// `GET /v2/user`.
async fn user(Authenticated(account): Authenticated) -> Json<User> {
    Json(account.as_user())
}

/// `POST /v2/user/webhook-secret`: sets or replaces the secret that signs this account's webhooks.
async fn set_webhook_secret(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<SetWebhookSecret>,
) -> Result<Json<Message>, SandboxError> {
    request.validate()?;
    let replaced = state.accounts.set_webhook_secret(&account.uid, Some(request.webhook_secret));
    let message = if replaced { "Webhook secret updated." } else { "Webhook secret set." };
    Ok(Json(Message { message: message.into() }))
}

/// `DELETE /v2/user/webhook-secret`: webhooks are sent unsigned from now on.
async fn delete_webhook_secret(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
) -> Json<Message> {
    let removed = state.accounts.set_webhook_secret(&account.uid, None);
    let message = if removed { "Webhook secret removed." } else { "No webhook secret was set." };
    Json(Message { message: message.into() })
}
