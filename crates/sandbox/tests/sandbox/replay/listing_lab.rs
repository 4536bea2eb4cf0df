//! "Listing Lab"'s `vsai.js`, a Node module on v2 (read in the code index, whose copy names no repository; beside
//! it `rank.js`, `structure.js` and a `transform` module that requires `./vsai`): staging, removal only and
//! day-to-dusk as `{type: 'daytodusk', sky_style}`, polled until every variation is `done`, `error` or `deleted`.

use reqwest::Method;
use serde_json::{Value, json};

use super::{KEY, call, photo_url, service, until_terminal};

fn auth() -> String {
    format!("Api-Key {KEY}")
}

/// `fetch(BASE + '/status')` with no key, reading only the status; then `GET /user` with it.
#[tokio::test]
async fn the_status_is_checked_without_a_key() {
    let sandbox = service().await;
    assert_eq!(call(&sandbox, Method::GET, "/v2/status", None, None).await.0, 200);
    assert_eq!(call(&sandbox, Method::GET, "/v2/user", Some(&auth()), None).await.0, 200);
}

/// One render per config, as `vsaiStage` sends them, each polled with `include_variations=true&variations_limit=20`
/// and read as `v.status === 'done'` and `v.result?.url`.
async fn staged(sandbox: &vstage_sandbox::RunningSandbox, photo: &str, config: Value, count: u64) -> Vec<Value> {
    let body = json!({
        "config": config, "image_url": photo_url(sandbox, photo),
        "variation_count": count, "wait_for_completion": false
    });
    let (status, created) = call(sandbox, Method::POST, "/v2/renders", Some(&auth()), Some(body)).await;
    assert_eq!(status, 200, "{config}: {created}");
    let id = created["id"].as_str().unwrap();
    let path = format!("/v2/renders/{id}?include_variations=true&variations_limit=20");
    let render = until_terminal(sandbox, &path, &auth()).await;
    let items = render["variations"]["items"].as_array().unwrap().clone();
    for item in &items {
        assert_eq!(item["status"], "done", "{item}");
        assert!(item["result"]["url"].is_string(), "{item}");
    }
    items
}

#[tokio::test]
async fn staging_removal_only_and_day_to_dusk_as_it_sends_them() {
    let sandbox = service().await;
    let staging = json!({
        "type": "staging", "add_furniture": {"room_type": "living", "style": "modern"},
        "remove_furniture": {"mode": "off"}, "add_virtually_staged_watermark": false, "output_resolution": "default"
    });
    assert_eq!(staged(&sandbox, "living-empty.jpg", staging, 2).await.len(), 2);

    let removal = json!({
        "type": "staging", "remove_furniture": {"mode": "on"},
        "add_virtually_staged_watermark": false, "output_resolution": "default"
    });
    let removed = staged(&sandbox, "living-furnished.jpg", removal, 1).await;
    assert_eq!(removed[0]["type"], "removal");

    // TWILIGHT_MAP: 'Golden Hour' -> 'golden'
    let dusk = json!({"type": "daytodusk", "sky_style": "golden"});
    let evening = staged(&sandbox, "exterior-day.jpg", dusk, 1).await;
    assert_eq!(evening[0]["config"]["sky_style"], "golden", "{:?}", evening[0]);
    assert_eq!(evening[0]["config"]["type"], "daytodusk", "the config comes back as sent: {:?}", evening[0]);
}
