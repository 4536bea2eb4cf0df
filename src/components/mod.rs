//! Reusable pieces of the studio's screens, one component per file.
//! They take plain values or signals and hold no global state of their own.

pub mod header;
pub mod mode_badge;
pub mod status_badge;
pub mod usage_meter;
