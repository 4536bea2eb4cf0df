//! `GET /openapi.json`: the contract as this sandbox implements it (OpenAPI 3.0), with its own two addresses (the
//! regular one and the long-running one) as the servers. The document lives in `openapi/openapi.json`; schemathesis checks the sandbox against it.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::SandboxState;
use crate::error::SandboxError;

const DOCUMENT: &str = include_str!("../openapi/openapi.json");

/// The document with the sandbox's two addresses as its servers, as the service's lists its regular one and its
/// long-running one for synchronous use; made once at start.
pub fn document(base_url: &str, direct_sync_url: &str) -> Result<Value, SandboxError> {
    let mut document: Value = serde_json::from_str(DOCUMENT)
        .map_err(|e| SandboxError::Startup(format!("the built-in openapi.json does not parse: {e}")))?;
    document["servers"] = json!([
        {
            "url": base_url,
            "description": "The regular address: a request that waits for completion is answered within the sync \
                            time-out (60 s by default); longer work should use webhooks or the long-running address"
        },
        {
            "url": direct_sync_url,
            "description": "The long-running address, for synchronous requests (`wait_for_completion`) that may \
                            take longer: the same API, waiting up to the direct-sync time-out (10 minutes by default)"
        }
    ]);
    Ok(document)
}

pub async fn serve(State(state): State<Arc<SandboxState>>) -> Json<Value> {
    Json(state.openapi.clone())
}
