//! A sandbox on a free loopback port for one test, and a client for one of its accounts.

use tokio::net::TcpListener;
use vstage_api::transport::NativeTransport;
use vstage_api::{Auth, Client};
use vstage_sandbox::{RunningSandbox, SandboxConfig};

pub async fn sandbox(keys: &[&str]) -> RunningSandbox {
    sandbox_with(SandboxConfig::new(keys.iter().map(|k| k.to_string()).collect())).await
}

/// A fast sandbox with the account `k` that may fetch photos from `local_photo_sources` on this machine.
pub async fn sandbox_allowing(local_photo_sources: &[String]) -> RunningSandbox {
    let local_photo_sources = local_photo_sources.to_vec();
    sandbox_with(SandboxConfig { processing_ms: 20, local_photo_sources, ..SandboxConfig::new(vec!["k".into()]) }).await
}

pub async fn sandbox_with(config: SandboxConfig) -> RunningSandbox {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    vstage_sandbox::spawn(listener, &config, None).unwrap()
}

/// Serves `app` on a free loopback port (a photo host for a test); its origin, e.g. `http://127.0.0.1:40123`.
pub async fn host(app: axum::Router) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    origin
}

/// A sample photo as JPEG bytes, for photo hosts started before the sandbox.
pub fn sample_jpeg(name: &str) -> Vec<u8> {
    let mut jpeg = Vec::new();
    let photo = vstage_imaging::scenes::drawn(name).unwrap();
    photo.write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
    jpeg
}

pub fn client(sandbox: &RunningSandbox, key: &str) -> Client<NativeTransport> {
    Client::new(sandbox.base_url(), NativeTransport::default()).with_auth(Auth::ApiKey(key.to_string()))
}

/// A raw request with an account's key, for what the typed client refuses to send.
pub fn raw(sandbox: &RunningSandbox, method: reqwest::Method, path: &str, key: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .request(method, format!("{}{path}", sandbox.base_url()))
        .header("Authorization", format!("Api-Key {key}"))
}

/// Status and JSON body of a raw answer.
pub async fn answer(request: reqwest::RequestBuilder) -> (u16, serde_json::Value) {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let body = response.bytes().await.unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null))
}
