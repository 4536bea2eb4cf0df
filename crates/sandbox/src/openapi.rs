//! `GET /openapi.json`: the contract as this sandbox implements it (OpenAPI 3.0), with its own address as the
//! server. The document lives in `openapi/openapi.json`; schemathesis checks the sandbox against it.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::SandboxState;
use crate::error::SandboxError;

const DOCUMENT: &str = include_str!("../openapi/openapi.json");

/// The document with `base_url` as its server, made once at start.
pub fn document(base_url: &str) -> Result<Value, SandboxError> {
    let mut document: Value = serde_json::from_str(DOCUMENT)
        .map_err(|e| SandboxError::Startup(format!("the built-in openapi.json does not parse: {e}")))?;
    document["servers"] = json!([{ "url": base_url }]);
    Ok(document)
}

pub async fn serve(State(state): State<Arc<SandboxState>>) -> Json<Value> {
    Json(state.openapi.clone())
}
