//! The v2 endpoints of API.md part 4, mounted under `/v2`.
//! So far: `GET /status` and `GET /user`.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;
use vstage_api::User;

use crate::SandboxState;
use crate::auth::Authenticated;

pub fn routes() -> Router<Arc<SandboxState>> {
    Router::new().route("/status", get(status)).route("/user", get(user))
}

/// `GET /v2/status`: 200 with no content while the sandbox runs.
async fn status(_account: Authenticated) -> StatusCode {
    StatusCode::OK
}

/// `GET /v2/user`.
async fn user(Authenticated(account): Authenticated) -> Json<User> {
    Json(account.as_user())
}
