//! superdevvs/Repro_Backend, a Laravel backend on v2 that polls (no webhooks):
//! app/Services/Studio/Providers/VirtualStagingAiClient.php (the calls and what it reads),
//! app/Services/Studio/VirtualStagingOptions.php (the config it builds),
//! app/Services/Studio/VirtualStagingProcessor.php (its polling) and tests/Feature/VirtualStagingAiTest.php.

use reqwest::Method;
use serde_json::json;

use super::{KEY, call, data_url, large_jpeg, photo_data_url, service, until_terminal};

/// `Authorization: Api-Key KEY` with `Accept: application/json`, bodies as JSON.
fn auth() -> String {
    format!("Api-Key {KEY}")
}

/// `account()`: a limit is a number or "UNLIMITED", what was used a number.
#[tokio::test]
async fn the_account_reads_as_its_client_expects() {
    let sandbox = service().await;
    let (status, user) = call(&sandbox, Method::GET, "/v2/user", Some(&auth()), None).await;
    assert_eq!(status, 200, "{user}");
    let limit = &user["photoLimit"]["staging"];
    assert!(limit.is_u64() || limit == "UNLIMITED", "{user}");
    assert!(user["photosUsedThisPeriod"]["staging"].is_u64(), "{user}");
}

/// Removal then staging on a photo sent as a `data:` URL, `output_resolution` the number 1536, polled with
/// `include_variations=true&variations_limit=100&variations_order=asc` until nothing is pending; then more staging
/// on the removal result (`base_variation_id`), as `VirtualStagingAiTest` expects it.
#[tokio::test]
async fn staging_after_removal_then_more_on_its_base() {
    let sandbox = service().await;
    let config = json!({
        "type": "staging",
        "output_resolution": 1536,
        "add_furniture": {"style": "modern", "room_type": "living"},
        "remove_furniture": {"mode": "on"}
    });
    let body = json!({
        "config": config, "image_url": photo_data_url("living-furnished.jpg"),
        "variation_count": 1, "wait_for_completion": false
    });
    let (status, created) = call(&sandbox, Method::POST, "/v2/renders", Some(&auth()), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().expect("the render's id");
    assert!(created["variations"]["items"].is_array(), "variation ids from variations.items: {created}");

    let path = format!("/v2/renders/{id}?include_variations=true&variations_limit=100&variations_order=asc");
    let render = until_terminal(&sandbox, &path, &auth()).await;
    let items = render["variations"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "one removal and one staging: {render}");
    let removal = items.iter().find(|item| item["type"] == "removal").expect("a removal variation");
    let staged = items.iter().find(|item| item["type"] == "staging").expect("a staging variation");
    for item in items {
        assert_eq!(item["status"], "done", "{item}");
        // `isset($result['url']) ? [$result] : $result`: one object or a list of them, each with its url
        let result = &item["result"];
        let urls: Vec<_> =
            if result["url"].is_string() { vec![result] } else { result.as_array().unwrap().iter().collect() };
        assert!(urls.iter().all(|image| image["url"].is_string()), "{item}");
    }
    assert_eq!(staged["config"]["add_furniture"]["style"], "modern");
    assert_eq!(staged["config"]["add_furniture"]["room_type"], "living");
    assert_eq!(staged["config"]["output_resolution"], 1536, "the number comes back a number");

    let more = json!({
        "config": {"type": "staging", "output_resolution": 1536,
                   "add_furniture": {"style": "scandinavian", "room_type": "living", "base_variation_id": removal["id"]}},
        "variation_count": 2, "wait_for_completion": false
    });
    let (status, added) =
        call(&sandbox, Method::POST, &format!("/v2/renders/{id}/variations"), Some(&auth()), Some(more)).await;
    assert_eq!(status, 200, "{added}");
    let added = added["variations"].as_array().expect("variations, a list");
    assert_eq!(added.len(), 2);
    assert!(added.iter().all(|variation| variation["base_variation_id"] == removal["id"]), "{added:?}");
    let render = until_terminal(&sandbox, &path, &auth()).await;
    assert_eq!(render["variations"]["total_count"], 4, "{render}");
}

/// `POST /analyze` with the photo as a `data:` URL of several megabytes (larger than a 2 MiB body), 70 s allowed:
/// reads `status` (not `error`), `result_url` and `percentage_masked`.
#[tokio::test]
async fn a_photo_of_several_megabytes_as_a_data_url_is_analysed() {
    let sandbox = service().await;
    let photo = data_url(&large_jpeg());
    assert!(photo.len() > 4 * 1024 * 1024, "{} bytes", photo.len());
    let (status, analysis) =
        call(&sandbox, Method::POST, "/v2/analyze", Some(&auth()), Some(json!({"image_url": photo}))).await;
    assert_eq!(status, 200, "{analysis}");
    assert_ne!(analysis["status"], "error");
    assert!(analysis["result_url"].is_string() && analysis["percentage_masked"].is_number(), "{analysis}");
}
