//! The vstage widget: a virtual-staging studio in the browser, written with Leptos (client-side rendering).
//! It talks only to `vstage serve` under `/api`, through `vstage-api`; it never holds the service's key.

pub mod account;
pub mod api;
mod app;
pub mod clock;
pub mod components;
pub mod config_draft;
pub mod describe;
pub mod live;
pub mod mask_editor;
pub mod pages;
pub mod upload;

pub use app::App;
