//! The sandbox's errors and how they reach a client: JSON `{"message": "..."}` with the fitting status.
//! Internals (paths, SQL, stack) never reach the body; they go to the log.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use vstage_api::ValidationError;

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("{0}")]
    Unauthorized(&'static str),
    #[error("{0}")]
    BadRequest(String),
    #[error("{}: {}", .0.field, .0.message)]
    Invalid(#[from] ValidationError),
    /// A well-formed request whose photo or mask cannot be fetched or read.
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// The request does not fit the item's state (v1).
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("the sandbox could not start: {0}")]
    Startup(String),
    /// Something broke inside; the detail goes to the log only.
    #[error("internal: {0}")]
    Internal(String),
}

impl SandboxError {
    fn status(&self) -> StatusCode {
        match self {
            SandboxError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            SandboxError::BadRequest(_) | SandboxError::Invalid(_) => StatusCode::BAD_REQUEST,
            SandboxError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            SandboxError::Forbidden(_) => StatusCode::FORBIDDEN,
            SandboxError::NotFound(_) => StatusCode::NOT_FOUND,
            SandboxError::Conflict(_) => StatusCode::CONFLICT,
            SandboxError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            SandboxError::Startup(_) | SandboxError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for SandboxError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = if status.is_server_error() {
            tracing::error!(error = %self, "internal error");
            "Internal error in the sandbox. Try again; if it persists, restart it.".to_string()
        } else {
            self.to_string()
        };
        (status, Json(json!({ "message": message }))).into_response()
    }
}

/// The answer for any path the contract does not have.
pub async fn not_found() -> SandboxError {
    SandboxError::NotFound(
        "No such endpoint in the sandbox. Check the method and path against the API contract.".into(),
    )
}
