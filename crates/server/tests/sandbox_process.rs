//! `vstage sandbox` as a process: a hard kill (SIGKILL in the middle of work) loses no accepted render, and after a
//! restart on the same data dir its queued and interrupted variations finish; accounts may come from the environment.

#[path = "support/mod.rs"]
mod support;

use std::time::Duration;

use tokio::process::Child;

use support::{ONE_PIXEL_PNG as PHOTO, sandbox};

async fn start(data: &std::path::Path) -> (Child, String) {
    let data = data.to_str().unwrap();
    sandbox(&["--api-key", "k", "--processing-ms", "400", "--data-dir", data], &[]).await
}

/// A call with an account's key, answered with JSON.
async fn call(request: reqwest::RequestBuilder, key: &str) -> serde_json::Value {
    request.header("Authorization", format!("Api-Key {key}")).send().await.unwrap().json().await.unwrap()
}

async fn variations(url: &str, render_id: &str) -> Vec<serde_json::Value> {
    let http = reqwest::Client::new();
    let render = call(http.get(format!("{url}/v2/renders/{render_id}?include_variations=true")), "k").await;
    render["variations"]["items"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_killed_sandbox_loses_nothing_and_finishes_its_work() {
    let data = tempfile::tempdir().unwrap();
    let (mut first, url) = start(data.path()).await;
    let body = serde_json::json!({"image_url": PHOTO, "variation_count": 6, "config": {"type": "enhancement"}});
    let created = call(reqwest::Client::new().post(format!("{url}/v2/renders")).json(&body), "k").await;
    let render_id = created["id"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(150)).await;
    first.kill().await.unwrap(); // SIGKILL: no shutdown code runs

    let (_second, url) = start(data.path()).await;
    for _ in 0..200 {
        let items = variations(&url, &render_id).await;
        assert_eq!(items.len(), 6, "every accepted variation is still there");
        if items.iter().all(|v| v["status"] == "done") {
            return;
        }
        assert!(items.iter().all(|v| v["status"] != "error"), "{items:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the variations did not finish after the restart");
}

#[tokio::test]
async fn accounts_can_come_from_the_environment() {
    let (_process, url) = sandbox(&[], &[("VSTAGE_SANDBOX_API_KEYS", "first-key,second-key")]).await;
    let mut uids = Vec::new();
    for key in ["first-key", "second-key"] {
        let user = call(reqwest::Client::new().get(format!("{url}/v2/user")), key).await;
        uids.push(user["user"]["uid"].as_str().unwrap().to_string());
    }
    assert_ne!(uids[0], uids[1], "two keys, two accounts");
}
