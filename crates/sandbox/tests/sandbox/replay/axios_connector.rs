//! A Node module on v1 with axios (its comments in Czech; read in the code index, whose copy names no repository):
//! `postCreateVariation(render_id, room_type, style)` posts create-variation with `params: { render_id }` (the
//! query), `Authorization: Api-key ...` and the body `{roomType, style, wait_for_completion: false,
//! switch_to_queued_immediately: true}`, and takes only a 200's `response.data`.

use reqwest::Method;
use serde_json::json;

use super::{KEY, call, photo_url, service};

#[tokio::test]
async fn a_variation_with_the_render_id_in_axios_params() {
    let sandbox = service().await;
    let auth = format!("Api-key {KEY}");
    let body = json!({"image_url": photo_url(&sandbox, "living-empty.jpg"), "room_type": "living", "style": "modern"});
    let (status, created) = call(&sandbox, Method::POST, "/v1/render/create", Some(&auth), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap();
    let data = json!({"roomType": "kids_room", "style": "scandinavian", "wait_for_completion": false,
        "switch_to_queued_immediately": true});
    let path = format!("/v1/render/create-variation?render_id={render_id}");
    let (status, answer) = call(&sandbox, Method::POST, &path, Some(&auth), Some(data)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["render_id"], render_id, "response.data");
}
