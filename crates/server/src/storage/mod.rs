//! What the server keeps: its SQLite database (`db`), who created what (`ownership`), and the browsers' uploads
//! (`uploads`, cleared of location metadata by `metadata`).

pub mod db;
pub mod metadata;
pub mod ownership;
pub mod uploads;
