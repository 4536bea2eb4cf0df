//! The embedded sandbox's images, served through this server: its results and sample photos carry this server's
//! address (`/sandbox/files/...`, `/sandbox/samples/...`), so browsers and the service never need its loopback port.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::Method;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, LAST_MODIFIED};
use axum::response::Response;
use axum::routing::get;

use crate::error::ServerError;
use crate::upstream::Base;
use crate::upstream::http_client::{HttpClient, Outgoing};

/// Reading an image from the sandbox on this machine.
const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

#[derive(Debug)]
struct SandboxFiles {
    /// The sandbox's loopback address.
    sandbox: Base,
    http: HttpClient,
}

/// Routes for `/sandbox/...`, and `/api/samples`, reaching the sandbox at `sandbox`.
pub fn routes(sandbox: Base, http: HttpClient) -> (Router, Router) {
    let state = Arc::new(SandboxFiles { sandbox, http });
    let images = Router::new()
        .route("/sandbox/files/{*path}", get(file))
        .route("/sandbox/samples/{name}", get(sample))
        .with_state(state.clone());
    let index = Router::new().route("/samples", get(samples)).with_state(state);
    (images, index)
}

async fn file(State(files): State<Arc<SandboxFiles>>, Path(path): Path<String>) -> Result<Response, ServerError> {
    files.relay(&format!("/files/{}", checked(&path)?)).await
}

async fn sample(State(files): State<Arc<SandboxFiles>>, Path(name): Path<String>) -> Result<Response, ServerError> {
    files.relay(&format!("/samples/{}", checked(&name)?)).await
}

/// `GET /api/samples`: the sample photos (sandbox mode only).
async fn samples(State(files): State<Arc<SandboxFiles>>) -> Result<Response, ServerError> {
    files.relay("/samples").await
}

/// File names are plain: no traversal, no encoded tricks.
fn checked(path: &str) -> Result<&str, ServerError> {
    let plain = path.split('/').all(|part| {
        !part.is_empty()
            && part != ".."
            && part != "."
            && part.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    });
    if plain { Ok(path) } else { Err(ServerError::NotFound("No such image.".into())) }
}

impl SandboxFiles {
    async fn relay(&self, path: &str) -> Result<Response, ServerError> {
        let target =
            self.sandbox.target(path, None).map_err(|e| ServerError::Internal(format!("a sandbox image: {e}")))?;
        let request = Outgoing::new(Method::GET, target);
        let kept = [CONTENT_TYPE, CACHE_CONTROL, ETAG, LAST_MODIFIED];
        let answer = self.http.call(self.sandbox.origin(), request, &kept, TIMEOUT).await.map_err(|failure| {
            tracing::warn!(error = %failure, "the embedded sandbox did not answer");
            ServerError::BadGateway("The sandbox did not answer; restart vstage.".into())
        })?;
        let mut response = Response::new(Body::from(answer.body));
        *response.status_mut() = answer.status;
        *response.headers_mut() = answer.headers;
        crate::inert::as_inert(response.headers_mut());
        Ok(response)
    }
}
