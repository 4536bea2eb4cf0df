//! Clients of the legacy v1 API: a WordPress plugin that offers what `/v1/options` lists, a form that uploads the
//! photo as multipart with the other fields in the query (from the page, after a preflight for `X-Requested-With`),
//! and a Node connector that passes `render_id` as a query parameter and declutters.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use vstage_sandbox::RunningSandbox;

use super::{KEY, call, large_jpeg, photo_url, service};

fn auth() -> String {
    format!("Api-Key {KEY}")
}

/// `GET render?render_id=` until `status === "done"`, as the plugin's script.js polls (nothing else ends it).
async fn until_done(sandbox: &RunningSandbox, render_id: &str) -> Value {
    for _ in 0..1200 {
        let (status, render) =
            call(sandbox, Method::GET, &format!("/v1/render?render_id={render_id}"), Some(&auth()), None).await;
        assert_eq!(status, 200, "{render}");
        assert_ne!(render["status"], "error", "{render}");
        if render["status"] == "done" {
            return render;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("render {render_id} was not done within a minute");
}

/// milosdjakovic/virtual-staging-wp-plugin, plugins/virtual-staging-api/: includes/class-vsai-handlers.php (the
/// calls), includes/class-vsai-template-renderer.php (`options['roomTypes']`, `options['styles']`) and
/// templates/main/script.js (the polling, `outputs`, `outputs_room_types`, `outputs_styles` read in parallel). Its
/// form offers every style `/v1/options` lists, for a first render and for its variations alike.
#[tokio::test]
async fn every_style_the_options_list_is_taken_for_a_render_and_its_variations() {
    let sandbox = service().await;
    let (status, options) = call(&sandbox, Method::GET, "/v1/options", Some(&auth()), None).await;
    assert_eq!(status, 200, "{options}");
    let styles: Vec<String> = serde_json::from_value(options["styles"].clone()).unwrap();
    let rooms: Vec<String> = serde_json::from_value(options["roomTypes"].clone()).unwrap();
    assert!(styles.len() >= 8 && rooms.contains(&"living".to_string()), "{options}");

    let body = json!({
        "image_url": photo_url(&sandbox, "living-empty.jpg"), "room_type": rooms[0], "style": styles[0],
        "wait_for_completion": false
    });
    let (status, created) = call(&sandbox, Method::POST, "/v1/render/create", Some(&auth()), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();
    until_done(&sandbox, &render_id).await;

    for style in &styles {
        let body = json!({"style": style, "roomType": rooms[0], "wait_for_completion": false});
        let path = format!("/v1/render/create-variation?render_id={render_id}");
        let (status, answer) = call(&sandbox, Method::POST, &path, Some(&auth()), Some(body)).await;
        assert_eq!(status, 200, "create-variation refused `{style}`, which /v1/options offers: {answer}");
        assert_eq!(answer["render_id"], render_id.as_str());
        until_done(&sandbox, &render_id).await;
    }
    let render = until_done(&sandbox, &render_id).await;
    let outputs = render["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), styles.len() + 1, "{render}");
    assert_eq!(render["outputs_room_types"].as_array().unwrap().len(), outputs.len());
    assert_eq!(render["outputs_styles"].as_array().unwrap().len(), outputs.len());
}

/// EbosetaleseDunjoyin/virtualstagingai, assets/main.js: `POST /v1/render/create?room_type=...&style=...&resolution=4k`
/// with the photo as the multipart part `file` and `Authorization: Api-key ...` (a lower-case k); waits (the
/// default) and reads `result_image_url` and `render_id`. The photo here is several megabytes.
#[tokio::test]
async fn a_multipart_upload_of_several_megabytes_with_the_fields_in_the_query() {
    let sandbox = service().await;
    let photo = large_jpeg();
    assert!(photo.len() > 2 * 1024 * 1024, "{} bytes", photo.len());
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(photo).file_name("room.jpg").mime_str("image/jpeg").unwrap());
    let response = reqwest::Client::new()
        .post(format!("{}/v1/render/create?room_type=bed&style=modern&resolution=4k", sandbox.base_url()))
        .header("Authorization", format!("Api-key {KEY}"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let answer: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{answer}");
    assert!(answer["render_id"].is_string(), "{answer}");
    let result = answer["result_image_url"].as_str().expect("the call waited for its result");
    let image = reqwest::get(result).await.unwrap().bytes().await.unwrap();
    let image = image::load_from_memory(&image).unwrap();
    assert_eq!(image.width().max(image.height()), 3840, "`4k` is 3840 px on the long side");
}

/// renatoruum/API-RUUM, src/connectors/virtualStaging.js: `GET /v1/ping` (`userObj`, `photoLimit` a number),
/// create with `declutter_mode: "auto"`, then axios with `params: { render_id }` for the render and for
/// create-variation (body `{ wait_for_completion, style }`).
#[tokio::test]
async fn ping_declutter_and_a_variation_with_the_render_id_in_the_query() {
    let sandbox = service().await;
    let (status, ping) = call(&sandbox, Method::GET, "/v1/ping", Some(&auth()), None).await;
    assert_eq!(status, 200, "{ping}");
    assert!(ping["userObj"]["email"].is_string() && ping["photoLimit"].is_number(), "{ping}");

    let body = json!({
        "image_url": photo_url(&sandbox, "living-furnished.jpg"), "wait_for_completion": false,
        "room_type": "living", "style": "farmhouse", "declutter_mode": "auto", "add_furniture": true
    });
    let (status, created) = call(&sandbox, Method::POST, "/v1/render/create", Some(&auth()), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().unwrap().to_string();
    let first = until_done(&sandbox, &render_id).await;
    assert_eq!(first["outputs"].as_array().unwrap().len(), 2, "decluttered and staged: {first}");

    let path = format!("/v1/render/create-variation?render_id={render_id}");
    let body = json!({"wait_for_completion": false, "style": "coastal"});
    let (status, answer) = call(&sandbox, Method::POST, &path, Some(&auth()), Some(body)).await;
    assert_eq!(status, 200, "{answer}");
    let render = until_done(&sandbox, &render_id).await;
    assert_eq!(render["outputs"].as_array().unwrap().len(), 3, "{render}");
    assert_eq!(render["outputs_styles"][2], "coastal", "{render}");
}

/// EbosetaleseDunjoyin/virtualstagingai (a WordPress plugin calling the service from the page), assets/main.js and
/// templates/virtual-staging-form.php: the browser first asks a preflight for `authorization, x-requested-with`
/// (the script sets `X-Requested-With: XMLHttpRequest`); then `new FormData(form)` is sent with the photo appended
/// as `file`, the form's own fields (the file input `filed`, `room_type`, `style`, `resolution`) in the body and,
/// through `URLSearchParams(formData)`, in the query as well (the file input as its file name). Its styles include
/// `american` and `southwestern`.
#[tokio::test]
async fn a_page_sends_its_form_after_a_preflight_for_x_requested_with() {
    let sandbox = service().await;
    let url = format!(
        "{}/v1/render/create?filed=room.jpg&room_type=living&style=american&resolution=full-hd",
        sandbox.base_url()
    );
    let preflight = reqwest::Client::new()
        .request(Method::OPTIONS, &url)
        .header("Origin", "https://agency.example")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization,x-requested-with")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let allowed = preflight.headers()["access-control-allow-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(allowed.contains("x-requested-with") && allowed.contains("authorization"), "{allowed}");
    let methods = preflight.headers()["access-control-allow-methods"].to_str().unwrap().to_string();
    assert!(methods.contains("POST"), "{methods}");

    let photo = crate::support::sample_jpeg("living-empty.jpg");
    let part = |bytes: Vec<u8>| reqwest::multipart::Part::bytes(bytes).file_name("room.jpg").mime_str("image/jpeg");
    let form = reqwest::multipart::Form::new()
        .part("filed", part(photo.clone()).unwrap())
        .text("room_type", "living")
        .text("style", "american")
        .text("resolution", "full-hd")
        .part("file", part(photo).unwrap());
    let response = reqwest::Client::new()
        .post(&url)
        .header("Origin", "https://agency.example")
        .header("X-Requested-With", "XMLHttpRequest")
        .header("Authorization", format!("Api-key {KEY}"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let status = response.status();
    let answer: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{answer}");
    assert!(answer["result_image_url"].is_string() && answer["render_id"].is_string(), "{answer}");
}
