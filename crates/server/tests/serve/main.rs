//! `vstage serve` as a process, over real HTTP, with the embedded sandbox (or a recording upstream) behind it:
//! what is about processes (start-up checks and refusals, the log, signals and restarts, several servers on one
//! database, the CLI, TLS trust from the environment) and what needs one (S3, exiftool, the metrics listener).
//! The handlers' own tests run in-process, beside them (`crates/server/src/testing/`).

#[path = "../support/mod.rs"]
mod support;

mod access;
mod allowances;
mod configuration;
mod deadlines;
mod deploy;
mod events;
mod forwarding;
mod health;
mod host_webhooks;
mod instances;
mod kept;
mod metrics;
mod secrets;
mod start_checks;
mod uploads;
mod webhooks;

// What the in-process tests use too (`crate::testing` in the server's own tests), each file shared as it is.
#[path = "../../src/testing/deliveries.rs"]
mod deliveries;
#[allow(dead_code)] // the in-process tests use the rest
#[path = "../../src/testing/photos.rs"]
mod photos;
#[allow(dead_code)] // the in-process tests use the rest
#[path = "../../src/testing/recording.rs"]
mod recording;
#[allow(dead_code)] // the in-process tests use the rest
#[path = "../../src/testing/sse.rs"]
mod sse;

use serde_json::{Value, json};

use support::Server;

/// The secret the token-access tests sign with.
pub const WIDGET_SECRET: &str = "test-widget-secret-0123456789abcdef";

/// A widget token from `vstage token` (the command a host site can use in examples).
pub async fn mint(secret: &str, sub: &str, ttl: &str, origin: Option<&str>) -> String {
    mint_as(secret, &["--sub", sub, "--ttl", ttl], origin).await
}

/// `vstage token` with `args`, and `--origin` when given.
pub async fn mint_as(secret: &str, args: &[&str], origin: Option<&str>) -> String {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"));
    command.arg("token").args(args).env("VSTAGE_WIDGET_SECRET", secret);
    if let Some(origin) = origin {
        command.args(["--origin", origin]);
    }
    let output = command.output().await.unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

/// Tokens of two subjects, alice and bob, valid for an hour.
pub async fn alice_and_bob() -> (String, String) {
    (mint(WIDGET_SECRET, "alice", "1h", None).await, mint(WIDGET_SECRET, "bob", "1h", None).await)
}

/// A sample photo's address, as the server lists it.
pub async fn sample_url(server: &Server, name: &str) -> String {
    let samples: Value = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    samples.as_array().unwrap().iter().find(|s| s["name"] == name).unwrap()["url"].as_str().unwrap().to_string()
}

/// A staging render of `photo` with `count` variations, waited for.
pub async fn staged(server: &Server, token: &str, photo: &str, count: u64) -> Value {
    let answer = reqwest::Client::new()
        .post(server.api("/v2/renders"))
        .bearer_auth(token)
        .json(&json!({
            "image_url": photo,
            "variation_count": count,
            "config": {"type": "staging", "add_furniture": {"style": "scandinavian", "room_type": "living"}},
            "wait_for_completion": true,
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    answer.json().await.unwrap()
}

/// Creates an enhancement render of `image_url` (with `token` when given) and returns its JSON.
pub async fn create_render(server: &Server, token: Option<&str>, image_url: &str, wait: bool) -> Value {
    let mut request = reqwest::Client::new().post(server.api("/v2/renders")).json(&json!({
        "image_url": image_url,
        "variation_count": 1,
        "config": {"type": "enhancement"},
        "wait_for_completion": wait,
    }));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.unwrap()
}
