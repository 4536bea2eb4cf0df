//! The proxy in front of a stand-in that answers as the real service does beyond the contract
//! (`support/real_service.rs`): what it sends reaches the browser as read, nothing refused for being unfamiliar;
//! and the service's multi-view beta through the proxy.

use serde_json::{Value, json};

use crate::support::real_service::{RENDER, RealService, user, variations};
use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, alice_and_bob, sample_url};

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

/// Multi-view staging through the proxy, with a token: the compatibility check and a render of two photos reach
/// the sandbox; a photo on a private address among the views is refused before anything is sent.
#[tokio::test]
async fn multi_view_staging_goes_through_with_its_photos_checked() {
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--access", "token"], &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    let (alice, _) = alice_and_bob().await;
    let photos = [sample_url(&server, "living-empty.jpg").await, sample_url(&server, "living-furnished.jpg").await];
    let http = reqwest::Client::new();
    let check = http.post(server.api("/v2/multi-view-compatability")).bearer_auth(&alice);
    let answer: Value = check.json(&json!({"image_urls": photos})).send().await.unwrap().json().await.unwrap();
    assert_eq!(answer, json!({"compatible": true}));

    let render = json!({"image_urls": photos, "variation_count": 1, "wait_for_completion": true,
                        "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "coastal"}}});
    let response = http.post(server.api("/v2/renders")).bearer_auth(&alice).json(&render).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let created: Value = response.json().await.unwrap();
    let views = created["variations"]["items"][0]["result"].as_array().expect("one image per photo");
    assert_eq!(views.len(), 2, "{created}");

    let private = json!({"image_urls": [photos[0].clone(), "http://169.254.169.254/latest/meta-data/photo.jpg"]});
    let response = http.post(server.api("/v2/multi-view-compatability")).bearer_auth(&alice).json(&private);
    let response = response.send().await.unwrap();
    assert_eq!(response.status(), 400);
    let refused: Value = response.json().await.unwrap();
    assert!(refused["message"].as_str().unwrap().contains("image_urls[1]"), "{refused}");
}
