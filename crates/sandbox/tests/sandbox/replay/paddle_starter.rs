//! A Next.js app's two routes (read in the code index, whose copies name no repository; the payload's metadata
//! names "paddle-next-starter-kit"): the render route posts v1 create with fields v1 does not have beside its own
//! (`variation_count`, `generate_additional_renders`, `auto_create_renders`, `prevent_multiple_renders`, a
//! `metadata` object, `remove_furniture` or `add_furniture` as booleans, a `webhook_url`), expecting a 200 with
//! `render_id` (or `id`); the status route asks `GET /v2/renders/{id}` first for that v1 render's id, with
//! `Authorization: Api-Key` and `x-api-key` both, and takes the first answer that is not a 404.

use serde_json::json;

use super::{KEY, photo_url, service};
use crate::support::answer;

#[tokio::test]
async fn a_v1_create_with_fields_it_does_not_have_and_its_status_through_v2() {
    let sandbox = service().await;
    let payload = json!({
        "image_url": photo_url(&sandbox, "bedroom-furnished.jpg"), "room_type": "bed", "style": "modern",
        "variation_count": 1, "generate_additional_renders": false, "auto_create_renders": false,
        "prevent_multiple_renders": true, "wait_for_completion": false, "remove_furniture": true,
        "metadata": {"source": "paddle-next-starter-kit", "single_variation_only": true},
        "webhook_url": "https://shop.example/api/vsai/webhook"
    });
    let request = reqwest::Client::new()
        .post(format!("{}/v1/render/create", sandbox.base_url()))
        .header("Authorization", format!("Api-Key {KEY}"))
        .json(&payload);
    let (status, created) = answer(request).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().or(created["id"].as_str()).expect("a render ID").to_string();

    let request = reqwest::Client::new()
        .get(format!("{}/v2/renders/{render_id}", sandbox.base_url()))
        .header("Authorization", format!("Api-Key {KEY}"))
        .header("Content-Type", "application/json")
        .header("x-api-key", KEY);
    let (status, render) = answer(request).await;
    assert_eq!(status, 200, "the first endpoint it tries answers: {render}");
    assert_eq!(render["id"], render_id.as_str(), "{render}");
}
