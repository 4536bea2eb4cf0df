//! Variations processed for real: results that are images of their own (not copies), fetchable in three sizes,
//! removal before staging on its result, and failures with a message (`sandbox-fail`, unreachable photos).

use std::time::Duration;

use crate::support::{client, sandbox_allowing, sandbox_with};
use vstage_api::transport::NativeTransport;
use vstage_api::*;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

async fn fast_sandbox() -> RunningSandbox {
    sandbox_with(SandboxConfig { processing_ms: 20, ..SandboxConfig::new(vec!["k".into()]) }).await
}

fn render_of(image_url: String, config: Config, count: u64) -> CreateRender {
    CreateRender {
        image_urls: Vec::new(),
        image_url,
        configs: RenderConfigs::Single { config, variation_count: count },
        webhook_url: None,
        wait_for_completion: None,
    }
}

fn staging(removal: Option<RemovalMode>) -> Config {
    Config::Staging(StagingConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        add_furniture: AddFurniture { style: Style::Coastal, room_type: RoomType::Living, base_variation_id: None },
        remove_furniture: removal.map(|mode| RemoveFurniture { mode, mask_url: None }),
    })
}

/// Polls until every variation of the render is final.
async fn finished(client: &Client<NativeTransport>, render_id: &str) -> Vec<Variation> {
    for _ in 0..600 {
        let variations = client.all_variations(render_id).await.unwrap();
        if variations.iter().all(|v| v.status.is_final()) {
            return variations;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the variations of {render_id} did not finish within 30 s");
}

async fn image(url: &str) -> image::RgbImage {
    let bytes = reqwest::get(url).await.unwrap().bytes().await.unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgb8()
}

fn mean_difference(a: &image::RgbImage, b: &image::RgbImage) -> f64 {
    let total: u64 =
        a.pixels().zip(b.pixels()).flat_map(|(p, q)| p.0.iter().zip(q.0).map(|(x, y)| u64::from(x.abs_diff(y)))).sum();
    total as f64 / (u64::from(a.width()) * u64::from(a.height()) * 3) as f64
}

#[tokio::test]
async fn every_type_gives_its_own_image_in_three_sizes() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let photo_url = format!("{}/samples/living-furnished.jpg", sandbox.base_url());
    let photo = image(&photo_url).await;
    let configs = [
        staging(None),
        Config::RemovalOnly(RemovalOnlyConfig {
            output_resolution: None,
            add_virtually_staged_watermark: None,
            remove_furniture: RemoveFurniture { mode: RemovalMode::On, mask_url: None },
        }),
        Config::DayToDusk(DayToDuskConfig { sky_style: SkyStyle::Golden, output_resolution: None }),
        Config::Enhancement(EnhancementConfig { output_resolution: None }),
    ];
    for config in configs {
        let render = client.create_render(&render_of(photo_url.clone(), config.clone(), 1)).await.unwrap();
        let variations = finished(&client, &render.id).await;
        assert_eq!(variations[0].status, VariationStatus::Done, "{config:?}: {:?}", variations[0].error_message);
        let result = variations[0].result.as_ref().unwrap().primary().unwrap().clone();
        let full = image(&result.url).await;
        assert_eq!(full.dimensions(), photo.dimensions(), "{config:?}: default resolution keeps the size");
        assert!(mean_difference(&full, &photo) > 1.0, "{config:?}: not a copy of the input");
        let thumbnail = image(result.thumbnail_url.as_deref().unwrap()).await;
        assert!(thumbnail.width().max(thumbnail.height()) <= 400);
        image(result.optimized_url.as_deref().unwrap()).await;
    }
}

/// A numeric `output_resolution` is the long side in pixels; one the sandbox does not render is a 400 naming it.
#[tokio::test]
async fn a_numeric_resolution_is_the_long_side_in_pixels() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let photo_url = format!("{}/samples/living-empty.jpg", sandbox.base_url());
    let at =
        |pixels| Config::Enhancement(EnhancementConfig { output_resolution: Some(OutputResolution::Pixels(pixels)) });
    let render = client.create_render(&render_of(photo_url.clone(), at(1536), 1)).await.unwrap();
    let variations = finished(&client, &render.id).await;
    let full = image(&variations[0].result.as_ref().unwrap().primary().unwrap().url).await;
    assert_eq!(full.width().max(full.height()), 1536);

    let refused = client.create_render(&render_of(photo_url, at(99_999), 1)).await.unwrap_err();
    assert_eq!(refused.status(), Some(400));
    assert!(refused.to_string().contains("99999"), "{refused}");
}

#[tokio::test]
async fn variations_of_one_render_differ_and_staging_waits_for_its_removal() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let photo_url = format!("{}/samples/living-furnished.jpg", sandbox.base_url());
    let render = client.create_render(&render_of(photo_url, staging(Some(RemovalMode::On)), 2)).await.unwrap();
    let variations = finished(&client, &render.id).await;
    assert!(variations.iter().all(|v| v.status == VariationStatus::Done), "{variations:?}");
    let staged: Vec<&Variation> = variations.iter().filter(|v| v.kind == Some(VariationType::Staging)).collect();
    let first = image(&staged[0].result.as_ref().unwrap().primary().unwrap().url).await;
    let second = image(&staged[1].result.as_ref().unwrap().primary().unwrap().url).await;
    assert!(mean_difference(&first, &second) > 0.5, "two variations are two different rooms");
}

#[tokio::test]
async fn failures_carry_a_message_and_a_failed_base_fails_its_staging() {
    // port 9 (discard) answers nothing; allowed, so that the fetch is tried
    let sandbox = sandbox_allowing(&["http://127.0.0.1:9/".to_string()]).await;
    let client = client(&sandbox, "k");
    let failing = format!("{}/samples/sandbox-fail/living-empty.jpg", sandbox.base_url());
    let render = client.create_render(&render_of(failing, staging(Some(RemovalMode::On)), 1)).await.unwrap();
    let variations = finished(&client, &render.id).await;
    assert!(variations.iter().all(|v| v.status == VariationStatus::Error && v.result.is_none()));
    assert!(variations[0].error_message.as_deref().unwrap().contains("sandbox-fail"));
    assert!(variations[1].error_message.as_deref().unwrap().contains("base removal variation"));

    let unreachable = "http://127.0.0.1:9/room.jpg".to_string();
    let render = client.create_render(&render_of(unreachable, staging(None), 1)).await.unwrap();
    let variations = finished(&client, &render.id).await;
    assert!(variations[0].error_message.as_deref().unwrap().contains("could not be downloaded"), "{variations:?}");
}

#[tokio::test]
async fn the_samples_are_listed_and_served() {
    let sandbox = fast_sandbox().await;
    let index: serde_json::Value =
        reqwest::get(format!("{}/samples", sandbox.base_url())).await.unwrap().json().await.unwrap();
    let names: Vec<&str> = index.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["living-empty.jpg", "living-furnished.jpg", "bedroom-furnished.jpg", "exterior-day.jpg", "living-dim.jpg"]
    );
    for sample in index.as_array().unwrap() {
        let photo = image(sample["url"].as_str().unwrap()).await;
        assert!(photo.width() >= 640);
    }
    let missing = reqwest::get(format!("{}/samples/nope.jpg", sandbox.base_url())).await.unwrap();
    assert_eq!(missing.status().as_u16(), 404);
}

#[tokio::test]
async fn an_analysis_answers_done_with_a_mask_of_the_photos_size() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let photo_url = format!("{}/samples/living-furnished.jpg", sandbox.base_url());
    let analysis = client.analyze(&Analyze { image_url: photo_url.clone(), webhook_url: None }).await.unwrap();
    assert_eq!(analysis.status, AnalysisStatus::Done);
    assert!(analysis.id.starts_with("ana_"));
    let mask_bytes = reqwest::get(&analysis.result_url).await.unwrap().bytes().await.unwrap();
    let mask = image::load_from_memory(&mask_bytes).unwrap().to_luma8();
    assert_eq!(mask.dimensions(), image(&photo_url).await.dimensions());
    assert!(mask.pixels().all(|p| p.0[0] == 0 || p.0[0] == 255), "strictly black and white");
    let white =
        mask.pixels().filter(|p| p.0[0] == 255).count() as f64 * 100.0 / f64::from(mask.width() * mask.height());
    let reported = analysis.percentage_masked.unwrap();
    assert!((reported - white).abs() < 0.01, "{reported} vs {white}");
    assert!(reported > 1.0, "the furnished room has furniture");

    // a data URL works as well as an address
    let png = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &mask_bytes);
    client.analyze(&Analyze { image_url: format!("data:image/png;base64,{png}"), webhook_url: None }).await.unwrap();

    for bad in ["ftp://x/y.png", "https://has space/x.png", "data:image/png;base64,"] {
        let response = reqwest::Client::new()
            .post(format!("{}/v2/analyze", sandbox.base_url()))
            .header("Authorization", "Api-Key k")
            .json(&serde_json::json!({"image_url": bad}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{bad}");
    }
    let undecodable = format!(
        "data:image/png;base64,{}",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, b"not an image")
    );
    let error = client.analyze(&Analyze { image_url: undecodable, webhook_url: None }).await.unwrap_err();
    assert_eq!(error.status(), Some(422));
    assert!(error.to_string().contains("not an image"), "{error}");
}

/// A photo with nothing in it, as a data URL.
fn empty_room() -> String {
    let plain = image::RgbImage::from_pixel(160, 120, image::Rgb([200, 190, 180]));
    let mut png = Vec::new();
    plain.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
    format!("data:image/png;base64,{}", base64::Engine::encode(&base64::engine::general_purpose::STANDARD, png))
}

#[tokio::test]
async fn auto_removal_makes_no_removal_variation_when_there_is_no_furniture() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let empty = client.create_render(&render_of(empty_room(), staging(Some(RemovalMode::Auto)), 2)).await.unwrap();
    assert_eq!(empty.variation_items().len(), 2, "staging only");
    assert!(
        empty.variation_items().iter().all(|v| v.kind == Some(VariationType::Staging) && v.base_variation_id.is_none())
    );
    let more =
        AddVariations { config: staging(Some(RemovalMode::Auto)), variation_count: 1, wait_for_completion: None };
    assert_eq!(client.add_variations(&empty.id, &more, None).await.unwrap().variations.len(), 1);

    let furnished = format!("{}/samples/living-furnished.jpg", sandbox.base_url());
    let render = client.create_render(&render_of(furnished, staging(Some(RemovalMode::Auto)), 2)).await.unwrap();
    assert_eq!(render.variation_items().len(), 4, "a removal variation for each staged one");
    // `on` removes whatever the photo shows
    let render = client.create_render(&render_of(empty_room(), staging(Some(RemovalMode::On)), 1)).await.unwrap();
    assert_eq!(render.variation_items().len(), 2);
}

#[tokio::test]
async fn queued_and_interrupted_work_finishes_after_a_restart() {
    let data = tempfile::tempdir().unwrap();
    // The first sandbox takes ten minutes a variation, so whatever it takes is still at work when it stops, however
    // slow the machine; the second finishes in moments.
    let config = SandboxConfig {
        data_dir: Some(data.path().to_path_buf()),
        processing_ms: 600_000,
        ..SandboxConfig::new(vec!["k".into()])
    };
    let first = sandbox_with(config.clone()).await;
    // a data URL, so the photo is still there when the next sandbox (on another port) picks the work up
    let render = client(&first, "k").create_render(&render_of(empty_room(), staging(None), 4)).await.unwrap();
    // Stop it in the middle of work: as soon as a variation is being processed.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let now = client(&first, "k").all_variations(&render.id).await.unwrap();
        if now.iter().any(|v| v.status == VariationStatus::Rendering) {
            break;
        }
        assert!(
            now.iter().any(|v| v.status == VariationStatus::Queued),
            "finished before it could be stopped: {now:?}"
        );
        assert!(std::time::Instant::now() < deadline, "no variation started processing: {now:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(first);

    let second = sandbox_with(SandboxConfig { processing_ms: 20, ..config }).await;
    let client = client(&second, "k");
    let variations = finished(&client, &render.id).await;
    assert_eq!(variations.len(), 4);
    assert!(variations.iter().all(|v| v.status == VariationStatus::Done), "{variations:?}");
}

/// A photo host for the fetch limits: `/hops/N` redirects N times before the photo, `/big` sends 26 MB.
async fn photo_host(photo: Vec<u8>) -> String {
    use axum::extract::Path;
    use axum::response::{IntoResponse, Redirect};
    let photo = std::sync::Arc::new(photo);
    let app = axum::Router::new()
        .route(
            "/hops/{n}",
            axum::routing::get(move |Path(n): Path<u32>| {
                let photo = photo.clone();
                async move {
                    if n == 0 {
                        photo.as_ref().clone().into_response()
                    } else {
                        Redirect::temporary(&format!("/hops/{}", n - 1)).into_response()
                    }
                }
            }),
        )
        .route("/big", axum::routing::get(|| async { vec![0u8; 26 * 1024 * 1024] }));
    crate::support::host(app).await
}

#[tokio::test]
async fn photos_are_fetched_with_at_most_three_redirects_and_25_megabytes() {
    let host = photo_host(crate::support::sample_jpeg("living-furnished.jpg")).await;
    let sandbox = sandbox_allowing(&[format!("{host}/")]).await;
    let client = client(&sandbox, "k");
    let analyze = |url: String| Analyze { image_url: url, webhook_url: None };

    client.analyze(&analyze(format!("{host}/hops/3"))).await.unwrap();
    let error = client.analyze(&analyze(format!("{host}/hops/4"))).await.unwrap_err();
    assert_eq!(error.status(), Some(422));
    assert!(error.to_string().contains("redirects more than 3 times"), "{error}");

    let error = client.analyze(&analyze(format!("{host}/big"))).await.unwrap_err();
    assert!(error.to_string().contains("over 25 MB"), "{error}");
}

#[tokio::test]
async fn a_removal_with_a_mask_changes_only_what_the_mask_marks_and_keeps_the_mask() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let photo_url = format!("{}/samples/living-furnished.jpg", sandbox.base_url());
    let photo = image(&photo_url).await;
    let (width, height) = photo.dimensions();
    // a hand-made mask: one band across the middle of the photo
    let band = (height * 2 / 5)..(height * 3 / 5);
    let mask = image::GrayImage::from_fn(width, height, |_, y| image::Luma([if band.contains(&y) { 255 } else { 0 }]));
    let mut png = Vec::new();
    mask.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
    let mask_url =
        format!("data:image/png;base64,{}", base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &png));
    let removal = Config::RemovalOnly(RemovalOnlyConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        remove_furniture: RemoveFurniture { mode: RemovalMode::On, mask_url: Some(mask_url) },
    });
    let render = client.create_render(&render_of(photo_url, removal, 1)).await.unwrap();
    let variation = finished(&client, &render.id).await.remove(0);
    assert_eq!(variation.status, VariationStatus::Done, "{:?}", variation.error_message);
    let result = image(&variation.result.as_ref().unwrap().primary().unwrap().url).await;

    let rows = |image: &image::RgbImage, rows: std::ops::Range<u32>| {
        image::imageops::crop_imm(image, 0, rows.start, width, rows.end - rows.start).to_image()
    };
    let outside = 0..band.start - 8;
    let inside = band.start + 8..band.end - 8;
    let unchanged = mean_difference(&rows(&photo, outside.clone()), &rows(&result, outside));
    let changed = mean_difference(&rows(&photo, inside.clone()), &rows(&result, inside));
    assert!(unchanged < 3.0, "outside the mask the photo stays (mean difference {unchanged:.2})");
    assert!(changed > 3.0 * unchanged.max(1.0), "inside the mask it changes (mean difference {changed:.2})");

    let kept = reqwest::get(format!("{}/files/{}-mask.png", sandbox.base_url(), variation.id)).await.unwrap();
    assert_eq!(kept.status().as_u16(), 200);
    let kept = image::load_from_memory(&kept.bytes().await.unwrap()).expect("the kept mask is a PNG").into_luma8();
    assert_eq!(kept, mask, "the sandbox keeps the grey levels of the mask it was given");
}
