//! The webhook receiver through the whole app, in-process: only deliveries signed with the webhook secret over
//! their exact bytes are accepted, in any usual encoding of the signature or in the one the deployment sets;
//! captured, misshapen and duplicate deliveries go no further.
//! After them, its parts alone, called directly.

use std::time::Duration;

use axum::http::Method;
use base64::Engine;
use serde_json::json;

use crate::testing::TestApp;
use crate::testing::deliveries::{done_event, done_event_sent_at, signature};
use crate::testing::sse::EventStream;

#[tokio::test]
async fn forged_tampered_and_wrong_secret_deliveries_are_refused() {
    let server = TestApp::start(&[]).await;
    let secret = server.webhook_secret();
    let body = done_event("var_1");
    let good = hex::encode(signature(&secret, &body));

    assert_eq!(server.deliver(&body, None).await, 401, "no signature");
    assert_eq!(server.deliver(&body, Some("deadbeef")).await, 401, "forged");
    let mut tampered = body.clone();
    tampered[5] ^= 1;
    assert_eq!(server.deliver(&tampered, Some(&good)).await, 401, "tampered body");
    let wrong = hex::encode(signature("not-the-secret", &body));
    assert_eq!(server.deliver(&body, Some(&wrong)).await, 401, "wrong secret");
    assert_eq!(server.deliver(&body, Some(&good[..63])).await, 401, "cut short");

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
        assert_eq!(server.deliver(&body, Some(&signed)).await, 200, "{signed}");
    }
    // a signed body that is not a delivery is a 400, after verification
    let junk = b"not json";
    assert_eq!(server.deliver(junk, Some(&hex::encode(signature(&secret, junk)))).await, 400);
}

/// The header and the encoding are the deployment's settings: with `X-Signature` and `sha256-hex`, only a
/// signature there, written so, verifies.
#[tokio::test]
async fn the_signatures_header_and_encoding_are_settings() {
    let settings = ["--webhook-signature-header", "X-Signature", "--webhook-signature-encoding", "sha256-hex"];
    let server = TestApp::start(&settings).await;
    let secret = server.webhook_secret();
    let send = |body: Vec<u8>, header: &'static str, value: String| {
        let asking = server.ask(Method::POST, "/api/webhooks/service").header("content-type", "application/json");
        let answer = asking.header(header, &value).body(body).send();
        async move { answer.await.status().as_u16() }
    };
    let body = done_event("var_set_header");
    let raw = signature(&secret, &body);
    assert_eq!(send(body.clone(), "X-SERVICE-Signature", format!("sha256={}", hex::encode(raw))).await, 401);
    assert_eq!(send(body.clone(), "X-Signature", hex::encode(raw)).await, 401, "bare hex is not sha256-hex");
    assert_eq!(send(body, "X-Signature", format!("sha256={}", hex::encode(raw))).await, 200);
}

#[tokio::test]
async fn duplicate_deliveries_are_published_once() {
    let server = TestApp::start(&[]).await;
    let secret = server.webhook_secret();
    let mut events = EventStream::of(server.get("/api/events").await);

    let body = done_event("var_retried");
    let signed = hex::encode(signature(&secret, &body));
    for _ in 0..3 {
        assert_eq!(server.deliver(&body, Some(&signed)).await, 200);
    }
    let other = done_event("var_next");
    assert_eq!(server.deliver(&other, Some(&hex::encode(signature(&secret, &other)))).await, 200);

    let first = events.next(Duration::from_secs(30)).await.expect("the delivery as an event");
    assert_eq!(first.event.as_deref(), Some("done"));
    assert!(first.data.contains("var_retried"));
    let second = events.next(Duration::from_secs(30)).await.expect("the next delivery");
    assert!(second.data.contains("var_next"), "the retries were dropped: {second:?}");
}

#[tokio::test]
async fn a_captured_delivery_is_not_taken_once_older_than_the_duplicate_window_or_dated_ahead() {
    let server = TestApp::start(&[]).await;
    let secret = server.webhook_secret();
    let sign = |body: &[u8]| hex::encode(signature(&secret, body));
    let eight_days_ago = vstage_api::time::now_millis() - 8 * 24 * 60 * 60 * 1000;
    let old = done_event_sent_at("var_old", eight_days_ago);
    assert_eq!(server.deliver(&old, Some(&sign(&old))).await, 400);
    // Dated ahead, it would outlive the duplicate window and could be sent again once forgotten.
    let in_thirty_days = vstage_api::time::now_millis() + 30 * 24 * 60 * 60 * 1000;
    let ahead = done_event_sent_at("var_ahead", in_thirty_days);
    assert_eq!(server.deliver(&ahead, Some(&sign(&ahead))).await, 400);
    let fresh = done_event_sent_at("var_new", vstage_api::time::now_millis());
    assert_eq!(server.deliver(&fresh, Some(&sign(&fresh))).await, 200);
}

#[tokio::test]
async fn a_delivery_that_names_a_kind_but_is_not_its_shape_is_not_passed_on() {
    let server = TestApp::start(&[]).await;
    let now = vstage_api::time::now_millis();
    let not_done = json!({"event_type": "done", "render_id": "rnd_x", "timestamp": now, "x": 1}).to_string();
    let signed = hex::encode(signature(&server.webhook_secret(), not_done.as_bytes()));
    assert_eq!(server.deliver(not_done.as_bytes(), Some(&signed)).await, 400);
}

use super::*;

#[test]
fn deliveries_verify_with_the_current_secret_only() {
    let body = br#"{"event_type":"done"}"#;
    let signature = vstage_api::signature::sign("s3cret", body);
    let load = |secret: Option<&str>| WebhookSecret::load(secret.map(str::to_string), None).unwrap();
    assert!(load(Some("s3cret")).verifies(body, &signature, Encoding::Any));
    assert!(!load(Some("other")).verifies(body, &signature, Encoding::Any));
    assert!(!load(None).verifies(body, &signature, Encoding::Any), "no secret, nothing verifies");
    let rotated = load(Some("s3cret"));
    rotated.replace(Some("rotated".into())).unwrap();
    assert!(!rotated.verifies(body, &signature, Encoding::Any));
    assert!(rotated.verifies(body, &vstage_api::signature::sign("rotated", body), Encoding::Hex));
}

#[test]
fn the_secret_never_shows_in_debug_output() {
    let secret = WebhookSecret::load(Some("s3cret-xyz".into()), None).unwrap();
    let shown = format!("{secret:?}");
    assert!(!shown.contains("s3cret-xyz") && shown.contains("set: true"), "{shown}");
}

#[test]
fn event_names_are_plain_words() {
    assert_eq!(event_name(Some("done")), "done");
    assert_eq!(event_name(Some("evil\nretry: 1")), "unknown");
    assert_eq!(event_name(None), "unknown");
    assert_eq!(event_name(Some("reset")), "unknown", "the stream's own events are not the service's to send");
    assert_eq!(event_name(Some("token_expired")), "unknown");
}
