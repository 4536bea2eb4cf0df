//! A render's ZIP through the whole app, in-process: its results named by photo and style, for its creator only,
//! and none while nothing is finished.
//! After them, its parts alone, called directly.

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
    // read as the header is: a token given with a line feed after it (a backend's text answer) works too
    assert_eq!(server.get(&format!("{zip}?access_token=%20{alice}%0A")).await.status(), 200);
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

use super::*;

#[test]
fn an_image_fetched_from_the_service_goes_into_a_zip_without_its_metadata_or_not_at_all() {
    let fetched = without_metadata(Bytes::from(crate::testing::phone::phone_jpeg())).unwrap();
    crate::testing::exiftool::assert_drawing_only(&fetched, "a result fetched for a ZIP");
    // what could not be cleared is not put in at all
    for other in [&b"%PDF-1.7"[..], b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", b"II*\x00\x08\x00\x00\x00"] {
        let refused = without_metadata(Bytes::copy_from_slice(other)).unwrap_err().to_string();
        assert!(refused.starts_with("A result is left out: the service sent a"), "{refused}");
    }
}

#[test]
fn names_come_from_the_photo_and_what_was_done() {
    assert_eq!(photo_name(None, Some("https://p.example/photos/Living%20Room.JPG?v=2"), "rnd_1"), "living-room");
    assert_eq!(photo_name(None, Some("data:image/png;base64,AAAA"), "rnd_1"), "rnd_1");
    assert_eq!(photo_name(None, None, "rnd_1"), "rnd_1");
    // never a path: what is left of a name made of dots and slashes is the render id
    assert_eq!(photo_name(None, Some("https://p.example/../..%2F..%2Fetc"), "rnd_1"), "rnd_1");
    // the agent's name for the photo comes first, when it has letters or digits
    assert_eq!(photo_name(Some("Master Bedroom.jpeg"), Some("https://u.example/a1b2.jpg"), "r"), "master-bedroom");
    assert_eq!(photo_name(Some("../.."), Some("https://u.example/a1b2.jpg"), "r"), "a1b2");
    assert_eq!(file_safe("Scandinavian / modern"), "scandinavian---modern");
}
