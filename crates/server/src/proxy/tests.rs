//! Forwarding through the whole app, in-process, in front of a recording stand-in for the service: answers are
//! not sniffed and a page from upstream is not relayed, the query sent is this server's own encoding, and a
//! token's holder chooses no webhook and no private address; and in front of a stand-in that answers as the real
//! service does beyond the contract (`testing/real_service.rs`): what it sends reaches the browser as read,
//! nothing refused for being unfamiliar.

use axum::http::Method;
use serde_json::{Value, json};

use crate::testing::real_service::{RENDER, RealService, user, variations};
use crate::testing::recording::RecordingUpstream;
use crate::testing::{Secrets, TestApp};

#[tokio::test]
async fn answers_are_not_sniffed_and_an_upstream_page_is_not_relayed() {
    let upstream = RecordingUpstream::start().await;
    let server = TestApp::in_front_of(&upstream, &[]).await;
    let relayed = server.get("/api/v2/renders/rnd_1").await;
    assert_eq!(relayed.status(), 200);
    assert_eq!(relayed.headers()["x-content-type-options"], "nosniff");
    let refused = server.get("/api/v2/no-such-endpoint").await;
    assert_eq!(refused.headers()["x-content-type-options"], "nosniff", "errors of our own too");
    assert_eq!(server.get("/").await.headers()["x-content-type-options"], "nosniff", "and the widget's files");

    // The service (or a proxy before it) answers an HTML page: it never becomes a page of this origin.
    let html = server.get("/api/v2/renders/html-page").await;
    assert_eq!(html.headers()["content-type"], "application/json");
    let (status, body) = crate::testing::json(html).await;
    assert_eq!(status, 502);
    assert!(body["message"].as_str().unwrap().contains("something other than data"), "{body}");
}

#[tokio::test]
async fn the_query_sent_upstream_is_the_servers_own_encoding() {
    let upstream = RecordingUpstream::start().await;
    let server = TestApp::in_front_of(&upstream, &[]).await;
    assert_eq!(server.get("/api/v1/render?render%5Fid=rnd_1&note=a+b%26c&&=x&RENDER_ID=rnd_2").await.status(), 200);
    assert_eq!(server.get("/api/v1/render?render_id=rnd_1&render%5Fid=rnd_2").await.status(), 400);
    let seen = upstream.seen();
    assert_eq!(seen.len(), 1, "the ambiguous query never left: {seen:?}");
    // only the parameters the endpoint has, read and written again by this server: `note`, `RENDER_ID` dropped
    assert_eq!(seen[0].path_and_query, "/v1/render?render_id=rnd_1");
}

#[tokio::test]
async fn token_holders_choose_no_webhook_and_no_private_address() {
    let upstream = RecordingUpstream::start().await;
    let server =
        TestApp::in_front_of(&upstream, &["--access", "token", "--public-url", "https://studio.example"]).await;
    let token = server.token("alice");
    let creations = || upstream.seen().into_iter().filter(|seen| seen.method == "POST").collect::<Vec<_>>();
    let create = |body: Value| server.ask(Method::POST, "/api/v2/renders").bearer(&token).json(&body).answer();
    let render = |image_url: &str| {
        json!({"image_url": image_url, "variation_count": 1, "config": {"type": "enhancement"},
               "webhook_url": "https://attacker.example/hook"})
    };

    // the browser's webhook_url is replaced by the server's receiver, naming the creation
    assert_eq!(create(render("https://photos.example/a.jpg")).await.0, 200);
    let sent: Value = serde_json::from_slice(&creations()[0].body).unwrap();
    let receiver = sent["webhook_url"].as_str().unwrap_or_default();
    let creation = receiver.strip_prefix("https://studio.example/api/webhooks/service?creation=crt_");
    assert!(creation.is_some_and(|token| token.len() == 64), "{receiver}");
    // the server's own uploads are fine
    assert_eq!(create(render("https://studio.example/api/uploads/abc.jpg")).await.0, 200);

    // this machine, the cloud's metadata service, a private network: refused, nothing sent
    for (body, field) in [
        (render("http://169.254.169.254/latest/meta-data/"), "image_url"),
        (render("http://localhost:6379/"), "image_url"),
        (
            json!({"image_url": "https://photos.example/a.jpg", "variation_count": 1,
                   "config": {"type": "staging", "remove_furniture": {"mode": "on",
                              "mask_url": "http://10.1.2.3/mask.png"}}}),
            "config.remove_furniture.mask_url",
        ),
    ] {
        let (status, message) = create(body).await;
        assert_eq!(status, 400);
        assert!(message["message"].as_str().unwrap().starts_with(field), "{message}");
    }
    let form = "--b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nx\r\n--b--\r\n";
    let v1 = server
        .ask(Method::POST, "/api/v1/render/create?image_url=http%3A%2F%2F192.168.0.10%2Fa.jpg&room_type=living")
        .bearer(&token)
        .header("content-type", "multipart/form-data; boundary=b")
        .body(form);
    assert_eq!(v1.answer().await.0, 400);
    assert_eq!(creations().len(), 2, "only the two public creations reached the service");
}

#[tokio::test]
async fn a_v1_forms_photo_over_25_mb_is_refused_as_an_upload_is() {
    let upstream = RecordingUpstream::start().await;
    let server = TestApp::in_front_of(&upstream, &["--access", "token"]).await;
    // within the form's 26 MiB, over the 25 MB a photo may be
    let mut form = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n\r\n".to_vec();
    form.extend(std::iter::repeat_n(b'x', crate::storage::uploads::MAX_BYTES + 1));
    form.extend(b"\r\n--b--\r\n");
    let (status, refused) = server
        .ask(Method::POST, "/api/v1/render/create?room_type=living&style=modern")
        .bearer(&server.token("alice"))
        .header("content-type", "multipart/form-data; boundary=b")
        .body(form)
        .answer()
        .await;
    assert_eq!(status, 413, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("over 25 MB"), "{refused}");
    assert!(upstream.seen().is_empty(), "nothing reached the service");
}

#[tokio::test]
async fn a_token_holder_is_not_told_the_accounts_figures_when_the_service_refuses_for_the_account() {
    let upstream = RecordingUpstream::start().await;
    let server = TestApp::in_front_of(&upstream, &["--access", "token"]).await;
    let body = json!({"image_url": "https://photos.example/over-the-plan.jpg", "variation_count": 1,
                      "config": {"type": "enhancement"}});
    let (status, refused) =
        server.ask(Method::POST, "/api/v2/renders").bearer(&server.token("alice")).json(&body).answer().await;
    assert_eq!(status, 403);
    let message = refused["message"].as_str().unwrap();
    assert!(!message.contains("100") && message.contains("Ask the listing site"), "{message}");
    let operator = TestApp::in_front_of(&upstream, &[]).await;
    let (_, theirs) = operator.ask(Method::POST, "/api/v2/renders").json(&body).answer().await;
    assert!(theirs["message"].as_str().unwrap().contains("100 of 100"), "the operator reads the service: {theirs}");
}

async fn behind_the_real_shapes() -> (TestApp, RealService) {
    let service = RealService::start().await;
    let secrets = Secrets { api_key: Some("sk-real-shapes".into()), ..Secrets::default() };
    (TestApp::with_secrets(&["--upstream", &service.url], secrets).await, service)
}

async fn read(server: &TestApp, path: &str) -> Value {
    let (status, body) = server.ask(Method::GET, path).answer().await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

#[tokio::test]
async fn an_unlimited_plan_reaches_the_browser_as_the_service_said_it() {
    let (server, _service) = behind_the_real_shapes().await;
    let account = read(&server, "/api/v2/user").await;
    assert_eq!(account["photoLimit"], user()["photoLimit"], "{account}");
    assert_eq!(account["photoLimit"]["imageEditing"], "UNLIMITED");
}

/// Every status, settled, pending or unknown, a multi-view result (an array), a numeric output resolution and a
/// `daytodusk` config are relayed as read, on the render and in the list.
#[tokio::test]
async fn every_variation_is_relayed_as_the_service_sent_it() {
    let (server, _service) = behind_the_real_shapes().await;
    let render = read(&server, &format!("/api/v2/renders/{RENDER}?include_variations=true")).await;
    let listed = read(&server, "/api/v2/renders").await;
    for items in [&render["variations"]["items"], &listed["items"][0]["variations"]["items"]] {
        let items = items.as_array().expect("the variations");
        let sent = variations();
        assert_eq!(items.len(), sent.len());
        for (relayed, sent) in items.iter().zip(&sent) {
            assert_eq!(relayed["id"], sent["id"]);
            assert_eq!(relayed["status"], sent["status"], "{relayed}");
            assert_eq!(relayed["config"], sent["config"], "{relayed}");
            assert_eq!(relayed["result"].as_array().map(Vec::len), sent["result"].as_array().map(Vec::len));
        }
        assert_eq!(items[0]["config"]["output_resolution"], 1536);
        assert_eq!(items[2]["error_message"], "Failed to process image");
    }
}
