//! Webhook deliveries and `wait_for_completion`, over real HTTP to a receiver run by the test: one delivery per
//! variation, signed with the account's secret, retried up to 3 times, variations added later included.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::{client, sandbox_with};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use vstage_api::signature;
use vstage_api::*;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

/// What the receiver was sent, and the statuses it answers (200 once the script is used up).
#[derive(Default)]
struct Receiver {
    deliveries: Mutex<Vec<(Option<String>, Bytes)>>,
    script: Mutex<VecDeque<u16>>,
}

async fn receive(State(receiver): State<Arc<Receiver>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let signature = headers.get(signature::HEADER).map(|v| v.to_str().unwrap().to_string());
    receiver.deliveries.lock().unwrap().push((signature, body));
    StatusCode::from_u16(receiver.script.lock().unwrap().pop_front().unwrap_or(200)).unwrap()
}

async fn receiver(script: &[u16]) -> (Arc<Receiver>, String) {
    let receiver = Arc::new(Receiver { script: Mutex::new(script.iter().copied().collect()), ..Receiver::default() });
    let app = axum::Router::new().route("/hook", axum::routing::post(receive)).with_state(receiver.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (receiver, url)
}

async fn fast_sandbox() -> RunningSandbox {
    sandbox_with(SandboxConfig { processing_ms: 20, webhook_retry_ms: 20, ..SandboxConfig::new(vec!["k".into()]) })
        .await
}

fn staging() -> Config {
    Config::Staging(StagingConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        add_furniture: AddFurniture { style: Style::Modern, room_type: RoomType::Bed, base_variation_id: None },
        remove_furniture: None,
    })
}

fn render(image_url: String, count: u64, webhook_url: Option<String>, wait: bool) -> CreateRender {
    CreateRender {
        image_urls: Vec::new(),
        image_url,
        configs: RenderConfigs::Single { config: staging(), variation_count: count },
        webhook_url,
        wait_for_completion: Some(wait),
    }
}

/// The deliveries once `count` have arrived (and a moment for any extra one to show up).
async fn deliveries(receiver: &Receiver, count: usize) -> Vec<(Option<String>, Bytes)> {
    for _ in 0..1200 {
        if receiver.deliveries.lock().unwrap().len() >= count {
            tokio::time::sleep(Duration::from_millis(150)).await;
            return receiver.deliveries.lock().unwrap().clone();
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("expected {count} deliveries, got {}", receiver.deliveries.lock().unwrap().len());
}

#[tokio::test]
async fn one_signed_done_delivery_per_variation_and_none_for_the_render() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    client.set_webhook_secret(&SetWebhookSecret { webhook_secret: "hook_secret".into() }).await.unwrap();
    let (receiver, url) = receiver(&[]).await;
    let photo = format!("{}/samples/bedroom-furnished.jpg", sandbox.base_url());
    let created = client.create_render(&render(photo, 2, Some(url), true)).await.unwrap();
    assert!(created.variation_items().iter().all(|v| v.status == VariationStatus::Done), "waited for completion");

    let sent = deliveries(&receiver, 2).await;
    assert_eq!(sent.len(), 2);
    let mut ids = Vec::new();
    for (signature, body) in &sent {
        assert_eq!(signature.as_deref(), Some(signature::sign("hook_secret", body).as_str()), "HMAC of the exact body");
        assert!(signature.as_ref().unwrap().chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)));
        let WebhookEvent::Done(done) = serde_json::from_slice(body).unwrap() else { panic!("a done event") };
        assert_eq!(done.render_id, created.id);
        assert_eq!(done.variation_type, Some(VariationType::Staging));
        ids.push(done.variation_id);
    }
    ids.sort();
    let mut expected: Vec<String> = created.variation_items().iter().map(|v| v.id.clone()).collect();
    expected.sort();
    assert_eq!(ids, expected);

    // variations added later go to the render's webhook address
    client
        .add_variations(
            &created.id,
            &AddVariations { config: staging(), variation_count: 1, wait_for_completion: Some(true) },
            None,
        )
        .await
        .unwrap();
    assert_eq!(deliveries(&receiver, 3).await.len(), 3);
}

#[tokio::test]
async fn a_failure_is_an_error_delivery_and_no_secret_means_no_signature() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let (receiver, url) = receiver(&[]).await;
    let failing = format!("{}/samples/sandbox-fail.jpg", sandbox.base_url());
    client.create_render(&render(failing, 1, Some(url), false)).await.unwrap();
    let sent = deliveries(&receiver, 1).await;
    assert_eq!(sent[0].0, None);
    let WebhookEvent::Error(failed) = serde_json::from_slice(&sent[0].1).unwrap() else { panic!("an error event") };
    assert!(failed.error_message.unwrap().contains("sandbox-fail"));
}

#[tokio::test]
async fn deliveries_are_retried_until_answered_200_and_at_most_three_times() {
    let sandbox = fast_sandbox().await;
    let client = client(&sandbox, "k");
    let photo = format!("{}/samples/living-empty.jpg", sandbox.base_url());

    let (patient, url) = receiver(&[500, 503]).await;
    client.create_render(&render(photo.clone(), 1, Some(url), false)).await.unwrap();
    let sent = deliveries(&patient, 3).await;
    assert_eq!(sent.len(), 3, "two failures, then delivered");
    assert!(sent.windows(2).all(|pair| pair[0].1 == pair[1].1), "the same payload each time");

    let (broken, url) = receiver(&[500; 10]).await;
    client.create_render(&render(photo, 1, Some(url), false)).await.unwrap();
    let sent = deliveries(&broken, 4).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(broken.deliveries.lock().unwrap().len(), 4, "the first attempt and 3 retries");
    assert_eq!(sent.len(), 4);
}

#[tokio::test]
async fn wait_for_completion_answers_with_things_as_they_stand_after_the_time_out() {
    let sandbox = sandbox_with(SandboxConfig {
        // the variation is never done: the answer can only be the one the time-out gives
        processing_ms: 600_000,
        sync_timeout: Duration::from_millis(300),
        ..SandboxConfig::new(vec!["k".into()])
    })
    .await;
    let client = client(&sandbox, "k");
    let photo = format!("{}/samples/living-empty.jpg", sandbox.base_url());
    let created = client.create_render(&render(photo, 1, None, true)).await.unwrap();
    assert!(!created.variation_items()[0].status.is_final(), "answered before the variation finished");
}

#[tokio::test]
async fn a_pending_delivery_survives_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let config = SandboxConfig {
        data_dir: Some(data.path().to_path_buf()),
        processing_ms: 20,
        webhook_retry_ms: 300,
        ..SandboxConfig::new(vec!["k".into()])
    };
    // an address where nothing listens yet: the first attempt fails
    let port = vstage_postgres_cluster::unused_loopback_port();
    let url = format!("http://127.0.0.1:{port}/hook");
    let first = sandbox_with(config.clone()).await;
    let photo = format!("{}/samples/living-empty.jpg", first.base_url());
    client(&first, "k").create_render(&render(photo, 1, Some(url), true)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(first);

    let receiver = Arc::new(Receiver::default());
    let app = axum::Router::new().route("/hook", axum::routing::post(receive)).with_state(receiver.clone());
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let _second = sandbox_with(config).await;
    let sent = deliveries(&receiver, 1).await;
    assert!(matches!(serde_json::from_slice(&sent[0].1).unwrap(), WebhookEvent::Done(_)));
}
