//! Each subject's listing board, as rows in order.

use super::*;

/// A board that would hold more than `max` renders.
pub(in crate::storage) fn board_full(max: usize) -> ServerError {
    ServerError::Conflict(format!("A board holds at most {max} renders; take some off or start a new board."))
}

#[async_trait]
pub trait BoardRecords: Send + Sync {
    /// `subject`'s board, in order.
    async fn board(&self, subject: &str) -> Result<Board, ServerError>;
    /// Adds `renders` at the end of the board in their order (one already there keeps its place and label);
    /// refused whole with a `Conflict` when the board would hold more than `max`.
    async fn board_add(&self, subject: &str, renders: &[BoardRender], max: usize) -> Result<Board, ServerError>;
    /// Takes `render_id` off the board (nothing happens when it is not there).
    async fn board_remove(&self, subject: &str, render_id: &str) -> Result<Board, ServerError>;
    async fn board_clear(&self, subject: &str) -> Result<(), ServerError>;
}
