//! Request bodies and query strings read into the wire types of `vstage-api`, with failures as 400 `{"message"}`.
//! axum's own rejections are plain text; the contract wants JSON errors that say what to fix.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::SandboxError;

/// Like `axum::Json`, but its rejection is a `SandboxError`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = SandboxError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(SandboxError::BadRequest(format!(
                "The request body is not what this endpoint takes: {}. Send JSON as the contract describes (docs/service-api.md), with Content-Type: application/json.",
                rejection.body_text()
            ))),
        }
    }
}

/// Like `axum::extract::Query`, but its rejection is a `SandboxError`.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = SandboxError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(QueryParams(value)),
            Err(rejection) => Err(SandboxError::BadRequest(format!(
                "The query string is not what this endpoint takes: {}. Check the parameters' names and values.",
                rejection.body_text()
            ))),
        }
    }
}
