//! The studio's screens, one per route.
//! A page reads shared state from context and composes components.

pub mod account;
pub mod furniture_mask;
pub mod new_render;
pub mod not_found;
pub mod render_detail;
pub mod renders;
