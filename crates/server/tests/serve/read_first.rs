//! Nothing relayed that was not read: what a token holder (or another site's page) sends is read into the
//! contract's types before anything leaves, the service is sent this server's own serialisation, and what the
//! service answers is examined before the browser sees it. A recording stand-in shows what reached the service.

use serde_json::{Value, json};

use crate::recording::RecordingUpstream;
use crate::support::{Server, widget_dir};
use crate::uploads::{contains, jpeg_with_location};
use crate::webhooks::{deliver, done_event_sent_at, kept_secret};
use crate::{WIDGET_SECRET, mint, post_raw, raw_http};

pub const KEY: &str = "sk-live-0123456789abcdef";

/// A server with widget tokens in front of a recording stand-in, and alice's token.
pub async fn behind_tokens(upstream: &RecordingUpstream) -> (tempfile::TempDir, Server, String) {
    let dist = widget_dir();
    let server = Server::start_with(
        dist.path(),
        &["--access", "token", "--upstream", &upstream.url, "--public-url", "https://studio.example"],
        &[("VSTAGE_API_KEY", KEY), ("VSTAGE_WIDGET_SECRET", WIDGET_SECRET), ("VSTAGE_WEBHOOK_SECRET", "whs_0123")],
    )
    .await;
    upstream.forget();
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
    (dist, server, alice)
}

async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_body_that_cannot_be_read_is_refused_and_nothing_is_sent() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    let http = reqwest::Client::new();
    let attack = r#""image_url": "http://169.254.169.254/latest/meta-data/", "webhook_url": "https://attacker.example/h",
                    "variation_count": 1, "config": {"type": "enhancement"}"#;
    let utf16: Vec<u8> = format!("{{{attack}}}").encode_utf16().flat_map(u16::to_le_bytes).collect();
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("a lone surrogate", format!(r#"{{{attack}, "style": "\ud800"}}"#).into_bytes()),
        ("a lone surrogate where it is read", format!("{{{}}}", attack.replace("meta-data/", r"\ud800")).into_bytes()),
        ("UTF-16", [&[0xFF, 0xFE][..], &utf16].concat()),
        ("a number past f64", format!(r#"{{{attack}, "n": 1e400}}"#).into_bytes()),
        ("201 levels deep", format!(r#"{{{attack}, "x": {}1{}}}"#, "[".repeat(201), "]".repeat(201)).into_bytes()),
        ("a key given twice", format!(r#"{{{attack}, "image_url": "https://photos.example/a.jpg"}}"#).into_bytes()),
    ];
    for (what, body) in bodies {
        let request =
            http.post(server.api("/v2/renders")).bearer_auth(&alice).header("content-type", "application/json");
        let (status, answer) = send(request.body(body)).await;
        assert_eq!(status, 400, "{what}: {answer}");
    }
    // a bulk entry whose render_id is not a string is not a bulk request at all
    let bulk =
        json!({"renders": [{"render_id": {"$ne": ""}, "variation_count": 1, "config": {"type": "enhancement"}}]});
    let (status, _) = send(http.post(server.api("/v2/renders/variations/bulk")).bearer_auth(&alice).json(&bulk)).await;
    assert_eq!(status, 400);
    assert!(upstream.seen().is_empty(), "nothing reached the service: {:?}", upstream.seen());
}

#[tokio::test]
async fn the_service_is_sent_what_was_read_and_nothing_else() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    let http = reqwest::Client::new();
    let body = json!({"image_url": "https://photos.example/a.jpg", "variation_count": 1, "smuggled": {"a": [1, 2]},
                      "webhook_url": "https://attacker.example/h",
                      "config": {"type": "staging", "sky_style": "dusk", "extra": "x",
                                 "add_furniture": {"style": "modern", "room_type": "living", "more": 1}}});
    let (status, answer) = send(http.post(server.api("/v2/renders")).bearer_auth(&alice).json(&body)).await;
    assert_eq!(status, 200, "{answer}");
    let seen = upstream.seen();
    let sent: Value = serde_json::from_slice(&seen[0].body).unwrap();
    let receiver = sent["webhook_url"].as_str().unwrap();
    assert!(receiver.starts_with("https://studio.example/api/webhooks/service?creation=crt_"), "{receiver}");
    let without_receiver = json!({"image_url": "https://photos.example/a.jpg", "variation_count": 1,
        "config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}}});
    let mut compared = sent.clone();
    compared.as_object_mut().unwrap().remove("webhook_url");
    assert_eq!(compared, without_receiver);
    assert_eq!(seen[0].headers["content-type"], "application/json");
}

#[tokio::test]
async fn each_body_is_capped_to_what_its_call_needs() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    let array = |bytes: usize| format!("[{}0]", "0,".repeat(bytes / 2));
    for (path, size) in [("/v2/renders", 1024 * 1024), ("/v1/render/create", 26 * 1024 * 1024 - 16)] {
        let status = post_raw(&server.url, &format!("/api{path}"), Some(&alice), &array(size)).await;
        assert_eq!(status, 413, "{path}");
    }
    // A declared length over the cap is refused before any of the body comes (it never does here).
    let host = server.url.trim_start_matches("http://");
    let head = format!(
        "POST /api/v2/renders HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {alice}\r\n\
         Content-Type: application/json\r\nContent-Length: 1048576\r\nConnection: close\r\n\r\n"
    );
    let (status, answer) = tokio::time::timeout(std::time::Duration::from_secs(10), raw_http(&server.url, &head))
        .await
        .expect("the refusal comes without the body");
    assert_eq!(status, 413, "{answer}");
    assert!(answer.contains("more than this call needs"), "{answer}");
    assert!(upstream.seen().is_empty());
}

#[tokio::test]
async fn a_v1_photo_goes_on_without_its_metadata_and_a_non_photo_not_at_all() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    let http = reqwest::Client::new();
    let original = jpeg_with_location();
    assert!(contains(&original, b"48.8584") && contains(&original, b"GPSLatitude"));
    let form = |bytes: Vec<u8>| {
        let file = reqwest::multipart::Part::bytes(bytes).file_name("room.jpg").mime_str("image/jpeg").unwrap();
        reqwest::multipart::Form::new().part("file", file).text("note", "dropped")
    };
    let create = |bytes: Vec<u8>| {
        http.post(server.api("/v1/render/create?room_type=living&style=modern&ROOM_TYPE=x"))
            .bearer_auth(&alice)
            .multipart(form(bytes))
    };
    let (status, answer) = send(create(original.clone())).await;
    assert_eq!(status, 200, "{answer}");
    let seen = upstream.seen();
    assert_eq!(seen[0].path_and_query, "/v1/render/create?room_type=living&style=modern");
    let sent = &seen[0].body;
    assert!(contains(sent, b"filename=\"room.jpg\"") && !contains(sent, b"note"), "{}", String::from_utf8_lossy(sent));
    for secret in [&b"48.8584"[..], b"GPSLatitude", b"Home Street"] {
        assert!(!contains(sent, secret), "{} reached the service", String::from_utf8_lossy(secret));
    }
    let (status, _) = send(create(b"<svg><script>alert(1)</script></svg>".to_vec())).await;
    assert_eq!(status, 415);
    assert_eq!(upstream.seen().len(), 1);
}

#[tokio::test]
async fn a_variation_of_another_render_is_neither_read_nor_built_on() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    let http = reqwest::Client::new();
    let body =
        json!({"image_url": "https://photos.example/a.jpg", "variation_count": 1, "config": {"type": "enhancement"}});
    assert_eq!(send(http.post(server.api("/v2/renders")).bearer_auth(&alice).json(&body)).await.0, 200);
    let mine = "/v2/renders/rnd_recorded";
    let (status, answer) = send(http.get(server.api(&format!("{mine}/variations/var_1"))).bearer_auth(&alice)).await;
    assert_eq!((status, answer["render_id"].as_str()), (200, Some("rnd_recorded")), "{answer}");
    // the stand-in answers a `foreign...` variation as another render's, as a lax service might
    let (status, answer) =
        send(http.get(server.api(&format!("{mine}/variations/foreign-1"))).bearer_auth(&alice)).await;
    assert_eq!(status, 404, "{answer}");

    let on_base = |base: &str| {
        json!({"variation_count": 1, "config": {"type": "staging",
               "add_furniture": {"style": "modern", "room_type": "living", "base_variation_id": base}}})
    };
    let add = |body: Value| http.post(server.api(&format!("{mine}/variations"))).bearer_auth(&alice).json(&body);
    let posts = || upstream.seen().iter().filter(|seen| seen.method == "POST").count();
    let before = posts();
    let (status, answer) = send(add(on_base("foreign-2"))).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("not a variation of render"), "{answer}");
    assert_eq!(posts(), before, "nothing was added");
    let (status, answer) = send(add(on_base("var_2"))).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(posts(), before + 1);
}

#[tokio::test]
async fn the_services_words_reach_the_browser_only_when_they_are_safe() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--upstream", &upstream.url], &[("VSTAGE_API_KEY", KEY)]).await;
    let http = reqwest::Client::new();
    // a refusal that echoes the request's Authorization: our own sentence, never the key, and not a 401 (which
    // the widget would take for its own token refused)
    let response = http.get(server.api("/v2/renders/echo-401")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 502);
    let text = response.text().await.unwrap();
    assert!(!text.contains(KEY) && !text.contains("Api-Key") && !text.contains("0123456789"), "{text}");
    assert!(text.contains("VSTAGE_API_KEY"), "{text}");
    // an SVG with a script is not relayed at all
    let svg = http.get(server.api("/v2/renders/svg-image")).send().await.unwrap();
    assert_eq!(svg.status().as_u16(), 502);
    assert_eq!(svg.headers()["content-type"], "application/json");

    // an image relayed under this origin is inert: the sandbox's, as the service's would be
    let sandbox = Server::start(dist.path()).await;
    let photo = crate::sample_url(&sandbox, "living-empty.jpg").await;
    let image = http.get(photo).send().await.unwrap();
    assert_eq!(image.status().as_u16(), 200);
    assert!(image.headers()["content-security-policy"].to_str().unwrap().starts_with("sandbox"));
    assert_eq!(image.headers()["x-content-type-options"], "nosniff");
}

#[tokio::test]
async fn the_sandbox_demo_is_not_offered_with_tokens_and_its_subjects_are_refused_elsewhere() {
    let dist = widget_dir();
    let sandbox_with_tokens =
        Server::start_with(dist.path(), &["--access", "token"], &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    let http = reqwest::Client::new();
    let minted = http.post(format!("{}/demo/token", sandbox_with_tokens.url)).json(&json!({"agent": "ana"})).send();
    assert!(!minted.await.unwrap().status().is_success(), "no demo tokens from a server that takes real ones");
    let page = http.get(format!("{}/demo/listing.html", sandbox_with_tokens.url)).send().await.unwrap();
    assert_ne!(page.headers().get("content-type").map(|v| v.to_str().unwrap()), Some("text/html; charset=utf-8"));

    let demo_token = mint(WIDGET_SECRET, "demo:ana", "1h", None).await;
    let (status, answer) = send(http.get(sandbox_with_tokens.api("/v2/user")).bearer_auth(&demo_token)).await;
    assert_eq!(status, 401, "{answer}");
    let upstream = RecordingUpstream::start().await;
    let (_dist, real, _) = behind_tokens(&upstream).await;
    let (status, answer) = send(http.get(real.api("/v2/renders")).bearer_auth(&demo_token)).await;
    assert_eq!(status, 401, "{answer}");
    assert!(upstream.seen().is_empty());

    // the open sandbox still offers its demo page, whose tokens work there
    let open = Server::start(dist.path()).await;
    let minted: Value = http
        .post(format!("{}/demo/token", open.url))
        .json(&json!({"agent": "ana"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = minted["token"].as_str().unwrap();
    assert_eq!(send(http.get(open.api("/v2/user")).bearer_auth(token)).await.0, 200);
}

#[tokio::test]
async fn another_sites_page_spends_none_of_the_studios_rate_limit() {
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--rate-limit", "60"], &[]).await;
    let http = reqwest::Client::new();
    // what an <img> tag on another site's page sends
    for _ in 0..260 {
        let response = http
            .get(server.api("/v2/status"))
            .header("sec-fetch-site", "cross-site")
            .header("sec-fetch-mode", "no-cors")
            .header("sec-fetch-dest", "image")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 403);
    }
    for _ in 0..6 {
        let own = http.get(server.api("/v2/status")).header("sec-fetch-site", "same-origin").send().await.unwrap();
        assert_eq!(own.status().as_u16(), 200);
    }
}

#[tokio::test]
async fn a_captured_delivery_is_not_taken_once_older_than_the_duplicate_window_or_dated_ahead() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let secret = kept_secret(&server);
    let eight_days_ago = vstage_api::time::now_millis() - 8 * 24 * 60 * 60 * 1000;
    let sign = |body: &[u8]| hex::encode(crate::webhooks::signature(&secret, body));
    let old = done_event_sent_at("var_old", eight_days_ago);
    assert_eq!(deliver(&server, &old, Some(&sign(&old))).await, 400);
    // Dated ahead, it would outlive the duplicate window and could be sent again once forgotten.
    let in_thirty_days = vstage_api::time::now_millis() + 30 * 24 * 60 * 60 * 1000;
    let ahead = done_event_sent_at("var_ahead", in_thirty_days);
    assert_eq!(deliver(&server, &ahead, Some(&sign(&ahead))).await, 400);
    let fresh = done_event_sent_at("var_new", vstage_api::time::now_millis());
    assert_eq!(deliver(&server, &fresh, Some(&sign(&fresh))).await, 200);
}

#[tokio::test]
async fn the_browser_gets_what_the_server_read_of_an_answer_and_nothing_unsafe() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    let http = reqwest::Client::new();
    let created = http.post(server.api("/v2/renders")).bearer_auth(&alice).json(&json!({
        "image_url": "https://photos.example/a.jpg", "variation_count": 1, "config": {"type": "enhancement"}
    }));
    let (status, answer) = send(created).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["id"], "rnd_recorded");
    assert!(answer.get("account_email").is_none(), "{answer}");
    for path in ["/v2/renders/rnd_recorded", "/v2/renders"] {
        let (status, answer) = send(http.get(server.api(path)).bearer_auth(&alice)).await;
        assert_eq!(status, 200, "{path}: {answer}");
        assert!(!answer.to_string().contains("account_email"), "{path}: {answer}");
        assert!(answer.to_string().contains(r#""room_detected":"living_room""#), "{path}: {answer}");
    }
}

#[tokio::test]
async fn a_delivery_that_names_a_kind_but_is_not_its_shape_is_not_passed_on() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let secret = kept_secret(&server);
    let sign = |body: &[u8]| hex::encode(crate::webhooks::signature(&secret, body));
    let now = vstage_api::time::now_millis();
    let not_done = serde_json::to_vec(&json!({"event_type": "done", "render_id": "rnd_x", "timestamp": now, "x": 1}));
    let not_done = not_done.unwrap();
    assert_eq!(deliver(&server, &not_done, Some(&sign(&not_done))).await, 400);
}
