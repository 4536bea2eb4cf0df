//! The account endpoints beyond the key check: the webhook secret, fault injection and CORS, over real HTTP.

use std::time::Duration;

use crate::support::{client, sandbox};
use vstage_api::{ApiError, RetryPolicy, SetWebhookSecret};

#[tokio::test]
async fn the_webhook_secret_is_set_replaced_and_removed_with_the_contract_pattern() {
    let sandbox = sandbox(&["key-one"]).await;
    let client = client(&sandbox, "key-one");
    let set = |secret: &str| SetWebhookSecret { webhook_secret: secret.to_string() };
    assert_eq!(client.set_webhook_secret(&set("first_secret")).await.unwrap().message, "Webhook secret set.");
    assert_eq!(client.set_webhook_secret(&set("second-secret")).await.unwrap().message, "Webhook secret updated.");
    assert_eq!(client.delete_webhook_secret().await.unwrap().message, "Webhook secret removed.");
    assert_eq!(client.delete_webhook_secret().await.unwrap().message, "No webhook secret was set.");

    // the sandbox checks the pattern itself, whatever a client sends
    let raw = reqwest::Client::new();
    for body in [r#"{"webhook_secret": ""}"#, r#"{"webhook_secret": "no spaces"}"#, r#"{"secret": "x"}"#, "not json"] {
        let response = raw
            .post(format!("{}/v2/user/webhook-secret", sandbox.base_url()))
            .header("Authorization", "Api-Key key-one")
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{body}");
        let answer: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        assert!(answer["message"].as_str().is_some_and(|m| m.len() > 10), "{body}: {answer}");
    }
}

#[tokio::test]
async fn an_armed_fault_answers_the_next_matching_requests_of_that_account_only() {
    let sandbox = sandbox(&["key-one", "key-two"]).await;
    let raw = reqwest::Client::new();
    let armed = raw
        .post(format!("{}/sandbox/faults", sandbox.base_url()))
        .header("Authorization", "Api-Key key-one")
        .json(&serde_json::json!({"method": "GET", "path": "/v2/user", "status": 503, "retry_after": 1, "times": 2}))
        .send()
        .await
        .unwrap();
    assert_eq!(armed.status().as_u16(), 200);

    let get_user = |key: &'static str| {
        raw.get(format!("{}/v2/user", sandbox.base_url())).header("Authorization", format!("Api-Key {key}")).send()
    };
    assert_eq!(get_user("key-two").await.unwrap().status().as_u16(), 200, "another account is not affected");
    let faulted = get_user("key-one").await.unwrap();
    assert_eq!(faulted.status().as_u16(), 503);
    assert_eq!(faulted.headers()["retry-after"], "1");

    // the client retries through the second fault, honouring Retry-After, and gets the user
    let no_jitter = RetryPolicy { base_delay: Duration::from_millis(1), ..RetryPolicy::default() };
    let user = client(&sandbox, "key-one").with_retry(no_jitter).user().await.unwrap();
    assert!(user.user.unwrap().uid.starts_with("acct_"));

    let listed: serde_json::Value = raw
        .get(format!("{}/sandbox/faults", sandbox.base_url()))
        .header("Authorization", "Api-Key key-one")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["faults"][0]["hits"], 2);
    assert_eq!(listed["faults"][0]["remaining"], 0);
}

#[tokio::test]
async fn a_fault_on_a_post_is_not_retried_by_the_client() {
    let sandbox = sandbox(&["key-one"]).await;
    let raw = reqwest::Client::new();
    raw.post(format!("{}/sandbox/faults", sandbox.base_url()))
        .header("Authorization", "Api-Key key-one")
        .json(&serde_json::json!({"method": "POST", "path": "/v2/user/webhook-secret", "status": 502}))
        .send()
        .await
        .unwrap();
    let error = client(&sandbox, "key-one")
        .set_webhook_secret(&SetWebhookSecret { webhook_secret: "s".into() })
        .await
        .unwrap_err();
    assert_eq!(
        error,
        ApiError::Http { status: 502, message: Some("Simulated 502 from the sandbox's fault injection.".into()) }
    );
}

#[tokio::test]
async fn browsers_may_call_it_from_any_origin() {
    let sandbox = sandbox(&["key-one"]).await;
    let preflight = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, format!("{}/v2/user", sandbox.base_url()))
        .header("Origin", "http://127.0.0.1:9999")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "authorization")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    assert!(preflight.headers()["access-control-allow-headers"].to_str().unwrap().contains("authorization"));
}

#[tokio::test]
async fn the_openapi_document_names_every_endpoint_and_this_server() {
    let sandbox = sandbox(&["key-one"]).await;
    let document: serde_json::Value =
        reqwest::get(format!("{}/openapi.json", sandbox.base_url())).await.unwrap().json().await.unwrap();
    assert_eq!(document["openapi"], "3.0.3");
    assert_eq!(document["servers"][0]["url"], sandbox.base_url());
    let paths = document["paths"].as_object().unwrap();
    for (path, method) in [
        ("/v2/status", "get"),
        ("/v2/user", "get"),
        ("/v2/user/webhook-secret", "post"),
        ("/v2/user/webhook-secret", "delete"),
        ("/v2/renders", "get"),
        ("/v2/renders", "post"),
        ("/v2/renders/bulk", "post"),
        ("/v2/renders/variations/bulk", "post"),
        ("/v2/renders/{render_id}", "get"),
        ("/v2/renders/{render_id}/variations", "get"),
        ("/v2/renders/{render_id}/variations", "post"),
        ("/v2/renders/{render_id}/variations/{variation_id}", "get"),
        ("/v2/analyze", "post"),
        ("/v2/multi-view-compatability", "post"),
        ("/v1/ping", "get"),
        ("/v1/options", "get"),
        ("/v1/render/create", "post"),
        ("/v1/render", "get"),
        ("/v1/render/create-variation", "post"),
    ] {
        assert!(paths[path][method].is_object(), "{method} {path}");
    }
    assert_eq!(paths.values().map(|p| p.as_object().unwrap().len()).sum::<usize>(), 19);
    assert_eq!(document["servers"][1]["url"], format!("{}/direct-sync", sandbox.base_url()), "the long-running one");
}
