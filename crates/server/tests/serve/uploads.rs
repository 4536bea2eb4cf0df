//! An upload over real HTTP, cleared of location metadata (pixels and orientation untouched), kept out of the log
//! and served at an address the service can fetch. (The other upload tests run in-process, in
//! `src/storage/uploads/served.rs`.)

use std::io::Cursor;

use image::ImageDecoder;
use serde_json::Value;

use crate::create_render;
use crate::photos::{contains, jpeg_with_location};
use crate::support::{Server, widget_dir};

fn orientation(jpeg: &[u8]) -> image::metadata::Orientation {
    image::codecs::jpeg::JpegDecoder::new(Cursor::new(jpeg)).unwrap().orientation().unwrap()
}

#[tokio::test]
async fn a_photo_loses_its_location_but_not_its_pixels_or_orientation() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let original = jpeg_with_location();
    assert!(contains(&original, b"48.8584") && contains(&original, b"GPSLatitude") && contains(&original, b"Home"));

    let response = reqwest::Client::new()
        .post(server.api("/uploads"))
        .header("Content-Type", "image/jpeg")
        .body(original.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let uploaded: Value = response.json().await.unwrap();
    assert_eq!((uploaded["width"].as_u64(), uploaded["height"].as_u64()), (Some(64), Some(48)));
    let url = uploaded["url"].as_str().unwrap();
    assert!(url.starts_with(&format!("{}/api/uploads/", server.url)) && url.ends_with(".jpg"), "{url}");
    // Its name is what lets anyone read it: not for the log.
    let name = url.rsplit('/').next().unwrap().trim_end_matches(".jpg");
    let logs = server.wait_for_output("stored an upload").await;
    assert!(!logs.contains(name), "{logs}");

    let stored = reqwest::get(url).await.unwrap();
    assert_eq!(stored.headers()["content-type"], "image/jpeg");
    let stored = stored.bytes().await.unwrap().to_vec();
    for secret in [&b"48.8584"[..], b"GPSLatitude", b"Home Street"] {
        assert!(!contains(&stored, secret), "{} is still in the file", String::from_utf8_lossy(secret));
    }
    assert_eq!(orientation(&stored), image::metadata::Orientation::Rotate90, "the photo still stands upright");
    let pixels = |bytes: &[u8]| image::load_from_memory(bytes).unwrap().to_rgb8().into_raw();
    assert_eq!(pixels(&stored), pixels(&original), "the picture itself is untouched");

    // the service can fetch it: a render of the upload completes
    let render = create_render(&server, None, url, true).await;
    assert_eq!(render["variations"]["items"][0]["status"], "done", "{render}");
}
