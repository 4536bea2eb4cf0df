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

#[cfg(test)]
mod tests {
    use crate::testing::{TestApp, json};

    #[tokio::test]
    async fn capabilities_say_what_this_server_offers() {
        let server = TestApp::start(&[]).await;
        let (status, capabilities) = json(server.get("/api/capabilities").await).await;
        assert_eq!(status, 200);
        assert_eq!(
            capabilities,
            serde_json::json!({"mode": "sandbox", "events": true, "uploads": true, "board": true, "access": "open",
                "content_credentials": crate::results::credentials::IN_THIS_BUILD})
        );
    }
}
