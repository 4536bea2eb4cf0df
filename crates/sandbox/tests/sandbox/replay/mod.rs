//! Public clients of the real service, replayed call by call against the sandbox with only the base URL changed:
//! each module is one client, each test one of its flows, sending the bodies and headers that client sends (raw
//! JSON, not vstage's types) and reading back what it reads, as it reads it. Each names its source: the public
//! repository and file the calls were read from (docs/service-api.md, "What the real service does beyond the
//! contract", says what they showed).

mod axios_connector;
mod digital_estate;
mod iconic_backend;
mod iconic_demo;
mod listing_lab;
mod myhouseai;
mod paddle_starter;
mod repro_backend;
mod v1_clients;

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use base64::Engine;
use reqwest::Method;
use serde_json::Value;
use tokio::sync::mpsc;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

use crate::support::{answer, sandbox_with};

/// The key of the one account each replay uses.
pub const KEY: &str = "replayed-client";

/// A fast sandbox with the replay's account, its webhook retries quick.
pub async fn service() -> RunningSandbox {
    sandbox_with(SandboxConfig { processing_ms: 20, webhook_retry_ms: 20, ..SandboxConfig::new(vec![KEY.into()]) })
        .await
}

/// One call as a client makes it: `authorization` is the header's whole value as the client writes it (none for
/// a client that sends none), `body` its JSON. Answers the status and the JSON read back (null when none).
pub async fn call(
    sandbox: &RunningSandbox,
    method: Method,
    path: &str,
    authorization: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, format!("{}{path}", sandbox.base_url()));
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    answer(request).await
}

/// A sample photo's public address on the sandbox (clients send addresses of their own storage).
pub fn photo_url(sandbox: &RunningSandbox, sample: &str) -> String {
    format!("{}/samples/{sample}", sandbox.base_url())
}

/// A sample photo as a `data:` URL of a JPEG, as clients without public hosting send it.
pub fn photo_data_url(sample: &str) -> String {
    data_url(&jpeg(&vstage_imaging::scenes::drawn(sample).unwrap(), 90))
}

/// A photo of several megabytes (a noisy 3072 x 2304 JPEG), beyond a 2 MiB body even as raw bytes.
pub fn large_jpeg() -> Vec<u8> {
    let mut state = 0x2545_f491_u32;
    let photo = image::RgbImage::from_fn(3072, 2304, |x, y| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let noise = (state & 0x3f) as u8;
        image::Rgb([(x / 16) as u8 ^ noise, (y / 12) as u8 ^ noise, noise.wrapping_mul(3)])
    });
    jpeg(&photo, 95)
}

pub fn data_url(jpeg: &[u8]) -> String {
    format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(jpeg))
}

fn jpeg(photo: &image::RgbImage, quality: u8) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality).encode_image(photo).unwrap();
    bytes
}

/// The statuses public clients wait in, and those they stop on (superdevvs/Repro_Backend,
/// app/Services/Studio/VirtualStagingProcessor.php; "Listing Lab"'s vsai.js stops on the same three).
pub const PENDING: [&str; 3] = ["queued", "rendering", "idle"];
pub const TERMINAL: [&str; 3] = ["done", "error", "deleted"];

/// Polls `path` (a render with its variations) as the clients do, until every variation is in a terminal
/// status; every status seen on the way must be one the clients know. Fails after a generous bound.
pub async fn until_terminal(sandbox: &RunningSandbox, path: &str, authorization: &str) -> Value {
    for _ in 0..1200 {
        let (status, render) = call(sandbox, Method::GET, path, Some(authorization), None).await;
        assert_eq!(status, 200, "{path}: {render}");
        let items = render["variations"]["items"].as_array().cloned().unwrap_or_default();
        for item in &items {
            let status = item["status"].as_str().unwrap_or_default();
            assert!(PENDING.contains(&status) || TERMINAL.contains(&status), "a status no client knows: {item}");
        }
        if !items.is_empty() && items.iter().all(|item| TERMINAL.contains(&item["status"].as_str().unwrap_or(""))) {
            return render;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{path}: the variations did not all reach a terminal status within a minute");
}

/// A webhook receiver as a client's backend runs it: it answers 200 at once and hands each delivery on, with the
/// query of the address it was posted to.
pub struct Hooks {
    pub url: String,
    deliveries: mpsc::UnboundedReceiver<(Option<String>, Value)>,
}

impl Hooks {
    pub async fn start() -> Hooks {
        let (sender, deliveries) = mpsc::unbounded_channel();
        let app = axum::Router::new().route("/hooks", axum::routing::post(take)).with_state(sender);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hooks", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Hooks { url, deliveries }
    }

    /// The next delivery: the query it came with and its JSON body.
    pub async fn next(&mut self) -> (Option<String>, Value) {
        tokio::time::timeout(Duration::from_secs(60), self.deliveries.recv())
            .await
            .expect("a delivery arrives")
            .expect("the receiver runs")
    }
}

async fn take(
    State(sender): State<mpsc::UnboundedSender<(Option<String>, Value)>>,
    RawQuery(query): RawQuery,
    body: Bytes,
) {
    let _ = sender.send((query, serde_json::from_slice(&body).unwrap_or(Value::Null)));
}
