//! `GET /api/references/{render_id}`: the host's references kept with a render (`listing_id`, `photo_id`,
//! `metadata`), for the studio's DOM events about a render it did not create in this page, and for the host's
//! backend. With widget tokens, only the subject's own renders (v2 or v1); another's looks like none.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Extension, Json, Router};
use vstage_api::host_reference::HostReference;

use crate::access::Subject;
use crate::error::ServerError;
use crate::storage::ownership::{Kind, Ownership};

/// The route, for the subject the access middleware found.
pub fn routes(ownership: Ownership) -> Router {
    Router::new().route("/references/{render_id}", get(read)).with_state(ownership)
}

async fn read(
    State(ownership): State<Ownership>,
    Extension(subject): Extension<Subject>,
    Path(render_id): Path<String>,
) -> Result<Json<HostReference>, ServerError> {
    vstage_api::validate::id("render_id", &render_id).map_err(|e| ServerError::BadRequest(e.to_string()))?;
    if subject.by_token() {
        let ids = vec![render_id.clone()];
        let owned = ownership.owns_all(Kind::Render, ids.clone(), subject.as_str()).await?
            || ownership.owns_all(Kind::V1Render, ids, subject.as_str()).await?;
        if !owned {
            return Err(ServerError::NotFound(format!("No render {render_id}; check the address.")));
        }
    }
    Ok(Json(ownership.reference_of(&render_id).await?))
}
