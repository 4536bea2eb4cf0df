//! `vstage-api`'s client in a real browser (fetch through gloo-net), against a real sandbox over HTTP:
//! its endpoints, its errors, and the retry rules, with failures produced by the sandbox's fault injection.
//!
//! `cargo xtask test` starts `vstage sandbox` with the keys `wasm-client-1` to `wasm-client-8` (one per test, so
//! armed faults never cross tests) and passes its address in `VSTAGE_TEST_SANDBOX` when building these tests.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use serde_json::{Value, json};
use vstage_api::transport::BrowserTransport;
use vstage_api::{ApiError, Auth, Client, ListRenders, RetryPolicy, SetWebhookSecret};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn sandbox_url() -> &'static str {
    match option_env!("VSTAGE_TEST_SANDBOX") {
        Some(url) => url,
        None => panic!("VSTAGE_TEST_SANDBOX is set by `cargo xtask test`; run these tests with it"),
    }
}

fn client(key: &str) -> Client<BrowserTransport> {
    Client::new(sandbox_url(), BrowserTransport).with_auth(Auth::ApiKey(key.to_string()))
}

/// Arms a fault on the sandbox for `key`'s account.
async fn arm(key: &str, fault: Value) {
    let response = gloo_net::http::Request::post(&format!("{}/sandbox/faults", sandbox_url()))
        .header("Authorization", &format!("Api-Key {key}"))
        .json(&fault)
        .unwrap()
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "the fault is armed");
}

/// How often each of `key`'s faults fired.
async fn hits(key: &str) -> Vec<u64> {
    let response = gloo_net::http::Request::get(&format!("{}/sandbox/faults", sandbox_url()))
        .header("Authorization", &format!("Api-Key {key}"))
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    body["faults"].as_array().unwrap().iter().map(|f| f["hits"].as_u64().unwrap()).collect()
}

#[wasm_bindgen_test]
async fn status_and_user_come_from_the_sandbox() {
    let client = client("wasm-client-1");
    client.status().await.unwrap();
    let user = client.user().await.unwrap();
    assert_eq!(user.staging_usage(), (0, 100));
    assert!(user.user.uid.starts_with("acct_"), "{}", user.user.uid);
}

#[wasm_bindgen_test]
async fn a_wrong_key_gets_the_services_own_message() {
    let error = client("not-a-key").user().await.unwrap_err();
    assert_eq!(error, ApiError::Http { status: 401, message: Some("Invalid API key.".into()) });
    assert_eq!(error.to_string(), "Invalid API key.");
}

#[wasm_bindgen_test]
async fn the_webhook_secret_is_set_and_removed() {
    let client = client("wasm-client-2");
    let set = client.set_webhook_secret(&SetWebhookSecret { webhook_secret: "browser_secret".into() }).await.unwrap();
    assert_eq!(set.message, "Webhook secret set.");
    assert_eq!(client.delete_webhook_secret().await.unwrap().message, "Webhook secret removed.");
}

#[wasm_bindgen_test]
async fn a_get_answered_503_is_retried_and_succeeds() {
    let key = "wasm-client-3";
    arm(key, json!({"method": "GET", "path": "/v2/user", "status": 503})).await;
    let fast = RetryPolicy { base_delay: Duration::from_millis(10), ..RetryPolicy::default() };
    let user = client(key).with_retry(fast).user().await.unwrap();
    assert!(user.user.uid.starts_with("acct_"));
    assert_eq!(hits(key).await, [1], "the first attempt met the fault, the retry did not");
}

#[wasm_bindgen_test]
async fn a_post_answered_503_is_not_retried() {
    let key = "wasm-client-4";
    arm(key, json!({"method": "POST", "path": "/v2/user/webhook-secret", "status": 503})).await;
    let client = client(key);
    let secret = SetWebhookSecret { webhook_secret: "once".into() };
    let error = client.set_webhook_secret(&secret).await.unwrap_err();
    assert_eq!(error.status(), Some(503));
    assert_eq!(hits(key).await, [1]);
    // the fault is spent: the person's own retry goes through
    client.set_webhook_secret(&secret).await.unwrap();
}

#[wasm_bindgen_test]
async fn retry_after_is_honoured_in_the_browser() {
    let key = "wasm-client-5";
    arm(key, json!({"method": "GET", "path": "/v2/status", "status": 429, "retry_after": 1})).await;
    let started = js_sys::Date::now();
    client(key).status().await.unwrap();
    let waited = js_sys::Date::now() - started;
    assert!(waited >= 1000.0, "the client waited the Retry-After second before retrying (waited {waited} ms)");
    assert_eq!(hits(key).await, [1]);
}

#[wasm_bindgen_test]
async fn an_unreachable_server_is_a_network_error_with_a_sentence() {
    let client = Client::new("http://127.0.0.1:9", BrowserTransport)
        .with_retry(RetryPolicy { max_retries: 0, ..RetryPolicy::default() });
    let error = client.status().await.unwrap_err();
    assert!(matches!(error, ApiError::Network { .. }), "{error:?}");
    assert!(error.to_string().starts_with("Could not reach the staging service"), "{error}");
}

#[wasm_bindgen_test]
async fn a_request_outside_the_contract_is_refused_before_sending() {
    let error = client("wasm-client-6").list_renders(&ListRenders { limit: Some(0), ..ListRenders::default() }).await;
    assert!(matches!(error, Err(ApiError::Invalid(ref e)) if e.field == "limit"), "{error:?}");
}
