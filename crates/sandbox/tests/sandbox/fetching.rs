//! Where the sandbox fetches photos and masks from: public addresses only, judged on what a name resolves to and
//! on every redirect, except the local sources it was started with; and a fetched mask kept only once it reads as
//! an image. Each photo host here is a real HTTP server on loopback.

use std::time::Duration;

use axum::extract::Query;
use axum::response::Redirect;
use axum::routing::get;
use vstage_api::*;
use vstage_sandbox::RunningSandbox;

use crate::support::{client, host, sample_jpeg, sandbox_allowing};

const PRIVATE: &str = "on this machine or a private network, which the service cannot fetch; give a public address";

/// A photo host: `/photo.jpg`, `/mask.png` (a black-and-white mask of the photo's size), `/mask.bin` (not an
/// image) and `/to?url=...` (a redirect to `url`).
async fn photo_host() -> String {
    let photo = sample_jpeg("living-furnished.jpg");
    let mask = image::GrayImage::from_fn(960, 640, |_, y| image::Luma([if y > 400 { 255 } else { 0 }]));
    let mut png = Vec::new();
    mask.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
    #[derive(serde::Deserialize)]
    struct To {
        url: String,
    }
    let app = axum::Router::new()
        .route("/photo.jpg", get(move || std::future::ready(photo.clone())))
        .route("/mask.png", get(move || std::future::ready(png.clone())))
        .route("/mask.bin", get(|| async { b"this is not an image".to_vec() }))
        .route("/to", get(|Query(To { url }): Query<To>| async move { Redirect::temporary(&url) }));
    host(app).await
}

/// The error an analysis of `image_url` answers (422), as the client words it.
async fn refused_analysis(sandbox: &RunningSandbox, image_url: &str) -> String {
    let analyze = Analyze { image_url: image_url.to_string(), webhook_url: None };
    let error = client(sandbox, "k").analyze(&analyze).await.expect_err(image_url);
    assert_eq!(error.status(), Some(422), "{image_url}: {error}");
    error.to_string()
}

/// A removal of the sandbox's own furnished sample with the mask at `mask_url`, once finished.
async fn removal_with_mask(sandbox: &RunningSandbox, mask_url: &str) -> Variation {
    let client = client(sandbox, "k");
    let config = Config::RemovalOnly(RemovalOnlyConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        remove_furniture: RemoveFurniture { mode: RemovalMode::On, mask_url: Some(mask_url.to_string()) },
    });
    let request = CreateRender {
        image_urls: Vec::new(),
        image_url: format!("{}/samples/living-furnished.jpg", sandbox.base_url()),
        configs: RenderConfigs::Single { config, variation_count: 1 },
        webhook_url: None,
        wait_for_completion: None,
    };
    let render = client.create_render(&request).await.unwrap();
    for _ in 0..1200 {
        let variation = client.all_variations(&render.id).await.unwrap().remove(0);
        if variation.status.is_final() {
            return variation;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the removal of {} did not finish", render.id);
}

#[tokio::test]
async fn a_name_that_resolves_to_this_machine_is_refused_for_photos_and_masks() {
    let photos = photo_host().await;
    let sandbox = sandbox_allowing(&[]).await;
    let port = photos.rsplit(':').next().unwrap();
    let mut names = vec!["localhost".to_string()];
    // this machine's own name too, where it resolves to loopback (it does on most machines, not on all)
    let machine = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default().trim().to_string();
    let found: Vec<_> = tokio::net::lookup_host((machine.as_str(), 0)).await.into_iter().flatten().collect();
    if !found.is_empty() && found.iter().all(|address| address.ip().is_loopback()) {
        names.push(machine);
    }
    for name in names {
        let photo = format!("http://{name}:{port}/photo.jpg");
        let error = refused_analysis(&sandbox, &photo).await;
        assert!(error.contains(&format!("The image at {photo} is {PRIVATE}.")), "{error}");

        let mask = format!("http://{name}:{port}/mask.png");
        let variation = removal_with_mask(&sandbox, &mask).await;
        assert_eq!(variation.status, VariationStatus::Error, "{mask}");
        let message = variation.error_message.unwrap();
        assert_eq!(message, format!("The mask at {mask} is {PRIVATE}."));
    }
}

#[tokio::test]
async fn loopback_and_metadata_addresses_are_refused_as_written() {
    let photos = photo_host().await;
    let sandbox = sandbox_allowing(&[]).await;
    let port = photos.rsplit(':').next().unwrap();
    for photo in [
        format!("{photos}/photo.jpg"),
        format!("http://[::ffff:7f00:1]:{port}/photo.jpg"),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        "http://[fd00:ec2::254]/latest/meta-data/".to_string(),
    ] {
        let error = refused_analysis(&sandbox, &photo).await;
        assert!(error.contains(&format!("The image at {photo} is {PRIVATE}.")), "{error}");
    }
}

#[tokio::test]
async fn an_allowed_local_source_is_fetched_but_may_not_redirect_to_one_that_is_not() {
    let allowed = photo_host().await;
    let elsewhere = photo_host().await;
    let sandbox = sandbox_allowing(&[format!("{allowed}/")]).await;
    let client = client(&sandbox, "k");

    let analysis = Analyze { image_url: format!("{allowed}/photo.jpg"), webhook_url: None };
    assert_eq!(client.analyze(&analysis).await.unwrap().status, AnalysisStatus::Done, "an allowed source works");
    let within = format!("{allowed}/to?url=/photo.jpg");
    let analysis = Analyze { image_url: within, webhook_url: None };
    assert_eq!(client.analyze(&analysis).await.unwrap().status, AnalysisStatus::Done, "and may redirect within");

    let onwards = format!("{elsewhere}/photo.jpg");
    let redirecting = format!("{allowed}/to?url={onwards}");
    let error = refused_analysis(&sandbox, &redirecting).await;
    assert!(error.contains(&format!("The image at {redirecting} leads to {onwards}, which is {PRIVATE}.")), "{error}");

    let mask = format!("{allowed}/to?url=http://localhost:{}/mask.png", elsewhere.rsplit(':').next().unwrap());
    let variation = removal_with_mask(&sandbox, &mask).await;
    assert_eq!(variation.status, VariationStatus::Error);
    assert!(variation.error_message.as_deref().unwrap().contains(PRIVATE), "{variation:?}");

    let variation = removal_with_mask(&sandbox, &format!("{allowed}/mask.png")).await;
    assert_eq!(variation.status, VariationStatus::Done, "{:?}", variation.error_message);
}

#[tokio::test]
async fn a_fetched_mask_that_is_not_an_image_is_refused_and_not_kept() {
    let photos = photo_host().await;
    let sandbox = sandbox_allowing(&[format!("{photos}/")]).await;
    let mask = format!("{photos}/mask.bin");
    let variation = removal_with_mask(&sandbox, &mask).await;
    assert_eq!(variation.status, VariationStatus::Error);
    let kept = format!("{}/files/{}-mask.png", sandbox.base_url(), variation.id);
    assert_eq!(reqwest::get(&kept).await.unwrap().status().as_u16(), 404, "{kept} is not served");
    let message = variation.error_message.unwrap();
    assert!(message.starts_with(&format!("The mask at {mask} cannot be used as a mask.")), "{message}");
    assert!(message.contains("not an image"), "{message}");
}
