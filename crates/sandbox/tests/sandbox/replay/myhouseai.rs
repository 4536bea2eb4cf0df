//! sportolopez/myhouseai, a Symfony app on v1: src/Service/ApiClientService.php (the calls, with `Api-Key` and a
//! JSON content type on every one, GETs too; anything but a 200 throws) and src/Controller/DefaultController.php
//! (what it reads). It creates with `declutter_mode` as a word, polls `GET /v1/render` until `done`, keeps each
//! output under its file name without extension as an id, saves the one whose URL names `furniture_removed` as the
//! decluttered photo and the others as staged, reading `outputs_room_types[i]` and `outputs_styles[i]`, and asks
//! for variations with `roomType`, once with `'wait_for_completion' => '$waitForCompletion'` (a PHP string never
//! interpolated, at 7e7fe6f, pointed at the real service). Its error-php.log holds real answers of the service
//! (docs/service-api.md, "What the real service does beyond the contract").

use std::collections::HashSet;
use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use vstage_sandbox::RunningSandbox;

use super::{KEY, photo_url, service};
use crate::support::answer;

/// `executeCurlRequest`: every call with the key and `Content-Type: application/json`.
async fn curl(sandbox: &RunningSandbox, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .request(method, format!("{}/{path}", sandbox.base_url()))
        .header("Authorization", format!("Api-Key {KEY}"))
        .header("Content-Type", "application/json");
    if let Some(body) = body {
        request = request.body(body.to_string());
    }
    answer(request).await
}

/// `getRender` until `status == "done"`, as the status route polls it.
async fn until_done(sandbox: &RunningSandbox, render_id: &str) -> Value {
    for _ in 0..1200 {
        let (status, render) = curl(sandbox, Method::GET, &format!("v1/render?render_id={render_id}"), None).await;
        assert_eq!(status, 200, "{render}");
        if render["status"] == "done" {
            return render;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("render {render_id} was not done within a minute");
}

/// The file name of an output without its extension and query (`strtok($name, '?')`, then `'.'`).
fn id_of(output: &str) -> String {
    let name = output.rsplit('/').next().unwrap();
    name.split(['?', '.']).next().unwrap().to_string()
}

#[tokio::test]
async fn the_decluttered_output_is_told_by_its_name_and_variations_ask_with_room_type() {
    let sandbox = service().await;
    let (status, ping) = curl(&sandbox, Method::GET, "v1/ping", None).await;
    assert_eq!(status, 200, "{ping}");

    // `generarImagen`: the real service refused the flag where the word belongs ("Invalid declutter_mode. Must be
    // one of: on, off, auto"), and so does the sandbox; the word is taken
    let mut body = json!({"image_url": photo_url(&sandbox, "living-furnished.jpg"), "room_type": "living",
        "wait_for_completion": false, "declutter_mode": true, "style": "scandinavian"});
    assert_eq!(curl(&sandbox, Method::POST, "v1/render/create", Some(body.clone())).await.0, 400);
    body["declutter_mode"] = json!("on");
    let (status, created) = curl(&sandbox, Method::POST, "v1/render/create", Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let render_id = created["render_id"].as_str().expect("No tiene render ID").to_string();

    let render = until_done(&sandbox, &render_id).await;
    let outputs: Vec<&str> = render["outputs"].as_array().unwrap().iter().map(|o| o.as_str().unwrap()).collect();
    let decluttered: Vec<_> = outputs.iter().filter(|url| url.contains("furniture_removed")).collect();
    assert_eq!(decluttered.len(), 1, "one decluttered photo: {render}");
    let staged: Vec<_> = outputs.iter().enumerate().filter(|(_, url)| !url.contains("furniture_removed")).collect();
    assert_eq!(staged.len(), 1, "one staged photo: {render}");
    let (index, _) = staged[0];
    assert_eq!(
        (&render["outputs_room_types"][index], &render["outputs_styles"][index]),
        (&json!("living"), &json!("scandinavian"))
    );
    for url in &outputs {
        assert_eq!(reqwest::get(*url).await.unwrap().status(), 200, "file_get_contents({url})");
    }

    // `crearVariacionParaRender`, at 7e7fe6f and as it is now
    let path = format!("v1/render/create-variation?render_id={render_id}");
    for wait in [json!("$waitForCompletion"), json!(false)] {
        let body = json!({"wait_for_completion": wait, "roomType": "bed", "style": "modern",
            "add_virtually_staged_watermark": false, "switch_to_queued_immediately": true});
        let (status, varied) = curl(&sandbox, Method::POST, &path, Some(body)).await;
        assert_eq!(status, 200, "{wait}: {varied}");
        until_done(&sandbox, &render_id).await;
    }
    let render = until_done(&sandbox, &render_id).await;
    let outputs = render["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), 4, "{render}");
    let ids: HashSet<String> = outputs.iter().map(|o| id_of(o.as_str().unwrap())).collect();
    assert_eq!(ids.len(), 4, "every output has an id of its own: {render}");
    assert_eq!(render["outputs_room_types"][3], "bed");
    assert_eq!(render["outputs_styles"][3], "modern");
}
