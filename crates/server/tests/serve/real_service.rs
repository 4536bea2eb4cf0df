//! The proxy in front of a stand-in that answers as the real service does beyond the contract
//! (`support/real_service.rs`): what it sends reaches the browser as read, nothing refused for being unfamiliar.

use serde_json::Value;

use crate::support::real_service::{RENDER, RealService, user, variations};
use crate::support::{Server, widget_dir};

async fn behind_the_real_shapes() -> (tempfile::TempDir, Server, RealService) {
    let service = RealService::start().await;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--upstream", &service.url], &[("VSTAGE_API_KEY", "sk-real-shapes")]).await;
    (dist, server, service)
}

async fn get(server: &Server, path: &str) -> Value {
    let response = reqwest::get(server.api(path)).await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

#[tokio::test]
async fn an_unlimited_plan_reaches_the_browser_as_the_service_said_it() {
    let (_dist, server, _service) = behind_the_real_shapes().await;
    let account = get(&server, "/v2/user").await;
    assert_eq!(account["photoLimit"], user()["photoLimit"], "{account}");
    assert_eq!(account["photoLimit"]["imageEditing"], "UNLIMITED");
}

/// Every status, settled, pending or unknown, a multi-view result (an array), a numeric output resolution and a
/// `daytodusk` config are relayed as read, on the render and in the list.
#[tokio::test]
async fn every_variation_is_relayed_as_the_service_sent_it() {
    let (_dist, server, _service) = behind_the_real_shapes().await;
    let render = get(&server, &format!("/v2/renders/{RENDER}?include_variations=true")).await;
    let listed = get(&server, "/v2/renders").await;
    for items in [&render["variations"]["items"], &listed["items"][0]["variations"]["items"]] {
        let items = items.as_array().expect("the variations");
        let sent = variations();
        assert_eq!(items.len(), sent.len());
        for (relayed, sent) in items.iter().zip(&sent) {
            assert_eq!(relayed["id"], sent["id"]);
            assert_eq!(relayed["status"], sent["status"], "{relayed}");
            assert_eq!(relayed["config"], sent["config"], "{relayed}");
            assert_eq!(relayed["result"].as_array().map(Vec::len), sent["result"].as_array().map(Vec::len));
        }
        assert_eq!(items[0]["config"]["output_resolution"], 1536);
        assert_eq!(items[2]["error_message"], "Failed to process image");
    }
}
