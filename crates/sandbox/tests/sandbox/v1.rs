//! The legacy v1 API over real HTTP: ping and options, the three modes of create (JSON and multipart), `auto`
//! decluttering only a furnished room, the render object in each status, create-variation only when done (409
//! otherwise), the 50-in-progress limit (429), and v1 renders seen through v2 with `legacy_staging` configs.

use std::time::Duration;

use crate::support::{answer, client, raw, sandbox_with};
use reqwest::Method;
use serde_json::{Value, json};
use vstage_api::*;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

async fn fast_sandbox(processing_ms: u64) -> RunningSandbox {
    sandbox_with(SandboxConfig { processing_ms, ..SandboxConfig::new(vec!["k".into()]) }).await
}

fn photo(sandbox: &RunningSandbox) -> String {
    format!("{}/samples/living-furnished.jpg", sandbox.base_url())
}

async fn v1_render(sandbox: &RunningSandbox, render_id: &str) -> v1::Render {
    client(sandbox, "k").v1_render(render_id).await.unwrap()
}

async fn until_done(sandbox: &RunningSandbox, render_id: &str) -> v1::Render {
    for _ in 0..1200 {
        let render = v1_render(sandbox, render_id).await;
        if render.status == v1::Status::Done || render.status == v1::Status::Error {
            return render;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("render {render_id} did not finish");
}

#[tokio::test]
async fn ping_and_options() {
    let sandbox = fast_sandbox(20).await;
    let client = client(&sandbox, "k");
    let ping = client.v1_ping().await.unwrap();
    assert_eq!((ping.photo_limit, ping.photos_used_this_period), (100.0, 0.0));
    assert!(ping.user.unwrap().uid.starts_with("acct_"));
    let options = client.v1_options().await.unwrap();
    assert_eq!(options.room_types, v1::ROOM_TYPES);
    assert_eq!(options.styles, v1::STYLES, "one list, for create and create-variation alike");
    assert!(options.variation_styles.is_empty());
}

/// `render_id` of create-variation in the body, where the query has none; a sentence when neither has it.
#[tokio::test]
async fn create_variation_finds_its_render_in_the_body_too() {
    let sandbox = fast_sandbox(20).await;
    let request = v1::CreateRender {
        image_url: Some(photo(&sandbox)),
        room_type: Some(RoomType::Living),
        style: Some(Style::Modern),
        ..Default::default()
    };
    let created = client(&sandbox, "k").v1_create_render(&request).await.unwrap();
    let body = json!({"render_id": created.render_id, "style": "industrial"});
    let (status, answered) = answer(raw(&sandbox, Method::POST, "/v1/render/create-variation", "k").json(&body)).await;
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["render_id"], created.render_id.as_str());
    let rendered = until_done(&sandbox, &created.render_id).await;
    assert_eq!(rendered.outputs_styles, ["modern", "industrial"]);

    let (status, refused) =
        answer(raw(&sandbox, Method::POST, "/v1/render/create-variation", "k").json(&json!({}))).await;
    assert_eq!(status, 400);
    assert!(refused["message"].as_str().unwrap().contains("render_id"), "{refused}");
}

#[tokio::test]
async fn staging_waits_by_default_and_declutter_gives_two_images() {
    let sandbox = fast_sandbox(20).await;
    let client = client(&sandbox, "k");
    let staging = v1::CreateRender {
        image_url: Some(photo(&sandbox)),
        room_type: Some(RoomType::Living),
        style: Some(Style::Modern),
        ..Default::default()
    };
    let created = client.v1_create_render(&staging).await.unwrap();
    assert!(created.result_image_url.is_some(), "waited for completion by default");
    assert!(created.removal_output.is_none());
    let render = v1_render(&sandbox, &created.render_id).await;
    assert_eq!(render.status, v1::Status::Done);
    assert_eq!(render.outputs, [created.result_image_url.clone().unwrap()]);
    assert_eq!(
        (render.outputs_room_types.clone(), render.outputs_styles.clone()),
        (vec!["living".into()], vec!["modern".into()])
    );
    assert_eq!(render.progress, Some(1.0));

    let both = v1::CreateRender { declutter_mode: Some(RemovalMode::On), add_furniture: Some(true), ..staging.clone() };
    let created = client.v1_create_render(&both).await.unwrap();
    assert!(created.removal_output.is_some() && created.result_image_url.is_some());
    assert_ne!(created.removal_output, created.result_image_url);
    // the decluttered output is named as the service names it, and the staged one is not
    assert!(created.removal_output.as_ref().unwrap().contains("_furniture_removed"), "{created:?}");
    assert!(!created.result_image_url.as_ref().unwrap().contains("furniture_removed"), "{created:?}");
    let render = v1_render(&sandbox, &created.render_id).await;
    assert_eq!(render.outputs.len(), 2);
    assert_eq!(render.outputs_styles, ["modern", "modern"], "the render's style for both, as the service lists them");

    let declutter_only = v1::CreateRender {
        image_url: Some(photo(&sandbox)),
        declutter_mode: Some(RemovalMode::On),
        add_furniture: Some(false),
        ..Default::default()
    };
    let created = client.v1_create_render(&declutter_only).await.unwrap();
    assert_eq!(created.result_image_url, created.removal_output);
    assert_eq!(client.v1_ping().await.unwrap().photos_used_this_period, 3.0, "a photo per render");
}

#[tokio::test]
async fn auto_declutters_only_a_furnished_room() {
    let sandbox = fast_sandbox(20).await;
    let client = client(&sandbox, "k");
    let auto = |sample: &str| v1::CreateRender {
        image_url: Some(format!("{}/samples/{sample}", sandbox.base_url())),
        room_type: Some(RoomType::Living),
        style: Some(Style::Modern),
        declutter_mode: Some(RemovalMode::Auto),
        add_furniture: Some(true),
        ..Default::default()
    };
    let empty = client.v1_create_render(&auto("living-empty.jpg")).await.unwrap();
    assert!(empty.result_image_url.is_some(), "{empty:?}");
    assert_eq!(empty.removal_output, None, "nothing to declutter in an empty room");
    assert_eq!(v1_render(&sandbox, &empty.render_id).await.outputs.len(), 1);

    let furnished = client.v1_create_render(&auto("living-furnished.jpg")).await.unwrap();
    assert!(furnished.removal_output.is_some() && furnished.result_image_url.is_some(), "{furnished:?}");
    assert_ne!(furnished.removal_output, furnished.result_image_url);
    assert_eq!(v1_render(&sandbox, &furnished.render_id).await.outputs.len(), 2);
}

#[tokio::test]
async fn variations_only_on_a_done_render_and_newest_last() {
    let sandbox = fast_sandbox(20).await;
    let client = client(&sandbox, "k");
    // the account's work waits while the test looks at it in progress (`/sandbox/hold`)
    let hold = |held: bool| {
        let method = if held { Method::POST } else { Method::DELETE };
        answer(raw(&sandbox, method, "/sandbox/hold", "k"))
    };
    assert_eq!(hold(true).await.0, 200);
    let request = v1::CreateRender {
        image_url: Some(photo(&sandbox)),
        room_type: Some(RoomType::Bed),
        style: Some(Style::Coastal),
        wait_for_completion: Some(false),
        ..Default::default()
    };
    let created = client.v1_create_render(&request).await.unwrap();
    assert_eq!(created.result_image_url, None, "not waited for");
    let rendering = v1_render(&sandbox, &created.render_id).await;
    assert_eq!(rendering.status, v1::Status::Rendering, "retrievable right after creation");
    let refused = client.v1_create_variation(&created.render_id, &v1::CreateVariation::default()).await.unwrap_err();
    assert_eq!(refused.status(), Some(409));
    assert!(refused.to_string().contains("not done"), "{refused}");

    assert_eq!(hold(false).await.0, 200);
    let first = until_done(&sandbox, &created.render_id).await;
    assert_eq!(hold(true).await.0, 200);
    let variation = v1::CreateVariation {
        style: Some(Style::MidCenturyModern),
        switch_to_queued_immediately: Some(true),
        ..Default::default()
    };
    client.v1_create_variation(&created.render_id, &variation).await.unwrap();
    assert_eq!(v1_render(&sandbox, &created.render_id).await.status, v1::Status::Queued);
    assert_eq!(hold(false).await.0, 200);
    let second = until_done(&sandbox, &created.render_id).await;
    assert_eq!(second.outputs.len(), 2);
    assert_eq!(second.outputs[0], first.outputs[0], "the new output is appended, newest last");
    assert_eq!(second.outputs_styles, ["coastal", "mid-century modern"]);
    assert_eq!(second.outputs_room_types, ["bed", "bed"], "the first call's settings are reused");

    // seen through v2: the same render, with legacy_staging configs
    let render = client.get_render(&created.render_id, &GetRender::with_variations(20)).await.unwrap();
    assert!(render.variation_items().iter().all(|v| matches!(v.config, Some(Config::LegacyStaging(_)))));
}

#[tokio::test]
async fn a_photo_uploaded_as_a_file_with_the_arguments_in_the_query() {
    let sandbox = fast_sandbox(20).await;
    let jpeg = reqwest::get(photo(&sandbox)).await.unwrap().bytes().await.unwrap();
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(jpeg.to_vec()).file_name("room.jpg"));
    let (status, body) = answer(
        raw(
            &sandbox,
            Method::POST,
            "/v1/render/create?room_type=dining&style=industrial&wait_for_completion=true",
            "k",
        )
        .multipart(form),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let render = v1_render(&sandbox, body["render_id"].as_str().unwrap()).await;
    assert_eq!(render.outputs_room_types, ["dining"]);

    let not_an_image = reqwest::multipart::Form::new().part("file", reqwest::multipart::Part::bytes(b"hello".to_vec()));
    let (status, body) = answer(
        raw(&sandbox, Method::POST, "/v1/render/create?room_type=dining&style=industrial", "k").multipart(not_an_image),
    )
    .await;
    assert_eq!(status, 422, "a file that is not an image");
    assert!(body["message"].as_str().unwrap().contains("not an image"), "{body}");
}

#[tokio::test]
async fn the_clients_multipart_create_sends_the_file_and_the_arguments_in_the_query() {
    let sandbox = fast_sandbox(20).await;
    let client = client(&sandbox, "k");
    let jpeg = reqwest::get(photo(&sandbox)).await.unwrap().bytes().await.unwrap();
    let photo_file =
        PhotoFile { name: "Front \"room\".jpg".into(), content_type: "image/jpeg".into(), bytes: jpeg.to_vec() };
    // Decluttering plus staging, waited for: two images, the staging in the room type and style asked.
    let both = v1::CreateRender {
        room_type: Some(RoomType::Bed),
        style: Some(Style::Scandinavian),
        declutter_mode: Some(RemovalMode::On),
        add_virtually_staged_watermark: Some(true),
        ..Default::default()
    };
    let created = client.v1_create_render_with_file(&both, &photo_file).await.unwrap();
    assert!(created.result_image_url.is_some() && created.removal_output.is_some(), "{created:?}");
    let render = v1_render(&sandbox, &created.render_id).await;
    assert_eq!(render.outputs_room_types.last().map(String::as_str), Some("bed"));
    assert_eq!(render.outputs_styles.last().map(String::as_str), Some("scandinavian"));

    // Not waited for: the id at once, then the render finishes.
    let later = v1::CreateRender { wait_for_completion: Some(false), ..both.clone() };
    let created = client.v1_create_render_with_file(&later, &photo_file).await.unwrap();
    assert_eq!(until_done(&sandbox, &created.render_id).await.status, v1::Status::Done);

    // A file and an address is refused before sending.
    let twice = v1::CreateRender { image_url: Some(photo(&sandbox)), ..both };
    let refused = client.v1_create_render_with_file(&twice, &photo_file).await.unwrap_err();
    assert!(refused.to_string().contains("either a photo address or a file"), "{refused}");
}

#[tokio::test]
async fn invalid_arguments_are_400s_with_the_lists() {
    let sandbox = fast_sandbox(20).await;
    for body in [
        json!({"image_url": photo(&sandbox), "room_type": "garage", "style": "modern"}),
        json!({"image_url": photo(&sandbox), "room_type": "living", "style": "gothic"}),
        json!({"room_type": "living", "style": "modern"}),
    ] {
        let (status, answer): (u16, Value) =
            answer(raw(&sandbox, Method::POST, "/v1/render/create", "k").json(&body)).await;
        assert_eq!(status, 400, "{body}");
        assert!(answer["message"].is_string());
    }
    let (status, _) = answer(raw(&sandbox, Method::GET, "/v1/render?render_id=rnd_nope", "k")).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn more_than_fifty_renders_in_progress_is_a_429() {
    let sandbox = sandbox_with(SandboxConfig {
        processing_ms: 60_000,
        photo_limit: 1000,
        ..SandboxConfig::new(vec!["k".into()])
    })
    .await;
    let client = client(&sandbox, "k");
    let request = v1::CreateRender {
        image_url: Some(photo(&sandbox)),
        room_type: Some(RoomType::Living),
        style: Some(Style::Modern),
        wait_for_completion: Some(false),
        ..Default::default()
    };
    for _ in 0..50 {
        client.v1_create_render(&request).await.unwrap();
    }
    let refused = client.v1_create_render(&request).await.unwrap_err();
    assert_eq!(refused.status(), Some(429));
    assert!(refused.to_string().contains("in progress"), "{refused}");
}
