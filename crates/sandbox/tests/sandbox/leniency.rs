//! What the real service takes beyond the contract's strict reading, over real HTTP (docs/api-notes.md says each
//! with its evidence): deprecated styles mapped to current ones, v1's room type spelled either way, and flags that
//! are not booleans.

use std::time::Duration;

use crate::support::{answer, raw, sandbox_with};
use reqwest::Method;
use serde_json::{Value, json};
use vstage_sandbox::{RunningSandbox, SandboxConfig};

async fn fast_sandbox() -> RunningSandbox {
    sandbox_with(SandboxConfig { processing_ms: 20, ..SandboxConfig::new(vec!["k".into()]) }).await
}

fn photo(sandbox: &RunningSandbox) -> String {
    format!("{}/samples/living-empty.jpg", sandbox.base_url())
}

/// `GET /v1/render` until it is done; its last answer.
async fn v1_done(sandbox: &RunningSandbox, render_id: &str) -> Value {
    for _ in 0..1200 {
        let (status, render) =
            answer(raw(sandbox, Method::GET, &format!("/v1/render?render_id={render_id}"), "k")).await;
        assert_eq!(status, 200, "{render}");
        if render["status"] == "done" || render["status"] == "error" {
            return render;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("render {render_id} did not finish");
}

/// The service's docs: `hamptons`, `american` and `southwestern` are still taken and mapped to current styles.
/// Each is staged on v2 (the config coming back as sent) and on v1, create and create-variation alike; `/v1/options`
/// lists no `hamptons`, which is deprecated.
#[tokio::test]
async fn deprecated_styles_are_taken_on_v2_and_v1() {
    let sandbox = fast_sandbox().await;
    for style in ["hamptons", "american", "southwestern"] {
        let body = json!({
            "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": style}},
            "image_url": photo(&sandbox), "variation_count": 1, "wait_for_completion": true
        });
        let (status, render) = answer(raw(&sandbox, Method::POST, "/v2/renders", "k").json(&body)).await;
        assert_eq!(status, 200, "{style}: {render}");
        let variation = &render["variations"]["items"][0];
        assert_eq!(variation["status"], "done", "{variation}");
        assert_eq!(variation["config"]["add_furniture"]["style"], style, "{variation}");

        let body = json!({"image_url": photo(&sandbox), "room_type": "living", "style": style});
        let (status, created) = answer(raw(&sandbox, Method::POST, "/v1/render/create", "k").json(&body)).await;
        assert_eq!(status, 200, "{style}: {created}");
        let render_id = created["render_id"].as_str().unwrap();
        let path = format!("/v1/render/create-variation?render_id={render_id}");
        let body = json!({"style": style, "wait_for_completion": true});
        let (status, varied) = answer(raw(&sandbox, Method::POST, &path, "k").json(&body)).await;
        assert_eq!(status, 200, "{style}: {varied}");
        assert_eq!(v1_done(&sandbox, render_id).await["outputs"].as_array().unwrap().len(), 2);
    }
    let (_, options) = answer(raw(&sandbox, Method::GET, "/v1/options", "k")).await;
    assert!(!options["styles"].as_array().unwrap().contains(&json!("hamptons")), "{options}");
    let body = json!({"image_url": photo(&sandbox), "room_type": "living", "style": "gothic"});
    let (status, refused) = answer(raw(&sandbox, Method::POST, "/v1/render/create", "k").json(&body)).await;
    assert_eq!(status, 400, "a style the service never had is still refused: {refused}");
}

/// A multipart create with its arguments in the query as `roomType=bed` (create-variation's spelling) is read like
/// `room_type`; so is a JSON create with `roomType`, and a create-variation with `room_type`.
#[tokio::test]
async fn v1_reads_the_room_type_in_either_spelling() {
    let sandbox = fast_sandbox().await;
    let jpeg = crate::support::sample_jpeg("living-empty.jpg");
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(jpeg).file_name("room.jpg").mime_str("image/jpeg").unwrap());
    let request =
        raw(&sandbox, Method::POST, "/v1/render/create?roomType=bed&style=modern&wait_for_completion=false", "k");
    let (status, created) = answer(request.multipart(form)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();
    assert_eq!(v1_done(&sandbox, &render_id).await["outputs_room_types"], json!(["bed"]));

    let body = json!({"image_url": photo(&sandbox), "roomType": "kitchen", "style": "modern"});
    let (status, created) = answer(raw(&sandbox, Method::POST, "/v1/render/create", "k").json(&body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();
    let path = format!("/v1/render/create-variation?render_id={render_id}");
    let body = json!({"room_type": "dining", "wait_for_completion": true});
    let (status, varied) = answer(raw(&sandbox, Method::POST, &path, "k").json(&body)).await;
    assert_eq!(status, 200, "{varied}");
    assert_eq!(v1_done(&sandbox, &render_id).await["outputs_room_types"], json!(["kitchen", "dining"]));
}

/// Flags that are not booleans: a create-variation with `"wait_for_completion": "$waitForCompletion"` (a PHP
/// string never interpolated, sportolopez/myhouseai at 7e7fe6f) is a 200 that waits, as the service's JavaScript
/// reads a non-empty string; `"false"`, `"0"` and `0` are false in JSON and in a query; a v2 flag is read the same
/// way; and in a multipart form, where the arguments' place is the query, any text (`'false'` too) is true.
#[tokio::test]
async fn flags_that_are_not_booleans_are_read_by_their_truthiness() {
    let sandbox = fast_sandbox().await;
    let body =
        json!({"image_url": photo(&sandbox), "room_type": "living", "style": "modern", "wait_for_completion": "0"});
    let (status, created) = answer(raw(&sandbox, Method::POST, "/v1/render/create", "k").json(&body)).await;
    assert_eq!(status, 200, "{created}");
    assert!(created.get("result_image_url").is_none(), "\"0\" did not wait: {created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();
    v1_done(&sandbox, &render_id).await;
    let path = format!("/v1/render/create-variation?render_id={render_id}");
    let body = json!({"wait_for_completion": "$waitForCompletion", "roomType": "living", "style": "modern",
        "add_virtually_staged_watermark": false, "switch_to_queued_immediately": true});
    let (status, varied) = answer(raw(&sandbox, Method::POST, &path, "k").json(&body)).await;
    assert_eq!(status, 200, "{varied}");
    assert!(varied["result_image_url"].is_string(), "a non-empty string waits: {varied}");

    let body = json!({
        "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}},
        "image_url": photo(&sandbox), "variation_count": 1, "wait_for_completion": "true"
    });
    let (status, render) = answer(raw(&sandbox, Method::POST, "/v2/renders", "k").json(&body)).await;
    assert_eq!(status, 200, "{render}");
    assert_eq!(render["variations"]["items"][0]["status"], "done", "{render}");
    let path = format!("/v2/renders/{}?include_variations=1", render["id"].as_str().unwrap());
    let (status, read) = answer(raw(&sandbox, Method::GET, &path, "k")).await;
    assert_eq!((status, read["variations"]["items"].as_array().map(Vec::len)), (200, Some(1)), "{read}");

    let jpeg = crate::support::sample_jpeg("living-empty.jpg");
    let form = reqwest::multipart::Form::new()
        .text("wait_for_completion", "false")
        .text("room_type", "bed")
        .part("file", reqwest::multipart::Part::bytes(jpeg).file_name("room.jpg").mime_str("image/jpeg").unwrap());
    let (status, created) =
        answer(raw(&sandbox, Method::POST, "/v1/render/create?style=modern", "k").multipart(form)).await;
    assert_eq!(status, 200, "{created}");
    assert!(created["result_image_url"].is_string(), "'false' in a form is true: {created}");
    let render = v1_done(&sandbox, created["render_id"].as_str().unwrap()).await;
    assert_eq!(render["outputs_room_types"], json!(["bed"]), "the form's room type, where the query has none");
}
