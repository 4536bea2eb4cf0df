//! The webhook receiver: only deliveries signed with the webhook secret over their exact bytes are accepted, in
//! any usual encoding of the signature; duplicates are dropped; an accepted delivery becomes a live event.

use std::time::Duration;

use base64::Engine;
use hmac::{KeyInit, Mac};
use serde_json::{Value, json};

use crate::recording::RecordingUpstream;
use crate::sse::EventStream;
use crate::support::{Server, widget_dir};

pub fn signature(secret: &str, body: &[u8]) -> [u8; 32] {
    let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body);
    mac.finalize().into_bytes().into()
}

/// The webhook secret the server keeps in its data dir.
pub fn kept_secret(server: &Server) -> String {
    let kept = std::fs::read(server.data_dir().join("webhook-secret.json")).unwrap();
    let kept: serde_json::Value = serde_json::from_slice(&kept).unwrap();
    kept["secret"].as_str().unwrap().to_string()
}

pub async fn deliver(server: &Server, body: &[u8], signature: Option<&str>) -> u16 {
    let mut request = reqwest::Client::new()
        .post(server.api("/webhooks/service"))
        .header("Content-Type", "application/json")
        .body(body.to_vec());
    if let Some(signature) = signature {
        request = request.header("X-SERVICE-Signature", signature);
    }
    request.send().await.unwrap().status().as_u16()
}

/// Delivers a `done` event about `variation`, signed with the server's kept secret; the status.
pub async fn deliver_done(server: &Server, variation: &str) -> u16 {
    let body = done_event(variation);
    deliver(server, &body, Some(&hex::encode(signature(&kept_secret(server), &body)))).await
}

pub fn done_event(variation: &str) -> Vec<u8> {
    done_event_sent_at(variation, vstage_api::time::now_millis())
}

/// A `done` event about `variation` that the service sent at `timestamp` (epoch milliseconds).
pub fn done_event_sent_at(variation: &str, timestamp: i64) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "event_type": "done",
        "render_id": "rnd_from_elsewhere",
        "variation_id": variation,
        "timestamp": timestamp,
        "result": {"url": "https://img.example/a.jpg", "optimized_url": null, "thumbnail_url": null}
    }))
    .unwrap()
}

#[tokio::test]
async fn forged_tampered_and_wrong_secret_deliveries_are_refused() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let secret = kept_secret(&server);
    let body = done_event("var_1");
    let good = hex::encode(signature(&secret, &body));

    assert_eq!(deliver(&server, &body, None).await, 401, "no signature");
    assert_eq!(deliver(&server, &body, Some("deadbeef")).await, 401, "forged");
    let mut tampered = body.clone();
    tampered[5] ^= 1;
    assert_eq!(deliver(&server, &tampered, Some(&good)).await, 401, "tampered body");
    let wrong = hex::encode(signature("not-the-secret", &body));
    assert_eq!(deliver(&server, &body, Some(&wrong)).await, 401, "wrong secret");
    assert_eq!(deliver(&server, &body, Some(&good[..63])).await, 401, "cut short");

    // every usual encoding of the right signature is accepted
    for (index, encode) in [
        |raw: &[u8]| hex::encode(raw),
        |raw: &[u8]| hex::encode_upper(raw),
        |raw: &[u8]| format!("sha256={}", hex::encode(raw)),
        |raw: &[u8]| base64::engine::general_purpose::STANDARD.encode(raw),
    ]
    .into_iter()
    .enumerate()
    {
        let body = done_event(&format!("var_encoding_{index}"));
        let signed = encode(&signature(&secret, &body));
        assert_eq!(deliver(&server, &body, Some(&signed)).await, 200, "{signed}");
    }
    // a signed body that is not a delivery is a 400, after verification
    let junk = b"not json";
    assert_eq!(deliver(&server, junk, Some(&hex::encode(signature(&secret, junk)))).await, 400);
}

/// The header and the encoding are the deployment's settings: with `X-Signature` and `sha256-hex`, only a
/// signature there, written so, verifies; `vstage check` says what it expects.
#[tokio::test]
async fn the_signatures_header_and_encoding_are_settings() {
    let dist = widget_dir();
    let settings = ["--webhook-signature-header", "X-Signature", "--webhook-signature-encoding", "sha256-hex"];
    let server = Server::start_with(dist.path(), &settings, &[]).await;
    let secret = kept_secret(&server);
    let send = |body: Vec<u8>, header: &'static str, value: String| {
        let request = reqwest::Client::new().post(server.api("/webhooks/service"));
        let request = request.header("Content-Type", "application/json").header(header, value).body(body);
        async move { request.send().await.unwrap().status().as_u16() }
    };
    let body = done_event("var_set_header");
    let raw = signature(&secret, &body);
    assert_eq!(send(body.clone(), "X-SERVICE-Signature", format!("sha256={}", hex::encode(raw))).await, 401);
    assert_eq!(send(body.clone(), "X-Signature", hex::encode(raw)).await, 401, "bare hex is not sha256-hex");
    assert_eq!(send(body, "X-Signature", format!("sha256={}", hex::encode(raw))).await, 200);

    let data = tempfile::tempdir().unwrap();
    let checked = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["check", "--dist"])
        .arg(dist.path())
        .arg("--data-dir")
        .arg(data.path())
        .args(settings)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(said.contains("x-signature header, written as sha256-hex"), "{said}");
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["check", "--webhook-signature-encoding", "rot13"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("sha256-hex"), "the choices are named");
}

#[tokio::test]
async fn refused_deliveries_are_reported_and_change_nothing_anyone_is_offered() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();
    let capabilities =
        async || -> Value { http.get(server.api("/capabilities")).send().await.unwrap().json().await.unwrap() };
    let webhooks = async || -> Value {
        let report: Value = http.get(format!("{}/readyz", server.url)).send().await.unwrap().json().await.unwrap();
        report["webhooks"].clone()
    };
    let offered = capabilities().await;
    assert_eq!((offered["events"].as_bool(), webhooks().await), (Some(true), "none_yet".into()));
    // forgeries, or the service signing with a secret of its own: anyone can send these
    for variation in ["var_a", "var_b", "var_c", "var_d"] {
        let body = done_event(variation);
        assert_eq!(deliver(&server, &body, Some(&hex::encode(signature("the-services-own", &body)))).await, 401);
    }
    assert_eq!(capabilities().await, offered, "what widgets are offered does not change");
    assert_eq!(webhooks().await, "refused", "the operator is told");
    let output = server.wait_for_output("keep failing verification").await;
    assert!(output.contains("--set-webhook-secret"), "{output}");
    assert_eq!(output.matches("keep failing verification").count(), 1, "said once, loudly: {output}");
    assert_eq!(output.matches("refused a webhook delivery").count(), 1, "not a line per forgery: {output}");

    assert_eq!(deliver_done(&server, "var_e").await, 200);
    assert_eq!(webhooks().await, "verifying");
}

#[tokio::test]
async fn duplicate_deliveries_are_published_once() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let secret = kept_secret(&server);
    let http = reqwest::Client::new();
    let mut events = EventStream::open(http.get(server.api("/events"))).await;

    let body = done_event("var_retried");
    let signed = hex::encode(signature(&secret, &body));
    for _ in 0..3 {
        assert_eq!(deliver(&server, &body, Some(&signed)).await, 200);
    }
    let other = done_event("var_next");
    assert_eq!(deliver(&server, &other, Some(&hex::encode(signature(&secret, &other)))).await, 200);

    let first = events.next(Duration::from_secs(30)).await.expect("the delivery as an event");
    assert_eq!(first.event.as_deref(), Some("done"));
    assert!(first.data.contains("var_retried"));
    let second = events.next(Duration::from_secs(30)).await.expect("the next delivery");
    assert!(second.data.contains("var_next"), "the retries were dropped: {second:?}");
}

#[tokio::test]
async fn a_secret_rotated_against_a_real_upstream_is_kept_across_restarts() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let args = ["--upstream", upstream.url.as_str()];
    let env = |secret| [("VSTAGE_API_KEY", "k_test"), ("VSTAGE_WEBHOOK_SECRET", secret)];
    let signed = |secret: &str, variation: &str| {
        let body = done_event(variation);
        let signature = hex::encode(signature(secret, &body));
        (body, signature)
    };
    let accepts = async |server: &Server, secret: &str, variation: &str| {
        let (body, signature) = signed(secret, variation);
        deliver(server, &body, Some(&signature)).await
    };
    let server = Server::start_with(dist.path(), &args, &env("first-secret")).await;
    assert_eq!(accepts(&server, "first-secret", "var_1").await, 200);

    // the operator rotates the secret through the proxy
    let rotated = reqwest::Client::new()
        .post(server.api("/v2/user/webhook-secret"))
        .json(&json!({"webhook_secret": "rotated-secret"}))
        .send()
        .await
        .unwrap();
    assert_eq!(rotated.status().as_u16(), 200);
    assert_eq!(accepts(&server, "rotated-secret", "var_2").await, 200);
    assert_eq!(accepts(&server, "first-secret", "var_3").await, 401);

    // a restart with the same environment keeps the rotated secret, the one the service signs with now
    let server = server.restart_with(dist.path(), &args, &env("first-secret")).await;
    assert_eq!(accepts(&server, "rotated-secret", "var_4").await, 200);
    assert_eq!(accepts(&server, "first-secret", "var_5").await, 401);

    // an environment changed since then is the operator's newer word
    let server = server.restart_with(dist.path(), &args, &env("third-secret")).await;
    assert_eq!(accepts(&server, "third-secret", "var_6").await, 200);
    assert_eq!(accepts(&server, "rotated-secret", "var_7").await, 401);
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
