//! What the server keeps: its SQLite database (`db`), who created what (`ownership`), each subject's listing board
//! (`boards`), the browsers' uploads (`uploads`, cleared of location metadata by `metadata`), and the store kept
//! results go to (`objects`: a directory or S3).

pub mod boards;
pub mod db;
pub mod metadata;
pub mod objects;
pub mod ownership;
pub mod uploads;
