//! Uploads: a photo sent raw or as a form is checked to be an image the service takes, cleared of location metadata
//! (pixels and orientation untouched), stored under its subject's quota for the retention period, and served at an
//! address the service can fetch.

use std::io::Cursor;

use image::{ImageDecoder, ImageFormat, RgbImage};
use img_parts::jpeg::{Jpeg, JpegSegment, markers};
use img_parts::{Bytes, ImageEXIF};
use serde_json::Value;

use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, alice_and_bob, create_render};

/// A big-endian EXIF block: a description naming a place, orientation 6 (rotate 90), and a GPS directory.
fn exif_with_location() -> Vec<u8> {
    let mut tiff = b"MM\0\x2a\0\0\0\x08".to_vec();
    let entry = |tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        [&tag.to_be_bytes()[..], &kind.to_be_bytes(), &count.to_be_bytes(), &value].concat()
    };
    tiff.extend_from_slice(&3u16.to_be_bytes());
    tiff.extend(entry(0x010E, 2, 14, 50u32.to_be_bytes())); // ImageDescription at offset 50
    tiff.extend(entry(0x0112, 3, 1, [0, 6, 0, 0])); // Orientation: rotate 90
    tiff.extend(entry(0x8825, 4, 1, 64u32.to_be_bytes())); // GPS directory at offset 64
    tiff.extend_from_slice(&0u32.to_be_bytes());
    tiff.extend_from_slice(b"Lat 48.8584 N\0");
    tiff.extend_from_slice(&1u16.to_be_bytes());
    tiff.extend(entry(0x0001, 2, 2, *b"N\0\0\0")); // GPSLatitudeRef
    tiff.extend_from_slice(&0u32.to_be_bytes());
    tiff
}

fn photo() -> RgbImage {
    RgbImage::from_fn(64, 48, |x, y| image::Rgb([(x * 4) as u8, (y * 5) as u8, 128]))
}

pub fn jpeg_with_location() -> Vec<u8> {
    let mut plain = Vec::new();
    photo().write_to(&mut Cursor::new(&mut plain), ImageFormat::Jpeg).unwrap();
    let mut jpeg = Jpeg::from_bytes(plain.into()).unwrap();
    jpeg.set_exif(Some(Bytes::from(exif_with_location())));
    let xmp = b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude></x:xmpmeta>";
    jpeg.segments_mut().insert(1, JpegSegment::new_with_contents(markers::APP1, Bytes::from_static(xmp)));
    jpeg.segments_mut().insert(1, JpegSegment::new_with_contents(markers::COM, Bytes::from_static(b"12 Home Street")));
    jpeg.encoder().bytes().to_vec()
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

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

#[tokio::test]
async fn a_form_upload_is_accepted_and_non_images_are_refused() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();
    let mut png = Vec::new();
    photo().write_to(&mut Cursor::new(&mut png), ImageFormat::Png).unwrap();
    let form = reqwest::multipart::Form::new()
        .text("purpose", "mask")
        .part("file", reqwest::multipart::Part::bytes(png).file_name("mask.png").mime_str("image/png").unwrap());
    let uploaded: Value = http.post(server.api("/uploads")).multipart(form).send().await.unwrap().json().await.unwrap();
    let url = uploaded["url"].as_str().unwrap();
    assert!(url.ends_with(".png"), "{uploaded}");
    assert_eq!(reqwest::get(url).await.unwrap().headers()["content-type"], "image/png");

    let mut truncated = jpeg_with_location();
    truncated.truncate(truncated.len() / 2);
    for (body, status, words) in [
        (b"just some text".to_vec(), 415, "not an image"),
        (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec(), 415, "JPEG, PNG or WebP"),
        (truncated, 400, "not a readable image"),
        (Vec::new(), 400, "empty"),
        (vec![0xFF; 25 * 1024 * 1024 + 1], 413, "25 MB"),
    ] {
        let response = http.post(server.api("/uploads")).body(body).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{words}");
        let answer: Value = response.json().await.unwrap();
        assert!(answer["message"].as_str().unwrap().contains(words), "{answer}");
    }
    for name in ["nothere.jpg", "00000000000000000000000000000000.jpg", "..%2Fvstage.sqlite3"] {
        assert_eq!(http.get(server.api(&format!("/uploads/{name}"))).send().await.unwrap().status(), 404, "{name}");
    }
}

/// A JPEG whose header claims `width`x`height` over the pixels of a small photo: its size is read, its pixels
/// would not decode.
fn jpeg_claiming(width: u16, height: u16) -> Vec<u8> {
    let mut jpeg = Vec::new();
    photo().write_to(&mut Cursor::new(&mut jpeg), ImageFormat::Jpeg).unwrap();
    let frame = jpeg.windows(2).position(|marker| marker == [0xFF, 0xC0]).expect("a baseline frame header");
    jpeg[frame + 5..frame + 7].copy_from_slice(&height.to_be_bytes());
    jpeg[frame + 7..frame + 9].copy_from_slice(&width.to_be_bytes());
    jpeg
}

#[tokio::test]
async fn a_photo_over_the_services_size_is_refused_before_it_is_decoded() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();
    let response = http.post(server.api("/uploads")).body(jpeg_claiming(10_000, 6_000)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 413);
    let answer: Value = response.json().await.unwrap();
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains("10000x6000") && message.contains("50 megapixels"), "{message}");
    // just under the limit, the size passes (the decoder then makes what it can of the pixels)
    let response = http.post(server.api("/uploads")).body(jpeg_claiming(8_000, 6_000)).send().await.unwrap();
    assert_ne!(response.status().as_u16(), 413);
}

/// A PNG of noise that takes about `kilobytes` KB: it does not compress.
fn noise_png(kilobytes: u32) -> Vec<u8> {
    let side = (kilobytes * 1024 / 3).isqrt();
    let mut state = 0x2545_F491_u32;
    let image = RgbImage::from_fn(side, side, |_, _| {
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        };
        image::Rgb([next(), next(), next()])
    });
    let mut png = Vec::new();
    image.write_to(&mut Cursor::new(&mut png), ImageFormat::Png).unwrap();
    png
}

#[tokio::test]
async fn uploads_are_bounded_per_subject_and_removed_after_the_retention_period() {
    let dist = widget_dir();
    let server = Server::start_with(
        dist.path(),
        &["--access", "token", "--upload-quota-mb", "1", "--upload-retention", "3s"],
        &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)],
    )
    .await;
    let http = reqwest::Client::new();
    let (alice, bob) = alice_and_bob().await;
    let photo = noise_png(600);
    let upload = |token: &str| http.post(server.api("/uploads")).bearer_auth(token).body(photo.clone()).send();

    let first = upload(&alice).await.unwrap();
    assert_eq!(first.status().as_u16(), 200);
    let first: Value = first.json().await.unwrap();
    let refused = upload(&alice).await.unwrap();
    assert_eq!(refused.status().as_u16(), 507, "a second 600 KB photo is over alice's 1 MB");
    let answer: Value = refused.json().await.unwrap();
    assert!(answer["message"].as_str().unwrap().contains("1 MB you may keep"), "{answer}");
    assert_eq!(upload(&bob).await.unwrap().status().as_u16(), 200, "bob has a quota of his own");

    // past the retention period the photos are gone (the sweep runs every second), and alice's room with them
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    while http.get(first["url"].as_str().unwrap()).send().await.unwrap().status().as_u16() != 404 {
        assert!(tokio::time::Instant::now() < deadline, "an upload past its retention period is removed");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(upload(&alice).await.unwrap().status().as_u16(), 200, "alice may upload again");
}
