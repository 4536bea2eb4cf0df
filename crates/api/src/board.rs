//! The listing board that `vstage serve` remembers for each subject (`GET/POST/DELETE /api/board`): which renders
//! an agent is staging together, each with the photo's name as the agent knows it. Not part of the service.

use serde::{Deserialize, Serialize};

/// The most renders one board holds: a listing has ten to forty rooms; a few listings fit.
pub const MAX_BOARD_RENDERS: usize = 200;

/// One render on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRender {
    pub render_id: String,
    /// The photo's name as the agent gave it (the file name, or the address's last part); may be empty.
    #[serde(default)]
    pub label: String,
}

/// `GET {base}/board`, and the answer to every change: the board's renders in the order they were added.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Board {
    #[serde(default)]
    pub renders: Vec<BoardRender>,
}

/// `POST {base}/board/renders`: renders added at the end (one already on the board keeps its place).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddToBoard {
    pub renders: Vec<BoardRender>,
}
