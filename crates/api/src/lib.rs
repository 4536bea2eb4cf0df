//! The wire between the widget, the server and the Virtual Staging Image Service (`shared/API.md`).
//! Owns every request and response type, the checks of the contract's bounds, and the HTTP client.
//!
//! Read liberally, write strictly: unknown fields are ignored, unknown enum values are kept, and every bound the
//! contract states is checked before a request is sent.

pub mod client;
pub mod error;
pub mod transport;
pub mod user;

pub use client::{Auth, Client};
pub use error::ApiError;
pub use user::{PhotoCounts, User, UserIdentity};
