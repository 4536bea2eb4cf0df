//! iconicvirtualai/iconic-virtual-vsai-demo, a Next.js app on both APIs: pages/api/render.ts (v1 create with
//! `Api-key`, a lower-case k, and the watermark flag as the string "true"), pages/api/vsai-render.ts (v1 render by
//! query), pages/api/vsai-options.ts and pages/api/vsai-variation.ts (v2 variations that wait, on v2 and on v1
//! renders; a v1 create-variation in its first version), pages/api/vsai-create.ts, pages/api/jobs/[jobId].ts,
//! pages/api/post-checkout.ts and pages/api/vsai-variation-result.ts (a render's variations listed by
//! `GET /v2/renders/{id}/variations`).

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

/// The shop's flow: pages/api/vsai-create.ts (v1 create, not waiting, watermark off; the job keeps `render_id`),
/// pages/api/vsai-variation.ts (one of its versions: four v2 variations at once on that v1
/// render's id, with `Api-key`, waiting), then after checkout pages/api/post-checkout.ts: `GET
/// /v2/renders/{id}/variations` on the same id, the list read as `variations.items || variations || items || the
/// answer`, the paid image `items[selectedIndex].result.url`; and pages/api/vsai-variation-result.ts, which finds
/// one variation of that list by its id.
#[tokio::test]
async fn a_paid_image_is_resolved_from_the_variations_of_a_v1_render() {
    let sandbox = service().await;
    let api_key = format!("Api-Key {KEY}");
    let body = json!({
        "image_url": photo_url(&sandbox, "living-empty.jpg"), "room_type": "living", "style": "standard",
        "wait_for_completion": false, "add_virtually_staged_watermark": false
    });
    let (status, created) = call(&sandbox, Method::POST, "/v1/render/create", Some(&api_key), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();

    let config = json!({
        "type": "staging", "output_resolution": "default", "add_virtually_staged_watermark": false,
        "add_furniture": {"style": "modern", "room_type": "living"}
    });
    let body = json!({"config": config, "variation_count": 4, "wait_for_completion": true});
    let path = format!("/v2/renders/{render_id}/variations");
    let (status, added) = call(&sandbox, Method::POST, &path, Some(&format!("Api-key {KEY}")), Some(body)).await;
    assert_eq!(status, 200, "{added}");
    let added = added["variations"].as_array().expect("data.variations").clone();
    assert_eq!(added.len(), 4);
    assert!(added.iter().all(|v| v["result"]["url"].is_string()), "{added:?}");

    let (status, listed) = call(&sandbox, Method::GET, &path, Some(&api_key), None).await;
    assert_eq!(status, 200, "{listed}");
    let items = listed["variations"]["items"]
        .as_array()
        .or(listed["variations"].as_array())
        .or(listed["items"].as_array())
        .or(listed.as_array())
        .expect("a list of variations")
        .clone();
    let selected_index = 2;
    let paid = items[selected_index]["result"]["url"].as_str().expect("the selected image");
    assert_eq!(reqwest::get(paid).await.unwrap().status(), 200);
    let wanted = added[1]["id"].as_str().unwrap();
    let found = items.iter().find(|v| v["id"] == wanted).expect("vsai-variation-result finds it by id");
    assert!(found["result"]["url"].is_string(), "{found}");
}

/// The first version of pages/api/vsai-variation.ts: a v1 create-variation that switches the render to
/// `queued` at once (`switch_to_queued_immediately: true`, `roomType`, the watermark off), answered with its
/// `render_id`; then pages/api/vsai-render.ts polls `GET /v1/render` (status `queued`, `rendering` or `done`,
/// `outputs` de-duplicated) and pages/api/jobs/[jobId].ts reads `outputs[0]` as a string. The account's work is
/// held (`/sandbox/hold`) so that the switch to `queued` is seen whatever the machine's speed.
#[tokio::test]
async fn a_v1_variation_switched_to_queued_at_once() {
    let sandbox = service().await;
    let api_key = format!("Api-Key {KEY}");
    let body =
        json!({"image_url": photo_url(&sandbox, "living-empty.jpg"), "room_type": "living", "style": "standard"});
    let (status, created) = call(&sandbox, Method::POST, "/v1/render/create", Some(&api_key), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();

    assert_eq!(call(&sandbox, Method::POST, "/sandbox/hold", Some(&api_key), None).await.0, 200);
    let body = json!({"wait_for_completion": false, "switch_to_queued_immediately": true,
        "add_virtually_staged_watermark": false, "roomType": "living", "style": "modern"});
    let path = format!("/v1/render/create-variation?render_id={render_id}");
    let (status, varied) = call(&sandbox, Method::POST, &path, Some(&api_key), Some(body)).await;
    assert_eq!((status, &varied["render_id"]), (200, &json!(render_id)), "{varied}");
    let read = format!("/v1/render?render_id={render_id}");
    let (_, render) = call(&sandbox, Method::GET, &read, Some(&api_key), None).await;
    assert_eq!(render["status"], "queued", "{render}");
    assert_eq!(call(&sandbox, Method::DELETE, "/sandbox/hold", Some(&api_key), None).await.0, 200);

    let mut render = render;
    for _ in 0..1200 {
        if render["status"] == "done" {
            break;
        }
        assert!(["queued", "rendering"].contains(&render["status"].as_str().unwrap()), "{render}");
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        render = call(&sandbox, Method::GET, &read, Some(&api_key), None).await.1;
    }
    let outputs = render["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), 2, "{render}");
    assert!(outputs[0].is_string() && outputs[0] != outputs[1], "{render}");
}
