//! Fault injection, the sandbox's "test card numbers" for the network: an account arms a fault, and its next
//! matching requests answer with that status (and `Retry-After`), so clients can prove their retry and error paths.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::SandboxState;
use crate::auth::{Authenticated, authenticate};
use crate::body::JsonBody;
use crate::error::SandboxError;

/// What to simulate: `times` requests of `method path` answer `status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultSpec {
    pub method: String,
    /// The full path, e.g. `/v2/user`.
    pub path: String,
    pub status: u16,
    /// Seconds, sent as `Retry-After`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    #[serde(default = "one")]
    pub times: u32,
}

fn one() -> u32 {
    1
}

/// A fault as armed, with how often it fired.
#[derive(Debug, Clone, Serialize)]
struct Armed {
    #[serde(flatten)]
    spec: FaultSpec,
    remaining: u32,
    hits: u32,
}

/// The armed faults of every account, by account uid.
#[derive(Debug, Default)]
pub struct Faults {
    by_account: Mutex<HashMap<String, Vec<Armed>>>,
}

impl Faults {
    fn arm(&self, account: &str, spec: FaultSpec) {
        let remaining = spec.times;
        self.lock().entry(account.to_string()).or_default().push(Armed { spec, remaining, hits: 0 });
    }

    /// The fault that answers this request instead of the sandbox, if one is armed.
    fn take(&self, account: &str, method: &str, path: &str) -> Option<FaultSpec> {
        let mut faults = self.lock();
        let armed = faults
            .get_mut(account)?
            .iter_mut()
            .find(|f| f.remaining > 0 && f.spec.method.eq_ignore_ascii_case(method) && f.spec.path == path)?;
        armed.remaining -= 1;
        armed.hits += 1;
        Some(armed.spec.clone())
    }

    fn list(&self, account: &str) -> Vec<Armed> {
        self.lock().get(account).cloned().unwrap_or_default()
    }

    fn clear(&self, account: &str) {
        self.lock().remove(account);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Armed>>> {
        // A panic elsewhere cannot leave this map half-written: every change is one statement.
        self.by_account.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `/sandbox/faults`: `POST` arms one, `GET` lists the account's faults with their hits, `DELETE` clears them.
pub fn routes() -> Router<Arc<SandboxState>> {
    Router::new().route("/faults", get(list).post(arm).delete(clear))
}

async fn arm(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    JsonBody(spec): JsonBody<FaultSpec>,
) -> Result<Json<serde_json::Value>, SandboxError> {
    if !(400..=599).contains(&spec.status) {
        return Err(SandboxError::BadRequest("status: simulate an error status, 400 to 599.".into()));
    }
    if !spec.path.starts_with("/v1/") && !spec.path.starts_with("/v2/") {
        return Err(SandboxError::BadRequest("path: give a contract path such as /v2/user.".into()));
    }
    state.faults.arm(&account.uid, spec);
    Ok(Json(json!({ "faults": state.faults.list(&account.uid) })))
}

async fn list(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
) -> Json<serde_json::Value> {
    Json(json!({ "faults": state.faults.list(&account.uid) }))
}

async fn clear(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
) -> Json<serde_json::Value> {
    state.faults.clear(&account.uid);
    Json(json!({ "message": "All faults cleared." }))
}

/// Middleware: answers with an armed fault instead of the sandbox when one matches the request.
pub async fn inject(State(state): State<Arc<SandboxState>>, request: Request, next: Next) -> Response {
    if let Ok(account) = authenticate(request.headers(), &state.accounts)
        && let Some(fault) = state.faults.take(&account.uid, request.method().as_str(), request.uri().path())
    {
        let status = StatusCode::from_u16(fault.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        let message = format!("Simulated {} from the sandbox's fault injection.", fault.status);
        let mut response = (status, Json(json!({ "message": message }))).into_response();
        if let Some(seconds) = fault.retry_after {
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        return response;
    }
    next.run(request).await
}
