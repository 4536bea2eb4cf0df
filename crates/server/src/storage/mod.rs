//! What the server keeps: its SQLite database (`db`), who created what (`ownership`), each subject's listing board
//! (`boards`), and the browsers' uploads (`uploads`, cleared of location metadata by `metadata`).

pub mod boards;
pub mod db;
pub mod metadata;
pub mod ownership;
pub mod uploads;
