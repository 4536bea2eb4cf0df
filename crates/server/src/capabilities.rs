//! `GET /api/capabilities`: what this server offers the widget, from how it was started. Only what is really
//! served is announced; the widget falls back for the rest (polling instead of events). Nothing a caller sends
//! changes it.

use axum::Json;
use axum::routing::{MethodRouter, get};
use vstage_api::Capabilities;

pub fn route(capabilities: Capabilities) -> MethodRouter {
    get(move || {
        let capabilities = capabilities.clone();
        async move { Json(capabilities) }
    })
}
