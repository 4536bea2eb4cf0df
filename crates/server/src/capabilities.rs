//! `GET /api/capabilities`: what this server offers the widget, from how it was started and, for live events,
//! whether the service's deliveries verify here. Only what is really served is announced; the widget falls back
//! for the rest (polling instead of events).

use std::sync::Arc;

use axum::Json;
use axum::routing::{MethodRouter, get};
use vstage_api::Capabilities;

use crate::live::verification::Verification;

pub fn route(capabilities: Capabilities, verification: Arc<Verification>) -> MethodRouter {
    get(move || {
        let mut capabilities = capabilities.clone();
        capabilities.events &= !verification.is_failing();
        async move { Json(capabilities) }
    })
}
