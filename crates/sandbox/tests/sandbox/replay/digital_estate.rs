//! viktorvidual/digital-estate, Supabase Edge Functions (Deno) on v2 with webhooks:
//! supabase/functions/create-render/index.ts, create-variations/index.ts, generate-mask/index.ts and
//! virtual-staging-webhooks/index.ts.

use reqwest::Method;
use serde_json::{Value, json};

use super::{Hooks, KEY, call, photo_url, service};

/// create-render: removal and staging, 3 variations, the webhook address with a query of its own
/// (`?userId=`); the webhooks function downloads `result.url` of each `done` and, for a staged one, reads its base
/// with `GET /renders/{render_id}/variations/{base_variation_id}` (`Accept: */*`).
#[tokio::test]
async fn a_render_reported_by_webhooks_with_its_own_query() {
    let sandbox = service().await;
    let mut hooks = Hooks::start().await;
    let body = json!({
        "config": {"type": "staging", "add_virtually_staged_watermark": false,
                   "add_furniture": {"style": "scandinavian", "room_type": "bed"}, "remove_furniture": {"mode": "on"}},
        "image_url": photo_url(&sandbox, "bedroom-furnished.jpg"),
        "webhook_url": format!("{}?userId=user-7", hooks.url),
        "variation_count": 3,
        "wait_for_completion": false
    });
    let (status, created) =
        call(&sandbox, Method::POST, "/v2/renders", Some(&format!("Api-Key {KEY}")), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["id"].as_str().unwrap().to_string();
    for item in created["variations"]["items"].as_array().unwrap() {
        assert!(item["id"].is_string() && item["status"].is_string(), "{item}");
    }

    let mut staged = Vec::new();
    for _ in 0..6 {
        let (query, event) = hooks.next().await;
        assert_eq!(query.as_deref(), Some("userId=user-7"), "the address's own query is kept");
        assert_eq!(event["event_type"], "done", "{event}");
        assert_eq!(event["render_id"], render_id.as_str());
        assert!(event["variation_id"].is_string() && event["timestamp"].is_number(), "{event}");
        assert!(event["result"]["url"].is_string(), "{event}");
        if event["variation_type"] == "staging" {
            staged.push(event);
        }
    }
    assert_eq!(staged.len(), 3);
    for event in staged {
        let base = event["base_variation_id"].as_str().expect("a staged variation names its base");
        let path = format!("/v2/renders/{render_id}/variations/{base}");
        let (status, variation) = call(&sandbox, Method::GET, &path, Some(&format!("Api-Key {KEY}")), None).await;
        assert_eq!(status, 200, "{variation}");
        assert!(variation["result"]["url"].is_string(), "{variation}");
    }
}

/// create-variations: reads `variations.total_count` of `GET /renders/{id}` sent with no query, then adds
/// variations (with `Authorization: Bearer KEY`, not the docs' `Api-Key`) and reads the answer's `variations`, a
/// list.
#[tokio::test]
async fn the_variation_count_is_read_without_asking_for_the_variations() {
    let sandbox = service().await;
    let api_key = format!("Api-Key {KEY}");
    let body = json!({
        "config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}},
        "image_url": photo_url(&sandbox, "living-empty.jpg"), "variation_count": 3, "wait_for_completion": false
    });
    let (_, created) = call(&sandbox, Method::POST, "/v2/renders", Some(&api_key), Some(body)).await;
    let render_id = created["id"].as_str().unwrap();
    let (status, render) = call(&sandbox, Method::GET, &format!("/v2/renders/{render_id}"), Some(&api_key), None).await;
    assert_eq!(status, 200, "{render}");
    assert_eq!(render["variations"]["total_count"], 3, "{render}");

    let more = json!({
        "config": {"type": "staging", "add_virtually_staged_watermark": false,
                   "add_furniture": {"style": "coastal", "room_type": "living"}},
        "variation_count": 2, "wait_for_completion": false
    });
    let path = format!("/v2/renders/{render_id}/variations");
    let (status, added) = call(&sandbox, Method::POST, &path, Some(&format!("Bearer {KEY}")), Some(more)).await;
    assert_eq!(status, 200, "{added}");
    let added: &Vec<Value> = added["variations"].as_array().unwrap();
    assert!(added.iter().all(|variation| variation["render_id"] == render_id && variation["status"].is_string()));
}

/// generate-mask: `POST /analyze` with `Api-key` (a lower-case k) and a webhook address with `?maskId=`; the
/// webhooks function reads `analysis_completion`'s `result_url`.
#[tokio::test]
async fn an_analysis_sent_with_a_lower_case_scheme_is_reported_by_webhook() {
    let sandbox = service().await;
    let mut hooks = Hooks::start().await;
    let body = json!({
        "image_url": photo_url(&sandbox, "living-furnished.jpg"),
        "webhook_url": format!("{}?maskId=mask-3", hooks.url)
    });
    let (status, analysis) =
        call(&sandbox, Method::POST, "/v2/analyze", Some(&format!("Api-key {KEY}")), Some(body)).await;
    assert_eq!(status, 200, "{analysis}");
    let (query, event) = hooks.next().await;
    assert_eq!(query.as_deref(), Some("maskId=mask-3"));
    assert_eq!(event["event_type"], "analysis_completion", "{event}");
    assert!(event["result_url"].is_string(), "{event}");
}
