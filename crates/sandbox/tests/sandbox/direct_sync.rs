//! The long-running address: the sandbox serves its API a second time under `/direct-sync`, as the service's
//! OpenAPI lists a second server for synchronous use, where a request that waits for completion is held up to the
//! direct-sync time-out rather than the regular one. The account's work is held (`/sandbox/hold`) so that what
//! each address answers does not depend on how fast the machine is.

use std::time::Duration;

use crate::support::{answer, raw, sandbox_with};
use reqwest::Method;
use serde_json::json;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

fn creation(sandbox: &RunningSandbox) -> serde_json::Value {
    json!({
        "config": {"type": "enhancement"}, "variation_count": 1, "wait_for_completion": true,
        "image_url": format!("{}/samples/living-empty.jpg", sandbox.base_url())
    })
}

#[tokio::test]
async fn a_waiting_request_is_held_longer_at_the_long_running_address() {
    let config = SandboxConfig {
        processing_ms: 20,
        sync_timeout: Duration::ZERO,
        direct_sync_timeout: Duration::from_secs(60),
        ..SandboxConfig::new(vec!["k".into()])
    };
    let sandbox = sandbox_with(config).await;
    assert_eq!(answer(raw(&sandbox, Method::POST, "/sandbox/hold", "k")).await.0, 200);
    let (status, regular) = answer(raw(&sandbox, Method::POST, "/v2/renders", "k").json(&creation(&sandbox))).await;
    assert_eq!(status, 200, "{regular}");
    assert_eq!(regular["variations"]["items"][0]["status"], "queued", "the regular address answers as things stand");

    let waiting =
        tokio::spawn(answer(raw(&sandbox, Method::POST, "/direct-sync/v2/renders", "k").json(&creation(&sandbox))));
    // the long-running address still waits for the held work; released, it is done and answered
    let (status, _) = answer(raw(&sandbox, Method::GET, "/direct-sync/v1/ping", "k")).await;
    assert_eq!(status, 200, "v1 is served there too");
    assert!(!waiting.is_finished());
    assert_eq!(answer(raw(&sandbox, Method::DELETE, "/sandbox/hold", "k")).await.0, 200);
    let (status, direct) = waiting.await.unwrap();
    assert_eq!(status, 200, "{direct}");
    assert_eq!(direct["variations"]["items"][0]["status"], "done", "{direct}");

    let document: serde_json::Value =
        reqwest::get(format!("{}/openapi.json", sandbox.base_url())).await.unwrap().json().await.unwrap();
    let servers: Vec<_> = document["servers"].as_array().unwrap().iter().map(|s| s["url"].clone()).collect();
    assert_eq!(servers, [json!(sandbox.base_url()), json!(format!("{}/direct-sync", sandbox.base_url()))]);
}
