//! The studio's screens, one per route.
//! A page reads shared state from context and composes components.

pub mod home;
pub mod not_found;
