//! The server's one error type, and how each failure reaches the browser: `{"message": ...}` with a status
//! that fits and a sentence that says what to do. Internal details go to the log, never into a response.

use axum::Json;
use axum::http::header::{ALLOW, CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("{0}")]
    BadRequest(String),
    /// No credentials where they are needed (`WWW-Authenticate: Bearer`).
    #[error("{0}")]
    Unauthorized(String),
    /// A widget token that is malformed, forged, expired or for another site (RFC 6750's `invalid_token`, which
    /// tells the widget to ask its host for a new one).
    #[error("{0}")]
    TokenRefused(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// The resource is not in a state for this yet (409).
    #[error("{0}")]
    Conflict(String),
    /// A well-formed request the listing's rules do not allow (422 Unprocessable Content): a chosen result that
    /// its disclosure profile's rule forbids.
    #[error("{0}")]
    AgainstRules(String),
    /// A request for a name this server does not answer to (421 Misdirected Request).
    #[error("{0}")]
    Misdirected(String),
    /// With the methods the path takes (the `Allow` header).
    #[error("{message}")]
    MethodNotAllowed { message: String, allow: String },
    /// The body did not arrive in time (408).
    #[error("{0}")]
    BodyTimeout(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Unsupported(String),
    #[error("Too many requests; wait {retry_after_s} s and try again.")]
    TooManyRequests { retry_after_s: u64 },
    /// A limit of something other than requests reached (429 with `Retry-After`), with a sentence saying which.
    #[error("{message}")]
    LimitReached { message: String, retry_after_s: u64 },
    #[error("{0}")]
    Unavailable(String),
    /// A subject's uploads would go over its quota (507).
    #[error("{0}")]
    InsufficientStorage(String),
    #[error("{0}")]
    BadGateway(String),
    #[error("{0}")]
    GatewayTimeout(String),
    /// Logged in full; the browser gets a generic sentence.
    #[error("internal: {0}")]
    Internal(String),
}

impl ServerError {
    fn status(&self) -> StatusCode {
        match self {
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::Unauthorized(_) | ServerError::TokenRefused(_) => StatusCode::UNAUTHORIZED,
            ServerError::Forbidden(_) => StatusCode::FORBIDDEN,
            ServerError::NotFound(_) => StatusCode::NOT_FOUND,
            ServerError::Conflict(_) => StatusCode::CONFLICT,
            ServerError::AgainstRules(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ServerError::Misdirected(_) => StatusCode::MISDIRECTED_REQUEST,
            ServerError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ServerError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServerError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ServerError::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ServerError::TooManyRequests { .. } | ServerError::LimitReached { .. } => StatusCode::TOO_MANY_REQUESTS,
            ServerError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ServerError::InsufficientStorage(_) => StatusCode::INSUFFICIENT_STORAGE,
            ServerError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ServerError::GatewayTimeout(_) => StatusCode::GATEWAY_TIMEOUT,
            ServerError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let message = match &self {
            ServerError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                "Something went wrong on the vstage server. Try again; if it persists, check the server's log."
                    .to_string()
            }
            other => other.to_string(),
        };
        let mut response = (self.status(), Json(json!({ "message": message }))).into_response();
        match self {
            ServerError::TooManyRequests { retry_after_s } | ServerError::LimitReached { retry_after_s, .. } => {
                response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(retry_after_s));
            }
            ServerError::MethodNotAllowed { allow, .. } => {
                if let Ok(allow) = HeaderValue::try_from(allow) {
                    response.headers_mut().insert(ALLOW, allow);
                }
            }
            ServerError::TokenRefused(_) => {
                let challenge = HeaderValue::from_static(r#"Bearer realm="vstage", error="invalid_token""#);
                response.headers_mut().insert(WWW_AUTHENTICATE, challenge);
            }
            _ => {}
        }
        response
    }
}

/// Every error the API answers is `{"message"}`, also those of axum's extractors and body limits, which answer
/// in plain text (a query that is not the endpoint's, a body over its limit): their words, in a sentence that says
/// what to do.
pub async fn json_errors(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let plain = response.headers().get(CONTENT_TYPE).is_none_or(|kind| kind.as_bytes().starts_with(b"text/plain"));
    if !(status.is_client_error() || status.is_server_error()) || !plain {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let said = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let said: String = String::from_utf8_lossy(&said).trim().chars().take(200).collect();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "The body is larger than this endpoint takes; send a smaller one.".into(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "Send the body as JSON, with Content-Type: application/json.".into(),
        _ if said.is_empty() => format!("The request was refused ({status}); check it against the docs."),
        _ => format!("The request could not be read ({said}); fix it and send it again."),
    };
    parts.headers.remove(CONTENT_LENGTH);
    let mut answer = (status, Json(json!({ "message": message }))).into_response();
    for (name, value) in parts.headers.iter().filter(|(name, _)| *name != CONTENT_TYPE) {
        answer.headers_mut().insert(name, value.clone());
    }
    answer
}

impl From<rusqlite::Error> for ServerError {
    fn from(error: rusqlite::Error) -> Self {
        ServerError::Internal(format!("database: {error}"))
    }
}

impl From<tokio_postgres::Error> for ServerError {
    fn from(error: tokio_postgres::Error) -> Self {
        ServerError::Internal(format!("database: {}", with_causes(&error)))
    }
}

impl From<deadpool_postgres::PoolError> for ServerError {
    fn from(error: deadpool_postgres::PoolError) -> Self {
        ServerError::Internal(format!("database: {}", with_causes(&error)))
    }
}

/// An error's sentence followed by its causes' (`tokio_postgres` says only "db error" itself, and keeps
/// PostgreSQL's own words in the cause), each said once.
pub fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = inner.source();
    }
    text
}

/// Through the whole app, in-process.
#[cfg(test)]
mod tests;
