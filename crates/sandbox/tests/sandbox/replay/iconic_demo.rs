//! iconicvirtualai/iconic-virtual-vsai-demo, a Next.js app on both APIs: pages/api/render.ts (v1 create with
//! `Api-key`, a lower-case k, and the watermark flag as the string "true"), pages/api/vsai-render.ts (v1 render by
//! query), pages/api/vsai-options.ts and pages/api/vsai-variation.ts (v2 variations that wait).

use reqwest::Method;
use serde_json::json;

use super::{KEY, call, photo_url, service};

#[tokio::test]
async fn a_v1_render_with_a_lower_case_scheme_and_a_flag_as_a_string() {
    let sandbox = service().await;
    let body = json!({
        "image_url": photo_url(&sandbox, "living-empty.jpg"), "room_type": "living", "style": "luxury",
        "wait_for_completion": false, "add_virtually_staged_watermark": "true"
    });
    let lower_case = format!("Api-key {KEY}");
    let (status, created) = call(&sandbox, Method::POST, "/v1/render/create", Some(&lower_case), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap();
    let (status, render) =
        call(&sandbox, Method::GET, &format!("/v1/render?render_id={render_id}"), Some(&lower_case), None).await;
    assert_eq!(status, 200, "{render}");
    assert!(render["status"].is_string() && render["outputs"].is_array(), "{render}");

    let (status, options) = call(&sandbox, Method::GET, "/v1/options", Some(&format!("Api-Key {KEY}")), None).await;
    assert_eq!(status, 200);
    assert!(options["styles"].is_array() && options["roomTypes"].is_array(), "{options}");
}

/// vsai-variation.ts: one more staged variation on a v2 render, `wait_for_completion: true`, its config with
/// `output_resolution: "default"` and the watermark off; the result's `url` is read from the answer.
#[tokio::test]
async fn a_v2_variation_that_waits_for_its_result() {
    let sandbox = service().await;
    let api_key = format!("Api-Key {KEY}");
    let body = json!({
        "config": {"type": "staging", "add_furniture": {"style": "standard", "room_type": "living"}},
        "image_url": photo_url(&sandbox, "living-empty.jpg"), "variation_count": 1, "wait_for_completion": true
    });
    let (status, render) = call(&sandbox, Method::POST, "/v2/renders", Some(&api_key), Some(body)).await;
    assert_eq!(status, 200, "{render}");
    let config = json!({
        "type": "staging", "output_resolution": "default", "add_virtually_staged_watermark": false,
        "add_furniture": {"style": "modern", "room_type": "living"}
    });
    let body = json!({"config": config, "variation_count": 1, "wait_for_completion": true});
    let path = format!("/v2/renders/{}/variations", render["id"].as_str().unwrap());
    let (status, added) = call(&sandbox, Method::POST, &path, Some(&api_key), Some(body)).await;
    assert_eq!(status, 200, "{added}");
    assert_eq!(added["variations"][0]["status"], "done", "{added}");
    assert!(added["variations"][0]["result"]["url"].is_string(), "{added}");
}
