//! The vstage widget: a virtual-staging studio in the browser, written with Leptos (client-side rendering), put on
//! any page as `<vstage-widget>`. It talks only to `vstage serve`'s `/api`; it never holds the service's key.

pub mod account;
pub mod api;
mod app;
mod chunks;
pub mod clock;
pub mod components;
pub mod config_draft;
pub mod crash;
pub mod describe;
pub mod embed;
pub mod hooks;
pub mod host;
pub mod live;
pub mod mask_editor;
pub mod pages;
pub mod route;
pub mod upload;
pub mod variation_plan;

pub use app::{App, ListingPhoto, StudioOptions};
