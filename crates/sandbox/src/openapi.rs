//! `GET /openapi.json`: the contract as this sandbox implements it (OpenAPI 3.0), with its own address as the
//! server. The document lives in `openapi/openapi.json`; schemathesis checks the sandbox against it.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::SandboxState;

const DOCUMENT: &str = include_str!("../openapi/openapi.json");

pub async fn document(State(state): State<Arc<SandboxState>>) -> Json<Value> {
    let mut document: Value = serde_json::from_str(DOCUMENT).expect("openapi.json is valid JSON (a test reads it)");
    document["servers"] = json!([{ "url": state.base_url }]);
    Json(document)
}
