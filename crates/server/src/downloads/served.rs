//! A render's ZIP through the whole app, in-process: its results named by photo and style, for its creator only,
//! and none while nothing is finished.

use serde_json::json;

use crate::testing::photos::pictures_in;
use crate::testing::{TestApp, json};

#[tokio::test]
async fn a_renders_results_come_as_one_zip_named_by_photo_and_style_for_its_creator_only() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let render = server.staged(&alice, &photo, 3).await;
    let zip = format!("/api/renders/{}/results.zip", render["id"].as_str().unwrap());

    // The token rides in the address, as a download link's must.
    let (head, bytes) = server.bytes(&format!("{zip}?access_token={alice}")).await;
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-type"], "application/zip");
    assert_eq!(head.headers()["content-disposition"], "attachment; filename=\"living-empty-results.zip\"");
    assert_eq!(
        pictures_in(&bytes),
        [
            "living-empty_living-room-scandinavian_01.jpg",
            "living-empty_living-room-scandinavian_02.jpg",
            "living-empty_living-room-scandinavian_03.jpg"
        ]
    );
    // bob cannot tell it from a render that does not exist, and no one without a token gets it
    assert_eq!(server.get(&format!("{zip}?access_token={bob}")).await.status(), 404);
    assert_eq!(server.get(&zip).await.status(), 401);
}

#[tokio::test]
async fn a_render_with_nothing_finished_has_no_zip_yet() {
    let server = TestApp::start(&[]).await;
    // a photo whose variations fail (the sandbox's fault switch)
    let photo = format!("{}?sandbox-fail", server.sample_url("living-empty.jpg").await);
    let render = server.create_render(None, &photo, json!({"type": "enhancement"}), true).await;
    let id = render["id"].as_str().unwrap();
    let (status, body) = json(server.get(&format!("/api/renders/{id}/results.zip")).await).await;
    assert_eq!(status, 409);
    assert!(body["message"].as_str().unwrap().contains("no finished result"), "{body}");
}
