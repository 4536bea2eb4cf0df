//! Uploads through the whole app, in-process: a photo sent raw or as a form is checked to be an image the service
//! takes, whole, refused when its header claims more pixels than the service's limit, served back with nothing of
//! its metadata (read by exiftool) and kept under its subject's quota for the retention period.

use std::io::Cursor;
use std::time::Duration;

use axum::http::Method;
use image::{ImageFormat, RgbImage};

use crate::testing::exiftool::assert_drawing_only;
use crate::testing::phone::{phone_jpeg, phone_png, phone_webp, plain_jpeg, samsung_motion_jpeg};
use crate::testing::photos::{jpeg_with_location, photo};
use crate::testing::{TestApp, text};

/// The path of an address on `server`.
fn path_of<'a>(server: &TestApp, url: &'a str) -> &'a str {
    url.strip_prefix(&server.url).expect("an address on the server")
}

#[tokio::test]
async fn a_form_upload_is_accepted_and_non_images_are_refused() {
    let server = TestApp::start(&[]).await;
    let mut png = Vec::new();
    photo().write_to(&mut Cursor::new(&mut png), ImageFormat::Png).unwrap();
    let form =
        server.ask(Method::POST, "/api/uploads").form(("file", "mask.png", "image/png"), &png, &[("purpose", "mask")]);
    let (status, uploaded) = form.answer().await;
    assert_eq!(status, 200, "{uploaded}");
    let url = uploaded["url"].as_str().unwrap();
    assert!(url.ends_with(".png"), "{uploaded}");
    assert_eq!(server.get(path_of(&server, url)).await.headers()["content-type"], "image/png");

    let mut truncated = jpeg_with_location();
    truncated.truncate(truncated.len() / 2);
    for (body, status, words) in [
        (b"just some text".to_vec(), 415, "not an image"),
        (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec(), 415, "JPEG, PNG or WebP"),
        (truncated, 400, "cut short"),
        (Vec::new(), 400, "empty"),
        (vec![0xFF; 25 * 1024 * 1024 + 1], 413, "25 MB"),
    ] {
        let (code, answer) = server.ask(Method::POST, "/api/uploads").body(body).answer().await;
        assert_eq!(code, status, "{words}: {answer}");
        assert!(answer["message"].as_str().unwrap().contains(words), "{answer}");
    }
    for name in ["nothere.jpg", "00000000000000000000000000000000.jpg", "..%2Fvstage.sqlite3"] {
        assert_eq!(server.get(&format!("/api/uploads/{name}")).await.status(), 404, "{name}");
    }
}

#[tokio::test]
async fn a_phone_photo_is_served_back_with_only_what_draws_it_sent_raw_or_as_a_form() {
    let server = TestApp::start(&[]).await;
    for (photo, name, mime) in [
        (phone_jpeg(), "motion.jpg", "image/jpeg"),
        (samsung_motion_jpeg(), "samsung.jpg", "image/jpeg"),
        (phone_png(), "screen.png", "image/png"),
        (phone_webp(), "shared.webp", "image/webp"),
    ] {
        let raw = server.ask(Method::POST, "/api/uploads").header("content-type", mime).body(photo.clone());
        let form = server.ask(Method::POST, "/api/uploads").form(("file", name, mime), &photo, &[]);
        for (how, asking) in [("raw", raw), ("form", form)] {
            let (status, uploaded) = asking.answer().await;
            assert_eq!(status, 200, "{name} {how}: {uploaded}");
            let (head, served) = server.bytes(path_of(&server, uploaded["url"].as_str().unwrap())).await;
            assert_eq!(head.headers()["content-type"], mime);
            assert_eq!(uploaded["bytes"], served.len(), "{name} {how}");
            assert_drawing_only(&served, &format!("{name} sent {how}"));
            let pixels = |bytes: &[u8]| image::load_from_memory(bytes).unwrap().to_rgba8();
            assert!(pixels(&served) == pixels(&photo), "{name} {how}: the same pixels");
        }
    }
}

#[tokio::test]
async fn a_photo_cut_short_is_refused_with_what_to_do() {
    let server = TestApp::start(&[]).await;
    let jpeg = plain_jpeg();
    for at in [jpeg.len() * 3 / 10, jpeg.len() * 6 / 10, jpeg.len() - 1] {
        let (status, answer) = server.ask(Method::POST, "/api/uploads").body(jpeg[..at].to_vec()).answer().await;
        assert_eq!(status, 400, "cut at {at} of {}: {answer}", jpeg.len());
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains("cut short") && message.contains("upload the whole file"), "{message}");
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
    let server = TestApp::start(&[]).await;
    let (status, answer) = server.ask(Method::POST, "/api/uploads").body(jpeg_claiming(10_000, 6_000)).answer().await;
    assert_eq!(status, 413);
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains("10000x6000") && message.contains("50 megapixels"), "{message}");
    // just under the limit, the size passes (the decoder then makes what it can of the pixels)
    let (status, _) = server.ask(Method::POST, "/api/uploads").body(jpeg_claiming(8_000, 6_000)).answer().await;
    assert_ne!(status, 413);
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
    let server = TestApp::with_tokens(&["--upload-quota-mb", "1", "--upload-retention", "3s"]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = noise_png(600);
    let upload = |token: &str| server.ask(Method::POST, "/api/uploads").bearer(token).body(photo.clone()).answer();

    let (status, first) = upload(&alice).await;
    assert_eq!(status, 200, "{first}");
    let (status, answer) = upload(&alice).await;
    assert_eq!(status, 507, "a second 600 KB photo is over alice's 1 MB");
    assert!(answer["message"].as_str().unwrap().contains("1 MB you may keep"), "{answer}");
    assert_eq!(upload(&bob).await.0, 200, "bob has a quota of his own");

    // past the retention period the photos are gone (the sweep runs every second), and alice's room with them
    let first = path_of(&server, first["url"].as_str().unwrap()).to_string();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while text(server.get(&first).await).await.0 != 404 {
        assert!(tokio::time::Instant::now() < deadline, "an upload past its retention period is removed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(upload(&alice).await.0, 200, "alice may upload again");
}

#[test]
fn a_retention_is_said_in_words() {
    use std::time::Duration;
    assert_eq!(super::spoken(Duration::from_secs(30 * 86_400)), "30 days");
    assert_eq!(super::spoken(Duration::from_secs(86_400)), "1 day");
    assert_eq!(super::spoken(Duration::from_secs(12 * 3_600)), "12 hours");
    assert_eq!(super::spoken(Duration::from_secs(90)), "1m 30s");
}
