//! Each subject's listing board: the renders an agent stages together, in the order added, with the photo's name
//! as the agent knows it (for the rows and the board's ZIP). Removing a render from the board keeps the render.

use std::sync::Arc;

use vstage_api::board::{Board, BoardRender, MAX_BOARD_RENDERS};

use super::store::Store;
use crate::error::ServerError;

/// The longest label kept; a longer one is cut (it is a file name shown in a row).
const MAX_LABEL_CHARS: usize = 120;

#[derive(Debug, Clone)]
pub struct Boards {
    store: Arc<dyn Store>,
}

impl Boards {
    pub fn new(store: Arc<dyn Store>) -> Self {
        Boards { store }
    }

    /// `subject`'s board.
    pub async fn board(&self, subject: &str) -> Result<Board, ServerError> {
        self.store.board(subject).await
    }

    /// Adds `renders` at the end of `subject`'s board, in their order; one already there keeps its place and label.
    /// Refused whole when the board would hold more than `MAX_BOARD_RENDERS`.
    pub async fn add(&self, subject: &str, renders: Vec<BoardRender>) -> Result<Board, ServerError> {
        let renders: Vec<BoardRender> = renders
            .into_iter()
            .map(|render| BoardRender {
                label: render.label.trim().chars().take(MAX_LABEL_CHARS).collect(),
                render_id: render.render_id,
            })
            .collect();
        self.store.board_add(subject, &renders, MAX_BOARD_RENDERS).await
    }

    /// Takes `render_id` off `subject`'s board (nothing happens when it is not there).
    pub async fn remove(&self, subject: &str, render_id: String) -> Result<Board, ServerError> {
        self.store.board_remove(subject, &render_id).await
    }

    /// Empties `subject`'s board.
    pub async fn clear(&self, subject: &str) -> Result<Board, ServerError> {
        self.store.board_clear(subject).await?;
        Ok(Board::default())
    }
}
