//! iconicvirtualai/iconic-virtual-backend, Vercel functions in front of v1 (at 8c2a0bd): api/ping.js, options.js,
//! render-create.js (the caller's body forwarded as given), render.js (`?render_id=`), render-create-variation.js
//! (`?render_id=`, the body as given) through api/_utils/vsai.js (`Api-Key`, JSON, an answer that is not JSON
//! kept as text), with tests/vsai-handlers.test.js fixing the calls; and api/stage.js, which creates with
//! `wait_for_completion: true` and the watermark on and gives the page `result_image_url` as a preview.

use reqwest::Method;
use serde_json::json;

use super::{KEY, call, photo_url, service};

fn auth() -> String {
    format!("Api-Key {KEY}")
}

#[tokio::test]
async fn every_proxied_call_and_a_watermarked_preview() {
    let sandbox = service().await;
    let (status, ping) = call(&sandbox, Method::GET, "/v1/ping", Some(&auth()), None).await;
    assert_eq!(status, 200, "{ping}");
    assert!(ping["userObj"]["email"].is_string(), "{ping}");
    let (status, options) = call(&sandbox, Method::GET, "/v1/options", Some(&auth()), None).await;
    assert_eq!(status, 200);
    assert!(options["styles"].as_array().unwrap().contains(&json!("modern")), "{options}");
    assert!(options["roomTypes"].as_array().unwrap().contains(&json!("living")), "{options}");

    // the test's body exactly: no flags, so the call waits (v1's default)
    let body = json!({"image_url": photo_url(&sandbox, "living-empty.jpg"), "room_type": "living", "style": "modern"});
    let (status, created) = call(&sandbox, Method::POST, "/v1/render/create", Some(&auth()), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();
    let (status, render) =
        call(&sandbox, Method::GET, &format!("/v1/render?render_id={render_id}"), Some(&auth()), None).await;
    assert_eq!((status, &render["status"]), (200, &json!("done")), "{render}");

    let path = format!("/v1/render/create-variation?render_id={render_id}");
    let body = json!({"wait_for_completion": false});
    let (status, varied) = call(&sandbox, Method::POST, &path, Some(&auth()), Some(body)).await;
    assert_eq!((status, &varied["render_id"]), (200, &json!(render_id)), "{varied}");

    // api/stage.js: the preview is `result_image_url`, watermarked
    let body = json!({"image_url": photo_url(&sandbox, "bedroom-furnished.jpg"), "room_type": "bed", "style": "coastal",
        "wait_for_completion": true, "add_virtually_staged_watermark": true});
    let (status, staged) = call(&sandbox, Method::POST, "/v1/render/create", Some(&auth()), Some(body)).await;
    assert_eq!(status, 200, "{staged}");
    let preview = staged["result_image_url"].as_str().expect("Staging failed");
    assert_eq!(reqwest::get(preview).await.unwrap().status(), 200);

    // an error is relayed as JSON when it is JSON (`normaliseErrorPayload`): a message to show
    let body = json!({"room_type": "living", "style": "modern"});
    let (status, refused) = call(&sandbox, Method::POST, "/v1/render/create", Some(&auth()), Some(body)).await;
    assert_eq!(status, 400);
    assert!(refused["message"].is_string(), "{refused}");
}
