//! `vstage serve` over real HTTP, with the embedded sandbox (or a recording upstream) behind it: forwarding,
//! access and ownership, uploads, the webhook receiver, live events, and the key kept out of everything.

#[path = "../support/mod.rs"]
mod support;

mod access;
mod allowances;
mod board;
mod cost;
mod deadlines;
mod disclosures;
mod events;
mod forwarding;
mod health;
mod host_webhooks;
mod instances;
mod kept;
mod metrics;
mod open_access;
mod read_first;
mod real_service;
mod recording;
mod results;
mod secrets;
mod sse;
mod start_checks;
mod uploads;
mod webhooks;

use serde_json::{Value, json};

use support::Server;

/// The secret the token-access tests sign with.
pub const WIDGET_SECRET: &str = "test-widget-secret-0123456789abcdef";

/// A widget token from `vstage token` (the command a host site can use in examples).
pub async fn mint(secret: &str, sub: &str, ttl: &str, origin: Option<&str>) -> String {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"));
    command.args(["token", "--sub", sub, "--ttl", ttl]).env("VSTAGE_WIDGET_SECRET", secret);
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

/// A request sent byte for byte as written to `base` (`http://HOST:PORT`); the status and body of the answer.
pub async fn raw_http(base: &str, request: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(base.trim_start_matches("http://")).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, answer.split_once("\r\n\r\n").map(|(_, body)| body.to_string()).unwrap_or_default())
}

/// A JSON body posted over a plain socket, which goes on reading the answer when the server stops reading the
/// body (a client library would report the broken pipe instead); the status.
pub async fn post_raw(base: &str, path: &str, token: Option<&str>, body: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let authorization = token.map(|token| format!("Authorization: Bearer {token}\r\n")).unwrap_or_default();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\n{authorization}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    for chunk in body.as_bytes().chunks(64 * 1024) {
        if stream.write_all(chunk).await.is_err() {
            break;
        }
    }
    let mut answer = vec![0u8; 64];
    let read = stream.read(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer[..read]).split_whitespace().nth(1).unwrap().parse().unwrap()
}
