//! The client's behaviour over a scripted transport: URLs and methods of every endpoint, auth, errors,
//! the retry rules (GETs only, backoff with full jitter, `Retry-After`), validation before sending, cursor walks.

use std::cell::RefCell;
use std::time::Duration;

use futures_executor::block_on;
use serde_json::json;
use vstage_api::transport::{HttpRequest, HttpResponse, Method, Transport, TransportError};
use vstage_api::*;

/// Answers from a script, records every request and every wait, and draws a fixed "random" number.
#[derive(Debug, Default)]
struct Scripted {
    answers: RefCell<Vec<Result<HttpResponse, TransportError>>>,
    requests: RefCell<Vec<HttpRequest>>,
    sleeps: RefCell<Vec<Duration>>,
    random: f64,
}

impl Scripted {
    fn new(answers: Vec<Result<HttpResponse, TransportError>>) -> Self {
        Scripted { answers: RefCell::new(answers), random: 0.5, ..Scripted::default() }
    }
}

impl Transport for Scripted {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.requests.borrow_mut().push(request);
        let mut answers = self.answers.borrow_mut();
        if answers.is_empty() { Err(TransportError::Network("script exhausted".into())) } else { answers.remove(0) }
    }

    async fn sleep(&self, duration: Duration) {
        self.sleeps.borrow_mut().push(duration);
    }

    fn random_unit(&self) -> f64 {
        self.random
    }
}

fn ok(body: serde_json::Value) -> Result<HttpResponse, TransportError> {
    Ok(HttpResponse {
        status: 200,
        retry_after: None,
        www_authenticate: None,
        event_id: None,
        body: body.to_string().into_bytes(),
    })
}

fn status(status: u16, retry_after: Option<&str>) -> Result<HttpResponse, TransportError> {
    Ok(HttpResponse {
        status,
        retry_after: retry_after.map(str::to_string),
        www_authenticate: None,
        event_id: None,
        body: Vec::new(),
    })
}

fn client(answers: Vec<Result<HttpResponse, TransportError>>) -> Client<Scripted> {
    Client::new("/api/", Scripted::new(answers))
}

fn sent(client: &Client<Scripted>) -> Vec<(Method, String)> {
    client.transport().requests.borrow().iter().map(|r| (r.method, r.url.clone())).collect()
}

fn render(id: &str) -> serde_json::Value {
    json!({"id": id, "created_at": 1, "eta": null})
}

fn variation(id: &str) -> serde_json::Value {
    json!({"id": id, "render_id": "r1", "created_at": 1, "status": "queued", "eta": null})
}

fn staging() -> Config {
    Config::Staging(StagingConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        add_furniture: AddFurniture { style: Style::Modern, room_type: RoomType::Living, base_variation_id: None },
        remove_furniture: None,
    })
}

#[test]
fn every_endpoint_has_its_method_and_path() {
    let message = json!({"message": "ok"});
    let c = client(vec![
        status(200, None),
        ok(json!({"user": {"email": "e", "uid": "u"}, "photoLimit": {}, "photosUsedThisPeriod": {}})),
        ok(json!({"items": []})),
        ok(render("r1")),
        ok(render("r1")),
        ok(variation("v1")),
        ok(json!({"variations": []})),
        ok(json!({"renders": []})),
        ok(json!({"results": []})),
        ok(json!({"id": "a", "created_at": 1, "result_url": "https://m", "status": "done"})),
        ok(message.clone()),
        ok(message),
        ok(json!({"userObj": {"email": "e", "uid": "u"}, "photoLimit": 10, "photosUsedThisPeriod": 1})),
        ok(json!({"roomTypes": ["living"], "styles": ["modern"]})),
        ok(json!({"render_id": "r9"})),
        ok(json!({"render_id": "r9", "status": "done", "outputs": []})),
        ok(json!({"render_id": "r9"})),
    ]);
    let image = "https://photos.example/room.jpg".to_string();
    block_on(async {
        c.status().await.unwrap();
        c.user().await.unwrap();
        c.list_renders(&ListRenders { limit: Some(5), cursor: Some("r 0".into()), order: Some(SortOrder::Asc) })
            .await
            .unwrap();
        let single = RenderConfigs::Single { config: staging(), variation_count: 2 };
        c.create_render(&CreateRender {
            image_urls: Vec::new(),
            image_url: image.clone(),
            configs: single,
            webhook_url: None,
            wait_for_completion: None,
        })
        .await
        .unwrap();
        c.get_render("r1", &GetRender::with_variations(50)).await.unwrap();
        c.get_variation("r1", "v1").await.unwrap();
        c.add_variations(
            "r1",
            &AddVariations { config: staging(), variation_count: 1, wait_for_completion: None },
            Some(4),
        )
        .await
        .unwrap();
        let bulk = BulkRender { config: staging(), image_url: image.clone(), variation_count: 1 };
        c.bulk_create_renders(&BulkCreateRenders { webhook_url: None, wait_for_completion: None, renders: vec![bulk] })
            .await
            .unwrap();
        let more = BulkVariations { render_id: "r1".into(), variation_count: 1, config: staging() };
        c.bulk_add_variations(&BulkAddVariations { wait_for_completion: None, renders: vec![more] }).await.unwrap();
        c.analyze(&Analyze { image_url: image.clone(), webhook_url: None }).await.unwrap();
        c.set_webhook_secret(&SetWebhookSecret { webhook_secret: "s3cret_-".into() }).await.unwrap();
        c.delete_webhook_secret().await.unwrap();
        c.v1_ping().await.unwrap();
        c.v1_options().await.unwrap();
        let v1_create = v1::CreateRender {
            image_url: Some(image.clone()),
            room_type: Some(RoomType::Bed),
            style: Some(Style::Coastal),
            wait_for_completion: Some(false),
            ..v1::CreateRender::default()
        };
        c.v1_create_render(&v1_create).await.unwrap();
        c.v1_render("r9").await.unwrap();
        c.v1_create_variation(
            "r9",
            &v1::CreateVariation { style: Some(Style::MidCenturyModern), ..Default::default() },
        )
        .await
        .unwrap();
    });
    use Method::*;
    let expected = [
        (Get, "/api/v2/status"),
        (Get, "/api/v2/user"),
        (Get, "/api/v2/renders?limit=5&cursor=r%200&order=asc"),
        (Post, "/api/v2/renders"),
        (Get, "/api/v2/renders/r1?include_variations=true&variations_limit=50"),
        (Get, "/api/v2/renders/r1/variations/v1"),
        (Post, "/api/v2/renders/r1/variations"),
        (Post, "/api/v2/renders/bulk"),
        (Post, "/api/v2/renders/variations/bulk"),
        (Post, "/api/v2/analyze"),
        (Post, "/api/v2/user/webhook-secret"),
        (Delete, "/api/v2/user/webhook-secret"),
        (Get, "/api/v1/ping"),
        (Get, "/api/v1/options"),
        (Post, "/api/v1/render/create"),
        (Get, "/api/v1/render?render_id=r9"),
        (Post, "/api/v1/render/create-variation?render_id=r9"),
    ];
    let expected: Vec<(Method, String)> = expected.iter().map(|(m, u)| (*m, u.to_string())).collect();
    assert_eq!(sent(&c), expected);

    let requests = c.transport().requests.borrow();
    let body: serde_json::Value = serde_json::from_slice(requests[3].body.as_ref().unwrap()).unwrap();
    assert_eq!(body["config"]["type"], "staging");
    assert_eq!(body["variation_count"], 2);
    assert!(requests.iter().all(|r| r.headers.iter().all(|(name, _)| *name != "Authorization")));
}

#[test]
fn direct_use_sends_the_api_key_and_never_shows_it() {
    let c = Client::new("http://service", Scripted::new(vec![status(200, None)]))
        .with_auth(Auth::ApiKey("k_secret".into()));
    block_on(c.status()).unwrap();
    let requests = c.transport().requests.borrow();
    assert!(requests[0].headers.contains(&("Authorization", "Api-Key k_secret".to_string())));
    assert!(!format!("{c:?}").contains("k_secret"));
    assert!(!format!("{:?}", requests[0]).contains("k_secret"));
}

#[test]
fn a_get_is_retried_after_a_503_and_succeeds() {
    let c = client(vec![status(503, None), ok(json!({"items": []}))]);
    let page = block_on(c.list_renders(&ListRenders::default())).unwrap();
    assert!(page.items.is_empty());
    assert_eq!(sent(&c).len(), 2);
    // full jitter: random 0.5 of the first step (300 ms)
    assert_eq!(*c.transport().sleeps.borrow(), vec![Duration::from_millis(150)]);
}

#[test]
fn a_post_is_never_retried() {
    let c = client(vec![status(503, None), ok(render("r1"))]);
    let request = CreateRender {
        image_urls: Vec::new(),
        image_url: "https://p.example/a.jpg".into(),
        configs: RenderConfigs::Single { config: staging(), variation_count: 1 },
        webhook_url: None,
        wait_for_completion: None,
    };
    let error = block_on(c.create_render(&request)).unwrap_err();
    assert_eq!(error.status(), Some(503));
    assert_eq!(sent(&c).len(), 1);
    assert!(c.transport().sleeps.borrow().is_empty());
}

#[test]
fn retry_after_is_honoured_and_a_long_one_is_not_waited_for() {
    let c = client(vec![status(429, Some("2")), status(200, None)]);
    block_on(c.status()).unwrap();
    assert_eq!(*c.transport().sleeps.borrow(), vec![Duration::from_secs(2)]);

    let c = client(vec![status(429, Some("3600")), status(200, None)]);
    let error = block_on(c.status()).unwrap_err();
    assert_eq!(error.status(), Some(429));
    assert!(error.to_string().contains("Too many requests"), "{error}");
    assert_eq!(sent(&c).len(), 1);
}

#[test]
fn at_most_three_retries_with_growing_jittered_delays() {
    let c = client(vec![
        Err(TransportError::Network("reset".into())),
        status(502, None),
        status(504, None),
        Err(TransportError::Timeout),
        status(200, None),
    ]);
    let error = block_on(c.status()).unwrap_err();
    assert_eq!(error, ApiError::Timeout { seconds: 30 });
    assert_eq!(sent(&c).len(), 4, "one attempt and three retries");
    let sleeps = c.transport().sleeps.borrow();
    assert_eq!(*sleeps, vec![Duration::from_millis(150), Duration::from_millis(300), Duration::from_millis(600)]);
}

#[test]
fn other_errors_are_not_retried_and_carry_the_service_message() {
    let c = client(vec![Ok(HttpResponse {
        status: 404,
        retry_after: None,
        www_authenticate: None,
        event_id: None,
        body: br#"{"message":"Render not found"}"#.to_vec(),
    })]);
    let error = block_on(c.get_render("r_x", &GetRender::default())).unwrap_err();
    assert_eq!(error.to_string(), "Render not found");
    assert_eq!(sent(&c).len(), 1);

    let c = client(vec![ok(json!(["not", "a", "user"]))]);
    assert!(matches!(block_on(c.user()), Err(ApiError::Decode { .. })));
}

#[test]
fn invalid_requests_are_refused_before_anything_is_sent() {
    let c = client(vec![]);
    let error = block_on(c.list_renders(&ListRenders { limit: Some(101), ..Default::default() })).unwrap_err();
    assert!(matches!(&error, ApiError::Invalid(e) if e.field == "limit"), "{error:?}");
    let error = block_on(c.get_render("../user", &GetRender::default())).unwrap_err();
    assert!(matches!(&error, ApiError::Invalid(e) if e.field == "render_id"), "{error:?}");
    let adding = AddVariations { config: staging(), variation_count: 3, wait_for_completion: None };
    let error = block_on(c.add_variations("r1", &adding, Some(18))).unwrap_err();
    assert!(matches!(&error, ApiError::Invalid(e) if e.rule == Rule::TooManyVariations), "{error:?}");
    assert!(error.to_string().contains("2 left"), "{error}");
    assert!(sent(&c).is_empty());
}

#[test]
fn waiting_calls_go_to_the_direct_sync_url_with_a_long_time_limit() {
    let c = Client::new("/api", Scripted::new(vec![ok(render("r1")), ok(render("r2"))]))
        .with_direct_sync_url("https://sync.example/");
    let mut request = CreateRender {
        image_urls: Vec::new(),
        image_url: "https://p.example/a.jpg".into(),
        configs: RenderConfigs::Single { config: staging(), variation_count: 1 },
        webhook_url: None,
        wait_for_completion: Some(true),
    };
    block_on(c.create_render(&request)).unwrap();
    request.wait_for_completion = None;
    block_on(c.create_render(&request)).unwrap();
    let requests = c.transport().requests.borrow();
    assert_eq!(requests[0].url, "https://sync.example/v2/renders");
    assert!(requests[0].timeout >= Duration::from_secs(600));
    assert_eq!(requests[1].url, "/api/v2/renders");
    assert_eq!(requests[1].timeout, Duration::from_secs(30));
}

#[test]
fn cursor_helpers_walk_every_page() {
    let c = client(vec![
        ok(json!({"items": [render("r3"), render("r2")], "next_cursor": "r2"})),
        ok(json!({"items": [render("r1")], "next_cursor": null})),
    ]);
    let renders = block_on(c.all_renders(SortOrder::Desc)).unwrap();
    assert_eq!(renders.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["r3", "r2", "r1"]);
    assert_eq!(sent(&c)[1].1, "/api/v2/renders?limit=100&cursor=r2&order=desc");

    let page = |items: Vec<serde_json::Value>, next: Option<&str>| {
        ok(
            json!({"id": "r1", "created_at": 1, "eta": null, "variations": {"total_count": 3, "next_cursor": next, "items": items}}),
        )
    };
    let c = client(vec![page(vec![variation("v1"), variation("v2")], Some("v2")), page(vec![variation("v3")], None)]);
    let variations = block_on(c.all_variations("r1")).unwrap();
    assert_eq!(variations.len(), 3);
    assert_eq!(sent(&c)[1].1, "/api/v2/renders/r1?include_variations=true&variations_limit=100&variations_cursor=v2");
}

#[test]
fn capabilities_come_from_the_vstage_server_and_missing_flags_read_as_not_offered() {
    let c = client(vec![ok(json!({"mode": "sandbox", "events": true}))]);
    let capabilities = block_on(c.capabilities()).unwrap();
    assert!(capabilities.is_sandbox() && capabilities.events && !capabilities.uploads);
    assert_eq!(sent(&c), [(Method::Get, "/api/capabilities".to_string())]);
    let plain_proxy = client(vec![status(404, None)]);
    assert_eq!(block_on(plain_proxy.capabilities()).unwrap_err().status(), Some(404));
}

#[test]
fn a_large_bulk_goes_in_requests_of_the_documented_size_and_each_says_how_it_ended() {
    let created = |from: usize, to: usize| {
        ok(json!({"renders": (from..to).map(|n| render(&format!("r{n}"))).collect::<Vec<_>>()}))
    };
    let client = client(vec![created(0, 25), status(500, None), created(50, 60)]);
    let request = BulkCreateRenders {
        webhook_url: None,
        wait_for_completion: None,
        renders: (0..60)
            .map(|n| BulkRender {
                config: staging(),
                image_url: format!("https://p.example/{n}.jpg"),
                variation_count: 1,
            })
            .collect(),
    };
    let chunks = block_on(client.bulk_create_renders_in_chunks(&request));
    let firsts: Vec<usize> = chunks.iter().map(|chunk| chunk.first).collect();
    assert_eq!(firsts, [0, 25, 50]);
    assert_eq!(chunks[0].outcome.as_ref().unwrap().len(), 25);
    assert!(chunks[1].outcome.is_err(), "the second request failed, and says so");
    assert_eq!(chunks[2].outcome.as_ref().unwrap()[0].id, "r50", "and the third was still sent");
    let sizes: Vec<usize> = client
        .transport()
        .requests
        .borrow()
        .iter()
        .map(|request| {
            let body: serde_json::Value = serde_json::from_slice(request.body.as_deref().unwrap()).unwrap();
            body["renders"].as_array().unwrap().len()
        })
        .collect();
    assert_eq!(sizes, [25, 25, 10]);
}
