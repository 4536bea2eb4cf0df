//! Multi-view staging, the service's beta: photos of one room staged together, each variation's result one image
//! per photo, staged alike; `POST /v2/multi-view-compatability`; and the beta's limits as sentences.

use std::time::Duration;

use base64::Engine;
use reqwest::Method;
use serde_json::{Value, json};
use vstage_sandbox::{RunningSandbox, SandboxConfig};

use crate::support::{answer, raw, sandbox_with};

async fn fast_sandbox() -> RunningSandbox {
    sandbox_with(SandboxConfig { processing_ms: 20, ..SandboxConfig::new(vec!["k".into()]) }).await
}

fn sample(sandbox: &RunningSandbox, name: &str) -> String {
    format!("{}/samples/{name}", sandbox.base_url())
}

/// A small photo, of another size than the samples, as a data URL.
fn small_photo() -> String {
    let mut jpeg = Vec::new();
    image::RgbImage::from_pixel(64, 48, image::Rgb([200, 190, 180]))
        .write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
        .unwrap();
    format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(jpeg))
}

fn staging(room_type: &str, removal: Option<&str>) -> Value {
    let mut config = json!({"type": "staging", "add_furniture": {"room_type": room_type, "style": "modern"}});
    if let Some(mode) = removal {
        config["remove_furniture"] = json!({"mode": mode});
    }
    config
}

async fn create(sandbox: &RunningSandbox, photos: &[String], config: Value, count: u64) -> (u16, Value) {
    let body = json!({"image_urls": photos, "config": config, "variation_count": count});
    answer(raw(sandbox, Method::POST, "/v2/renders", "k").json(&body)).await
}

async fn image(url: &str) -> image::RgbImage {
    image::load_from_memory(&reqwest::get(url).await.unwrap().bytes().await.unwrap()).unwrap().to_rgb8()
}

#[tokio::test]
async fn photos_of_one_size_are_compatible_and_others_are_told_why_not() {
    let sandbox = fast_sandbox().await;
    let check = |photos: Vec<String>| {
        answer(raw(&sandbox, Method::POST, "/v2/multi-view-compatability", "k").json(&json!({"image_urls": photos})))
    };
    let (status, same) =
        check(vec![sample(&sandbox, "living-empty.jpg"), sample(&sandbox, "living-furnished.jpg")]).await;
    assert_eq!((status, same), (200, json!({"compatible": true})));
    let (status, other) = check(vec![sample(&sandbox, "living-empty.jpg"), small_photo()]).await;
    assert_eq!(status, 200, "{other}");
    assert_eq!(other["compatible"], false);
    assert!(other["message"].as_str().unwrap().contains("64 x 48 px"), "{other}");
    let (status, one) = check(vec![sample(&sandbox, "living-empty.jpg")]).await;
    assert_eq!(status, 400, "{one}");
}

/// Each variation's result is one image per photo, each the size of its photo; two photos of the same room get
/// the same furniture (the variation, not the photo, chooses it), two variations different furniture.
#[tokio::test]
async fn each_variation_stages_every_photo_alike() {
    let sandbox = fast_sandbox().await;
    let room = sample(&sandbox, "living-empty.jpg");
    let (status, created) = create(&sandbox, &[room.clone(), room.clone()], staging("living", None), 2).await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["image_url"], room.as_str(), "the first photo is the render's photo");
    let path = format!("/v2/renders/{id}?include_variations=true");
    let mut render = Value::Null;
    for _ in 0..1200 {
        render = answer(raw(&sandbox, Method::GET, &path, "k")).await.1;
        if render["variations"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["status"] == "done" || v["status"] == "error")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let items = render["variations"]["items"].as_array().unwrap();
    let photo = image(&room).await;
    let mut firsts = Vec::new();
    for variation in items {
        assert_eq!(variation["status"], "done", "{variation}");
        let views = variation["result"].as_array().expect("one image per photo");
        assert_eq!(views.len(), 2);
        let (one, two) =
            (image(views[0]["url"].as_str().unwrap()).await, image(views[1]["url"].as_str().unwrap()).await);
        assert_eq!(one.dimensions(), photo.dimensions());
        assert_eq!(one, two, "the same room gets the same furniture in both views");
        assert_ne!(one, photo, "staged, not copied");
        firsts.push(one);
    }
    assert_ne!(firsts[0], firsts[1], "two variations are two arrangements");
}

#[tokio::test]
async fn the_betas_limits_are_sentences() {
    let sandbox = fast_sandbox().await;
    let room = sample(&sandbox, "living-empty.jpg");
    let two = [room.clone(), sample(&sandbox, "bedroom-furnished.jpg")];
    for (config, photos, expected_status, words) in [
        (staging("kitchen", None), two.to_vec(), 400, "living rooms and bedrooms"),
        (staging("bed", Some("on")), two.to_vec(), 400, "without removing furniture"),
        (json!({"type": "enhancement"}), two.to_vec(), 400, "living rooms and bedrooms"),
        (staging("living", None), vec![room.clone(); 4], 400, "2 to 3 photos"),
        (staging("living", None), vec![room.clone(), small_photo()], 422, "the same size"),
    ] {
        let (status, refused) = create(&sandbox, &photos, config.clone(), 1).await;
        assert_eq!(status, expected_status, "{config}: {refused}");
        assert!(refused["message"].as_str().unwrap().contains(words), "{config}: {refused}");
    }

    let (_, created) = create(&sandbox, &two, staging("bed", None), 1).await;
    let add = json!({"config": staging("living", Some("auto")), "variation_count": 1});
    let path = format!("/v2/renders/{}/variations", created["id"].as_str().unwrap());
    let (status, refused) = answer(raw(&sandbox, Method::POST, &path, "k").json(&add)).await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("without removing furniture"), "{refused}");
}
