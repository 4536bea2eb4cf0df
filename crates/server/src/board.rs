//! `/api/board`: the listing board a subject returns to. Reading it, adding renders (with widget tokens, only the
//! subject's own), taking one off and starting again; the renders themselves are the service's and stay.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use vstage_api::board::{AddToBoard, Board, MAX_BOARD_RENDERS};

use crate::access::Subject;
use crate::error::ServerError;
use crate::storage::boards::Boards;
use crate::storage::ownership::{Kind, Ownership};

struct BoardState {
    boards: Boards,
    ownership: Ownership,
}

/// The routes, for the subject the access middleware found.
pub fn routes(boards: Boards, ownership: Ownership) -> Router {
    Router::new()
        .route("/board", get(read).delete(clear))
        .route("/board/renders", post(add))
        .route("/board/renders/{render_id}", delete(remove))
        .with_state(Arc::new(BoardState { boards, ownership }))
}

async fn read(
    State(state): State<Arc<BoardState>>,
    Extension(subject): Extension<Subject>,
) -> Result<Json<Board>, ServerError> {
    Ok(Json(state.boards.board(subject.as_str()).await?))
}

async fn add(
    State(state): State<Arc<BoardState>>,
    Extension(subject): Extension<Subject>,
    body: Bytes,
) -> Result<Json<Board>, ServerError> {
    let request: AddToBoard = serde_json::from_slice(&body).map_err(|error| {
        ServerError::BadRequest(format!(
            "The body must be {{\"renders\": [{{\"render_id\": \"...\", \"label\": \"...\"}}]}}: {error}"
        ))
    })?;
    if request.renders.is_empty() || request.renders.len() > MAX_BOARD_RENDERS {
        return Err(ServerError::BadRequest(format!("Add between 1 and {MAX_BOARD_RENDERS} renders at a time.")));
    }
    let ids: Vec<String> = request.renders.iter().map(|render| render.render_id.clone()).collect();
    for id in &ids {
        vstage_api::validate::id("render_id", id).map_err(|e| ServerError::BadRequest(e.to_string()))?;
    }
    // Someone else's render looks exactly like one that does not exist.
    if subject.by_token() && !state.ownership.owns_all(Kind::Render, ids, subject.as_str()).await? {
        return Err(ServerError::NotFound("One of these renders does not exist; check its id.".into()));
    }
    Ok(Json(state.boards.add(subject.as_str(), request.renders).await?))
}

async fn remove(
    State(state): State<Arc<BoardState>>,
    Extension(subject): Extension<Subject>,
    Path(render_id): Path<String>,
) -> Result<Json<Board>, ServerError> {
    Ok(Json(state.boards.remove(subject.as_str(), render_id).await?))
}

async fn clear(
    State(state): State<Arc<BoardState>>,
    Extension(subject): Extension<Subject>,
) -> Result<Json<Board>, ServerError> {
    Ok(Json(state.boards.clear(subject.as_str()).await?))
}

/// Through the whole app, in-process.
#[cfg(test)]
mod tests;
