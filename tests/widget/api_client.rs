//! `vstage-api`'s client in a real browser (fetch through gloo-net), against a real sandbox over HTTP:
//! its endpoints, its errors, and the retry rules, with failures produced by the sandbox's fault injection.
//!
//! `cargo xtask test` starts `vstage sandbox` (fast processing) with the keys `wasm-client-1` to `wasm-client-8` (one per test, so
//! armed faults never cross tests) and passes its address in `VSTAGE_TEST_SANDBOX` when building these tests.

use std::time::Duration;

use serde_json::{Value, json};
use vstage_api::transport::{BrowserTransport, HttpRequest, HttpResponse, Transport, TransportError};
use vstage_api::{ApiError, Auth, Client, ListRenders, RetryPolicy, SetWebhookSecret};
use wasm_bindgen_test::*;

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
    assert_eq!(user.staging_usage(), (0, &vstage_api::Limit::Photos(100)));
    assert!(user.user.as_ref().unwrap().uid.starts_with("acct_"), "{}", user.user.as_ref().unwrap().uid);
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
    assert!(user.user.as_ref().unwrap().uid.starts_with("acct_"));
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

/// The browser's transport, writing down each wait the client asks of it before waiting.
struct RecordingWaits {
    waits: std::cell::RefCell<Vec<Duration>>,
}

impl Transport for RecordingWaits {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        BrowserTransport.send(request).await
    }

    async fn sleep(&self, duration: Duration) {
        self.waits.borrow_mut().push(duration);
        BrowserTransport.sleep(duration).await;
    }

    fn random_unit(&self) -> f64 {
        BrowserTransport.random_unit()
    }
}

/// The wait asked for, not the time measured: the clock plays no part.
#[wasm_bindgen_test]
async fn retry_after_is_honoured_in_the_browser() {
    let key = "wasm-client-5";
    arm(key, json!({"method": "GET", "path": "/v2/status", "status": 429, "retry_after": 1})).await;
    let client = Client::new(sandbox_url(), RecordingWaits { waits: Default::default() })
        .with_auth(Auth::ApiKey(key.to_string()));
    client.status().await.unwrap();
    let waits = client.transport().waits.borrow().clone();
    assert_eq!(waits, [Duration::from_secs(1)], "the client waited the Retry-After second before retrying");
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

fn staging(removal: Option<vstage_api::RemovalMode>) -> vstage_api::Config {
    use vstage_api::*;
    Config::Staging(StagingConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        add_furniture: AddFurniture {
            style: Style::Scandinavian,
            room_type: RoomType::Living,
            base_variation_id: None,
        },
        remove_furniture: removal.map(|mode| RemoveFurniture { mode, mask_url: None }),
    })
}

fn sample(name: &str) -> String {
    format!("{}/samples/{name}", sandbox_url())
}

#[wasm_bindgen_test]
async fn every_v2_render_endpoint_through_the_browser() {
    use vstage_api::*;
    let client = client("wasm-client-7");
    let request = CreateRender {
        image_urls: Vec::new(),
        image_url: sample("living-furnished.jpg"),
        configs: RenderConfigs::Single { config: staging(Some(RemovalMode::On)), variation_count: 1 },
        webhook_url: None,
        wait_for_completion: None,
    };
    let render = client.create_render(&request).await.unwrap();
    let [removal, staged] = render.variation_items() else { panic!("a removal and a staging variation") };
    assert_eq!(staged.base_variation_id.as_deref(), Some(removal.id.as_str()));

    let page = client.list_renders(&ListRenders { limit: Some(1), ..ListRenders::default() }).await.unwrap();
    assert_eq!(page.items[0].id, render.id);
    let again = client.get_render(&render.id, &GetRender::with_variations(10)).await.unwrap();
    assert_eq!(again.variation_items().len(), 2);
    let variation = client.get_variation(&render.id, &staged.id).await.unwrap();
    assert_eq!(variation.kind, Some(VariationType::Staging));

    let on_base = Config::Staging(StagingConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        add_furniture: AddFurniture {
            style: Style::Modern,
            room_type: RoomType::Living,
            base_variation_id: Some(removal.id.clone()),
        },
        remove_furniture: None,
    });
    let added = client
        .add_variations(
            &render.id,
            &AddVariations { config: on_base, variation_count: 1, wait_for_completion: None },
            Some(2),
        )
        .await
        .unwrap();
    assert_eq!(added.variations[0].base_variation_id.as_deref(), Some(removal.id.as_str()));

    let bulk = BulkCreateRenders {
        webhook_url: None,
        wait_for_completion: None,
        renders: vec![BulkRender {
            config: staging(None),
            image_url: sample("bedroom-furnished.jpg"),
            variation_count: 1,
        }],
    };
    let created = client.bulk_create_renders(&bulk).await.unwrap();
    let more = BulkAddVariations {
        wait_for_completion: Some(true),
        renders: vec![BulkVariations {
            render_id: created.renders[0].id.clone(),
            variation_count: 1,
            config: staging(None),
        }],
    };
    let results = client.bulk_add_variations(&more).await.unwrap();
    assert_eq!(results.results[0].status, VariationStatus::Done, "waited for completion");
    let image = results.results[0].result.as_ref().unwrap().primary().unwrap().clone();
    let fetched = gloo_net::http::Request::get(image.thumbnail()).send().await.unwrap();
    assert_eq!(fetched.status(), 200, "the result can be shown in the page");

    let analysis =
        client.analyze(&Analyze { image_url: sample("living-furnished.jpg"), webhook_url: None }).await.unwrap();
    assert_eq!(analysis.status, AnalysisStatus::Done);
    assert!(analysis.percentage_masked.unwrap() > 0.0);
}

#[wasm_bindgen_test]
async fn every_v1_endpoint_through_the_browser() {
    use vstage_api::*;
    let client = client("wasm-client-8");
    assert!(client.v1_ping().await.unwrap().photo_limit > 0.0);
    assert!(client.v1_options().await.unwrap().room_types.contains(&"bathroom".to_string()));
    let created = client
        .v1_create_render(&v1::CreateRender {
            image_url: Some(sample("living-empty.jpg")),
            room_type: Some(RoomType::Dining),
            style: Some(Style::Luxury),
            ..v1::CreateRender::default()
        })
        .await
        .unwrap();
    assert!(created.result_image_url.is_some(), "v1 waits by default");
    let render = client.v1_render(&created.render_id).await.unwrap();
    assert_eq!(render.status, v1::Status::Done);
    let variation = v1::CreateVariation {
        style: Some(Style::Coastal),
        wait_for_completion: Some(true),
        ..v1::CreateVariation::default()
    };
    client.v1_create_variation(&created.render_id, &variation).await.unwrap();
    let render = client.v1_render(&created.render_id).await.unwrap();
    assert_eq!(render.outputs_styles, ["luxury", "coastal"]);
}
