//! The key stays on the server: what the browser sends never reaches the service but the body, the query and the
//! content headers; the key is in no response and no log line; waiting calls go to the direct sync address.

use serde_json::json;

use crate::recording::RecordingUpstream;
use crate::support::{Server, widget_dir};

const KEY: &str = "k_live_do_not_leak_4b1d";

#[tokio::test]
async fn the_browsers_credentials_never_reach_the_service_and_the_key_never_comes_back() {
    let upstream = RecordingUpstream::start().await;
    let direct = RecordingUpstream::start().await;
    let dist = widget_dir();
    let server = Server::start_with(
        dist.path(),
        &["--upstream", &upstream.url, "--direct-sync-url", &direct.url],
        &[("VSTAGE_API_KEY", KEY), ("RUST_LOG", "trace")],
    )
    .await;
    upstream.forget();
    let http = reqwest::Client::new();
    let response = http
        .post(server.api("/v2/renders?note=1"))
        .header("Authorization", "Bearer the-browsers-token")
        .header("Cookie", "session=browser-cookie")
        .header("X-Forwarded-For", "203.0.113.9")
        .header("Connection", "keep-alive, x-hop")
        .header("X-Hop", "hop-by-hop")
        .json(
            &json!({"image_url": "https://img.example/a.jpg", "variation_count": 1, "config": {"type": "enhancement"}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.headers().get("set-cookie").is_none(), "upstream headers are not passed on");
    assert!(response.headers().get("x-upstream-internal").is_none());
    let answer = response.text().await.unwrap();
    assert!(!answer.contains(KEY));

    let seen = upstream.seen();
    assert_eq!(seen.len(), 1);
    let call = &seen[0];
    assert_eq!((call.method.as_str(), call.path_and_query.as_str()), ("POST", "/v2/renders"), "no query of its own");
    assert_eq!(call.headers["authorization"], format!("Api-Key {KEY}").as_str());
    for dropped in ["cookie", "x-forwarded-for", "x-hop"] {
        assert!(call.headers.get(dropped).is_none(), "{dropped} reached the service");
    }
    assert_eq!(call.headers["content-type"], "application/json");
    let body: serde_json::Value = serde_json::from_slice(&call.body).unwrap();
    assert_eq!(body["image_url"], "https://img.example/a.jpg", "the body arrives as sent");
    assert!(direct.seen().is_empty());

    // a waiting call goes to the direct synchronous address
    let waiting = json!({"image_url": "https://img.example/a.jpg", "variation_count": 1,
                         "config": {"type": "enhancement"}, "wait_for_completion": true});
    assert_eq!(http.post(server.api("/v2/renders")).json(&waiting).send().await.unwrap().status(), 200);
    assert_eq!(direct.seen().len(), 1);
    assert_eq!(direct.seen()[0].headers["authorization"], format!("Api-Key {KEY}").as_str());

    // an unreachable service is a 502 that names nothing of it
    drop(server);
    let args = ["--upstream", "http://127.0.0.1:9", "--skip-check", "upstream"];
    let dead = Server::start_with(dist.path(), &args, &[("VSTAGE_API_KEY", KEY)]).await;
    let failed = http.get(dead.api("/v2/user")).send().await.unwrap();
    assert_eq!(failed.status().as_u16(), 502);
    let message = failed.text().await.unwrap();
    assert!(!message.contains("127.0.0.1:9") && !message.contains(KEY), "{message}");
    assert!(!dead.output().contains(KEY));
}

#[tokio::test]
async fn the_sandbox_key_is_in_no_response_and_no_log_line() {
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &[], &[("RUST_LOG", "trace")]).await;
    let key = std::fs::read_to_string(server.data_dir().join("sandbox-api-key")).unwrap();
    assert!(key.len() > 20);
    let http = reqwest::Client::new();
    let samples: serde_json::Value = http.get(server.api("/samples")).send().await.unwrap().json().await.unwrap();
    let photo = samples[0]["url"].as_str().unwrap().to_string();
    let mut answers = Vec::new();
    for request in [
        http.get(server.api("/v2/user")),
        http.get(server.api("/v2/status")),
        http.get(server.api("/capabilities")),
        http.get(server.api("/v1/ping")),
        http.get(server.api("/v2/renders/rnd_missing")),
        http.post(server.api("/v2/renders")).json(&json!({"image_url": "nope", "variation_count": 1})),
        http.post(server.api("/v2/renders"))
            .json(&json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}, "wait_for_completion": true})),
        http.get(server.api("/v2/renders?limit=5")),
        http.post(server.api("/uploads")).body("not an image"),
        http.get(format!("{}/", server.url)),
    ] {
        let response = request.send().await.unwrap();
        let headers = format!("{:?}", response.headers());
        answers.push(format!("{headers}{}", response.text().await.unwrap()));
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    for answer in &answers {
        assert!(!answer.contains(&key), "the key in a response: {answer}");
    }
    let logs = server.output();
    assert!(logs.lines().count() > 10, "trace logging was on: {logs}");
    assert!(!logs.contains(&key), "the key in the log");
}
