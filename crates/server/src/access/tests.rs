//! Token access through the whole app, in-process: tokens checked (expiry, signature, origin), each subject
//! limited to its own renders, the rate limit and the caps on calls and connections, CORS only for the listed
//! origins.
//! After them, its parts alone, called directly.

use std::time::Duration;

use axum::http::Method;
use serde_json::{Value, json};

use super::token::{Claims, WidgetSecret};
use crate::testing::recording::RecordingUpstream;
use crate::testing::{TEST_WIDGET_SECRET, TestApp};

/// `method path` with `token` from a page of `origin`: the status and JSON.
async fn call(
    server: &TestApp,
    (method, path): (Method, &str),
    token: Option<&str>,
    origin: Option<&str>,
) -> (u16, Value) {
    let mut asking = server.ask(method.clone(), path);
    if let Some(token) = token {
        asking = asking.bearer(token);
    }
    if let Some(origin) = origin {
        asking = asking.header("Origin", origin);
    }
    if method == Method::POST {
        asking = asking.body("x");
    }
    asking.answer().await
}

fn ids(page: &Value, field: &str) -> Vec<String> {
    let items = page["items"].as_array().expect("a page of items");
    items.iter().map(|item| item[field].as_str().expect("an id").to_string()).collect()
}

#[tokio::test]
async fn calls_without_a_valid_token_are_refused_with_a_sentence() {
    let server = TestApp::with_tokens(&[]).await;
    let user = (Method::GET, "/api/v2/user");
    let (status, body) = call(&server, user.clone(), None, None).await;
    assert_eq!(status, 401);
    assert!(body["message"].as_str().unwrap().contains("widget token"), "{body}");

    let secret = WidgetSecret::new(TEST_WIDGET_SECRET).unwrap();
    let expired = secret.sign(&Claims { sub: "alice".into(), exp: 1, origin: None });
    let (status, body) = call(&server, user.clone(), Some(&expired), None).await;
    assert_eq!(status, 401);
    assert!(body["message"].as_str().unwrap().contains("expired"), "{body}");

    let foreign = WidgetSecret::new("another-secret-0123456789abcdef-xyz").unwrap();
    let foreign = foreign.mint("alice", Duration::from_secs(3600), None);
    let (status, body) = call(&server, user.clone(), Some(&foreign), None).await;
    assert_eq!(status, 401);
    assert!(body["message"].as_str().unwrap().contains("signature"), "{body}");

    let bound = secret.mint("alice", Duration::from_secs(3600), Some("https://listings.example"));
    assert_eq!(call(&server, user.clone(), Some(&bound), Some("https://evil.example")).await.0, 401);
    assert_eq!(call(&server, user.clone(), Some(&bound), Some("https://listings.example")).await.0, 200);
    assert_eq!(call(&server, user.clone(), Some(&bound), None).await.0, 200);
    // a link followed from another site carries no Origin: its Referer names the page
    let followed = |referer: &'static str| {
        server
            .ask(Method::GET, "/api/v2/user")
            .bearer(&bound)
            .header("referer", referer)
            .header("sec-fetch-site", "cross-site")
    };
    assert_eq!(followed("https://evil.example/listing?x=1").answer().await.0, 401, "from another site's link");
    assert_eq!(followed("https://listings.example/homes/42").answer().await.0, 200, "from the host's own page");

    // uploads and events need a token too; capabilities do not
    assert_eq!(call(&server, (Method::POST, "/api/uploads"), None, None).await.0, 401);
    assert_eq!(call(&server, (Method::GET, "/api/events"), None, None).await.0, 401);
    let (status, capabilities) = call(&server, (Method::GET, "/api/capabilities"), None, None).await;
    assert_eq!((status, capabilities["access"].as_str()), (200, Some("token")));
    // the operator's webhook secret is not the widget's business
    let secret_change = (Method::DELETE, "/api/v2/user/webhook-secret");
    assert_eq!(call(&server, secret_change, Some(&bound), None).await.0, 403);
}

/// A listing site's Python backend mints its agents' tokens with PyJWT, as it would for any other service: the
/// JWT is a token for its subject, bound to the origin its `aud` names, and its mistakes are named in the refusal.
#[tokio::test]
async fn a_jwt_minted_by_pyjwt_is_a_widget_token_for_its_subject() {
    let server = TestApp::with_tokens(&[]).await;
    let user = (Method::GET, "/api/v2/user");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let claims = json!({"sub": "alice", "exp": now + 3600, "aud": "https://listings.example"});
    let token = crate::testing::pyjwt::encode(&claims, TEST_WIDGET_SECRET, "HS256");
    assert_eq!(call(&server, user.clone(), Some(&token), Some("https://listings.example")).await.0, 200);
    let (status, body) = call(&server, user.clone(), Some(&token), Some("https://evil.example")).await;
    assert_eq!(status, 401, "{body}");
    assert!(body["message"].as_str().unwrap().contains("another site"), "{body}");

    // it acts as alice: her renders are hers, whichever form her token takes
    let (status, mine) = call(&server, (Method::GET, "/api/v2/renders"), Some(&token), None).await;
    assert_eq!((status, ids(&mine, "id").len()), (200, 0), "{mine}");

    for (claims, key, algorithm, expected) in [
        (json!({"sub": "alice", "exp": now as f64 + 3600.5}), TEST_WIDGET_SECRET, "HS256", "whole seconds"),
        (json!({"sub": "alice", "exp": now - 10}), TEST_WIDGET_SECRET, "HS256", "expired"),
        (json!({"sub": "alice", "exp": now + 3600}), TEST_WIDGET_SECRET, "HS512", "takes HS256"),
        (json!({"sub": "alice", "exp": now + 3600, "nbf": now + 600}), TEST_WIDGET_SECRET, "HS256", "not valid yet"),
        (json!({"sub": "alice", "exp": now + 3600}), "another-secret-0123456789abcdef-xyz", "HS256", "signature"),
    ] {
        let token = crate::testing::pyjwt::encode(&claims, key, algorithm);
        let (status, body) = call(&server, user.clone(), Some(&token), None).await;
        assert_eq!(status, 401, "{claims}: {body}");
        assert!(body["message"].as_str().unwrap().contains(expected), "{claims}: {body}");
    }
}

/// A Node backend does the same with jose, by the snippet of docs/embedding.md.
#[tokio::test]
async fn a_jwt_minted_by_jose_as_the_guide_shows_is_a_widget_token() {
    let server = TestApp::with_tokens(&[]).await;
    let token = crate::testing::jose::sign("bob", "https://listings.example", TEST_WIDGET_SECRET);
    let user = (Method::GET, "/api/v2/user");
    assert_eq!(call(&server, user.clone(), Some(&token), Some("https://listings.example")).await.0, 200);
    assert_eq!(call(&server, user, Some(&token), Some("https://evil.example")).await.0, 401);
}

/// A PHP backend's token as firebase/php-jwt writes it (`JWT::encode($claims, $secret, 'HS256')`): its header
/// `{"typ":"JWT","alg":"HS256"}`, typ first, and the claims by PHP's `json_encode`, which escapes `/` as `\/`
/// unless `JSON_UNESCAPED_SLASHES` is given (php-jwt 6 gives it, 5 did not). PHP and Packagist are not on this
/// machine, so the bytes are made here as the library makes them; both forms are tokens.
#[tokio::test]
async fn a_jwt_as_firebase_php_jwt_writes_it_is_a_widget_token() {
    use base64::Engine as _;
    use hmac::{KeyInit as _, Mac as _};
    let base64url = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let server = TestApp::with_tokens(&[]).await;
    let user = (Method::GET, "/api/v2/user");
    let exp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() + 3600;
    for aud in [r#""https://listings.example""#, r#""https:\/\/listings.example""#] {
        let header = base64url(br#"{"typ":"JWT","alg":"HS256"}"#);
        let claims = base64url(format!(r#"{{"sub":"carol","exp":{exp},"aud":{aud}}}"#).as_bytes());
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(TEST_WIDGET_SECRET.as_bytes()).unwrap();
        mac.update(format!("{header}.{claims}").as_bytes());
        let token = format!("{header}.{claims}.{}", base64url(&mac.finalize().into_bytes()));
        assert_eq!(call(&server, user.clone(), Some(&token), Some("https://listings.example")).await.0, 200, "{aud}");
        assert_eq!(call(&server, user.clone(), Some(&token), Some("https://evil.example")).await.0, 401, "{aud}");
    }
}

#[tokio::test]
async fn the_rate_limit_answers_429_with_retry_after_per_subject() {
    let server = TestApp::with_tokens(&["--rate-limit", "3"]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let status = (Method::GET, "/api/v2/status");
    for _ in 0..3 {
        assert_eq!(call(&server, status.clone(), Some(&alice), None).await.0, 200);
    }
    let limited = server.ask(Method::GET, "/api/v2/status").bearer(&alice).send().await;
    let retry_after: u64 = limited.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry_after), "{retry_after}");
    let (code, body) = crate::testing::json(limited).await;
    assert_eq!(code, 429);
    assert!(body["message"].as_str().unwrap().contains("wait"), "{body}");
    // the quota is per subject
    assert_eq!(call(&server, status, Some(&bob), None).await.0, 200);
}

#[tokio::test]
async fn a_subject_sees_only_its_own_renders() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let enhancement = || json!({"type": "enhancement"});
    let mut alices = Vec::new();
    for _ in 0..3 {
        let render = server.create_render(Some(&alice), &photo, enhancement(), false).await;
        alices.push(render["id"].as_str().unwrap().to_string());
    }
    let bobs = server.create_render(Some(&bob), &photo, enhancement(), false).await;
    let bobs_id = bobs["id"].as_str().unwrap();
    let variation = bobs["variations"]["items"][0]["id"].as_str().unwrap();

    // alice cannot read, extend or list bob's render: it looks like no render at all
    let more = json!({"variation_count": 1, "config": {"type": "enhancement"}});
    let bulk = json!({"renders": [
        {"render_id": alices[0], "variation_count": 1, "config": {"type": "enhancement"}},
        {"render_id": bobs_id, "variation_count": 1, "config": {"type": "enhancement"}},
    ]});
    for asking in [
        server.ask(Method::GET, &format!("/api/v2/renders/{bobs_id}")),
        server.ask(Method::GET, &format!("/api/v2/renders/{bobs_id}/variations/{variation}")),
        server.ask(Method::GET, &format!("/api/v2/renders/{bobs_id}/variations")),
        server.ask(Method::POST, &format!("/api/v2/renders/{bobs_id}/variations")).json(&more),
        server.ask(Method::POST, "/api/v2/renders/variations/bulk").json(&bulk),
    ] {
        let (status, body) = asking.bearer(&alice).answer().await;
        assert_eq!(status, 404, "{body}");
    }
    let list = |token: &str, query: &str| server.ask(Method::GET, &format!("/api/v2/renders{query}")).bearer(token);
    let (status, _) = server.ask(Method::GET, &format!("/api/v2/renders/{bobs_id}")).bearer(&bob).answer().await;
    assert_eq!(status, 200);

    // alice's list: hers only, newest first, paged by cursor
    let (status, first) = list(&alice, "?limit=2").answer().await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(ids(&first, "id"), [alices[2].clone(), alices[1].clone()]);
    assert_eq!(first["total_count"], 3);
    assert!(first["items"][0]["variations"]["items"].is_array(), "renders come with their variations");
    let cursor = first["next_cursor"].as_str().unwrap();
    let (_, second) = list(&alice, &format!("?limit=2&cursor={cursor}")).answer().await;
    assert_eq!(ids(&second, "id"), [alices[0].clone()]);
    assert!(second["next_cursor"].is_null());
    assert_eq!(ids(&list(&alice, "?order=asc").answer().await.1, "id"), alices);
    assert_eq!(ids(&list(&bob, "").answer().await.1, "id"), [bobs_id.to_string()]);
    // bob's render id is no cursor for alice
    assert_eq!(list(&alice, &format!("?cursor={bobs_id}")).answer().await.0, 400);
}

#[tokio::test]
async fn open_access_is_rate_limited_per_client_address() {
    let server = TestApp::start(&["--rate-limit", "2"]).await;
    let mut codes = Vec::new();
    for _ in 0..3 {
        codes.push(server.get("/api/v2/status").await.status().as_u16());
    }
    assert_eq!(codes, [200, 200, 429]);
}

#[tokio::test]
async fn cors_is_allowed_for_listed_origins_only() {
    let server = TestApp::start(&["--allow-origin", "https://listings.example"]).await;
    let preflight = |origin: &str| {
        server
            .ask(Method::OPTIONS, "/api/v2/renders")
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "authorization, content-type")
            .send()
    };
    let allowed = preflight("https://listings.example").await;
    assert!(allowed.status().is_success());
    assert_eq!(allowed.headers()["access-control-allow-origin"], "https://listings.example");
    let methods = allowed.headers()["access-control-allow-methods"].to_str().unwrap().to_string();
    assert!(methods.contains("POST"), "{methods}");
    let refused = preflight("https://evil.example").await;
    assert!(refused.headers().get("access-control-allow-origin").is_none());
    // the headers the widget reads are shown to its page
    let usage = server.ask(Method::GET, "/api/usage").header("Origin", "https://listings.example").send().await;
    let exposed = usage.headers()["access-control-expose-headers"].to_str().unwrap().to_ascii_lowercase();
    for header in ["retry-after", "www-authenticate", "vstage-event-id"] {
        assert!(exposed.contains(header), "{header}: {exposed}");
    }

    // without --allow-origin no origin is allowed
    let plain = TestApp::start(&[]).await;
    let answer = plain.ask(Method::GET, "/api/v2/status").header("Origin", "https://listings.example").send().await;
    assert!(answer.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn a_query_naming_a_render_twice_cannot_reach_anothers() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let v1_create = |token: &str| {
        let body = json!({"image_url": photo, "room_type": "living", "style": "modern", "wait_for_completion": false});
        server.ask(Method::POST, "/api/v1/render/create").bearer(token).json(&body).answer()
    };
    let (mine, theirs) = (v1_create(&alice).await.1, v1_create(&bob).await.1);
    let (mine, theirs) = (mine["render_id"].as_str().unwrap(), theirs["render_id"].as_str().unwrap());

    let read = |query: String| server.ask(Method::GET, &format!("/api/v1/render?{query}")).bearer(&alice).answer();
    assert_eq!(read(format!("render_id={mine}")).await.0, 200);
    for query in [
        format!("render_id={mine}&render_id={theirs}"),
        format!("render_id={mine}&render%5Fid={theirs}"),
        format!("render%5Fid={mine}&render_id={theirs}"),
    ] {
        let (status, body) = read(query.clone()).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body["message"].as_str().unwrap().contains("twice"), "{body}");
    }
    // spelled otherwise, bob's render is still bob's
    assert_eq!(read(format!("render%5Fid={theirs}")).await.0, 404);
}

#[tokio::test]
async fn token_holders_see_their_own_allowance_never_the_accounts_nor_the_operators_identity() {
    let server = TestApp::with_tokens(&["--allowance", "staging=30"]).await;
    let alice = server.token("alice");
    let (status, user) = server.ask(Method::GET, "/api/v2/user").bearer(&alice).answer().await;
    assert_eq!(status, 200);
    assert!(user.get("user").is_none(), "{user}");
    // the sandbox's account has 100 of each: the agent sees its own 30, and no limit where it has none
    assert_eq!(
        (&user["photoLimit"]["staging"], &user["photoLimit"]["imageEditing"]),
        (&json!(30), &json!("UNLIMITED"))
    );
    assert!(user["renewsAt"].as_i64().is_some_and(|at| at > vstage_api::time::now_millis()), "{user}");
    let (status, ping) = server.ask(Method::GET, "/api/v1/ping").bearer(&alice).answer().await;
    assert_eq!(status, 200);
    assert!(ping.get("userObj").is_none() && ping["photoLimit"].as_f64() == Some(30.0), "{ping}");
    assert!(!ping.to_string().contains('@'), "{ping}");
}

#[tokio::test]
async fn a_caller_without_a_token_is_refused_before_its_body_is_read() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestApp::with_tokens(&[]).await;
    let address = server.url.trim_start_matches("http://");
    for path in ["/api/v1/render/create", "/api/uploads"] {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/octet-stream\r\n\
             Content-Length: 26000000\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(&[0u8; 1024]).await.unwrap();
        // the rest of the 26 MB never comes: the answer must not wait for it
        let mut answer = vec![0u8; 512];
        let read = tokio::time::timeout(Duration::from_secs(30), stream.read(&mut answer)).await;
        let read = read.unwrap_or_else(|_| panic!("{path}: no answer within 30 s to a caller without a token"));
        let text = String::from_utf8_lossy(&answer[..read.unwrap()]).to_string();
        assert!(text.starts_with("HTTP/1.1 401"), "{path}: {text}");
    }
}

#[tokio::test]
async fn a_creation_is_recorded_for_its_subject_even_when_the_browser_leaves_mid_call() {
    use tokio::io::AsyncWriteExt;
    let upstream = RecordingUpstream::start().await;
    let server = TestApp::in_front_of(&upstream, &["--access", "token"]).await;
    let alice = server.token("alice");
    let address = server.url.trim_start_matches("http://");
    // the service takes a second to answer (the stand-in reads `slow-1000`); the browser is gone long before
    let body = json!({"image_url": "https://img.example/slow-1000.jpg", "variation_count": 1,
                      "config": {"type": "enhancement"}})
    .to_string();
    let request = format!(
        "POST /api/v2/renders HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {alice}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    // the call is under way once the service has it; the browser leaves then, a second before the answer
    upstream.until_seen(1).await;
    drop(stream);

    // the service charged for it, so it is alice's to read and list, once the server has recorded it
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = server.ask(Method::GET, "/api/v2/renders/rnd_recorded").bearer(&alice).answer().await;
        if status == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "recorded for alice: {status} {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let creations = upstream.seen().iter().filter(|seen| seen.method == "POST").count();
    assert_eq!(creations, 1, "the service created the render once");
    let (_, listed) = server.ask(Method::GET, "/api/v2/renders").bearer(&alice).answer().await;
    assert_eq!(listed["total_count"], 1, "{listed}");
}

#[tokio::test]
async fn calls_under_way_are_capped_per_caller() {
    let upstream = RecordingUpstream::start().await;
    let server = TestApp::in_front_of(&upstream, &["--max-in-flight", "1"]).await;
    // under way from the moment the service has it, for three seconds
    let (slow, second) = tokio::join!(server.get("/api/v2/renders/slow-3000"), async {
        upstream.until_seen(1).await;
        server.ask(Method::GET, "/api/v2/status").answer().await
    });
    assert_eq!(second.0, 429, "a second call while the first is under way: {}", second.1);
    assert_eq!(slow.status(), 200);
    assert_eq!(server.get("/api/v2/status").await.status(), 200, "the place is given back");
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_for_a_place() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestApp::start(&["--max-connections", "2"]).await;
    let address = server.url.trim_start_matches("http://");
    let first = tokio::net::TcpStream::connect(address).await.unwrap();
    let _second = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut third = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET /api/capabilities HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    third.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    let waited = tokio::time::timeout(Duration::from_secs(1), third.read_to_string(&mut answer)).await;
    assert!(waited.is_err(), "no answer while two connections hold the places: {answer}");
    drop(first);
    tokio::time::timeout(Duration::from_secs(30), third.read_to_string(&mut answer))
        .await
        .expect("an answer once a place is free")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn each_subject_lists_its_own_v1_renders_which_v1_cannot() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let v1_create = |token: &str, style: &str| {
        let body = json!({"image_url": photo, "room_type": "living", "style": style, "wait_for_completion": false});
        server.ask(Method::POST, "/api/v1/render/create").bearer(token).json(&body).answer()
    };
    let mut alices = Vec::new();
    for style in ["modern", "scandinavian", "industrial"] {
        alices.push(v1_create(&alice, style).await.1["render_id"].as_str().unwrap().to_string());
    }
    let bobs = v1_create(&bob, "modern").await.1["render_id"].as_str().unwrap().to_string();

    let list =
        |token: &str, query: &str| server.ask(Method::GET, &format!("/api/v1/renders{query}")).bearer(token).answer();
    let (status, page) = list(&alice, "?limit=2").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total_count"], 3);
    assert_eq!(
        ids(&page, "render_id"),
        [alices[2].clone(), alices[1].clone()],
        "newest first, as GET /v1/render answers"
    );
    let cursor = page["next_cursor"].as_str().unwrap();
    let (_, rest) = list(&alice, &format!("?limit=2&cursor={cursor}")).await;
    assert_eq!(rest["items"][0]["render_id"], alices[0].as_str());
    assert!(rest["next_cursor"].is_null());
    assert_eq!(ids(&list(&bob, "").await.1, "render_id"), [bobs.as_str()], "bob sees only his");
    // another's render is no cursor of mine
    assert_eq!(list(&alice, &format!("?cursor={bobs}")).await.0, 400);
}

/// `GET /v2/renders/{id}/variations`, beyond the contract (a client in production resolves a paid image with it,
/// on a v1 render's id too): a token holder lists its own renders' variations, paged in either words, and no one
/// else's.
#[tokio::test]
async fn a_subject_lists_the_variations_of_its_own_v2_and_v1_renders() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let v2 = server.create_render(Some(&alice), &photo, json!({"type": "enhancement"}), false).await;
    let v2 = v2["id"].as_str().unwrap().to_string();
    let more = json!({"variation_count": 2, "config": {"type": "enhancement"}});
    let path = format!("/api/v2/renders/{v2}/variations");
    assert_eq!(server.ask(Method::POST, &path).bearer(&alice).json(&more).answer().await.0, 200);
    let v1 = json!({"image_url": photo, "room_type": "living", "style": "modern", "wait_for_completion": false});
    let (_, v1) = server.ask(Method::POST, "/api/v1/render/create").bearer(&alice).json(&v1).answer().await;
    let v1 = v1["render_id"].as_str().unwrap().to_string();
    let list = |token: &str, render: &str, query: &str| {
        server.ask(Method::GET, &format!("/api/v2/renders/{render}/variations{query}")).bearer(token).answer()
    };

    let (status, page) = list(&alice, &v2, "").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total_count"], 3, "{page}");
    assert!(page["items"].as_array().unwrap().iter().all(|variation| variation["render_id"] == v2.as_str()));
    for query in ["?limit=2", "?variations_limit=2"] {
        let (status, first) = list(&alice, &v2, query).await;
        assert_eq!((status, first["items"].as_array().map(Vec::len)), (200, Some(2)), "{query}: {first}");
        let cursor = first["next_cursor"].as_str().expect("a next page");
        let (_, rest) = list(&alice, &v2, &format!("?cursor={cursor}")).await;
        assert_eq!(rest["items"][0]["id"], page["items"][2]["id"], "{query}: {rest}");
    }
    let (status, refused) = list(&alice, &v2, "?limit=0").await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("between 1 and 100"), "{refused}");
    let (status, of_v1) = list(&alice, &v1, "").await;
    assert_eq!(status, 200, "{of_v1}");
    assert_eq!(of_v1["items"][0]["render_id"], v1.as_str(), "{of_v1}");
    for render in [&v2, &v1] {
        let (status, body) = list(&bob, render, "").await;
        assert_eq!(status, 404, "bob lists none of alice's: {body}");
    }
}

use std::net::IpAddr;

#[test]
fn an_address_key_is_the_clients_network_as_written() {
    let key = |address: &str| super::address_key(address.parse::<IpAddr>().unwrap());
    for address in ["127.0.0.1", "10.200.3.45", "0.0.0.0", "255.255.255.255"] {
        assert_eq!(key(address), format!("ip:{address}"));
    }
    assert_eq!(key("::ffff:1.2.3.4"), "ip:1.2.3.4");
    // one machine's IPv6 addresses are one client
    assert_eq!(key("2001:db8:1:2::1"), "ip:2001:db8:1:2::/64");
    assert_eq!(key("2001:db8:1:2:ffff:eeee:dddd:cccc"), "ip:2001:db8:1:2::/64");
    assert_eq!(key("2001:db8:1:3::1"), "ip:2001:db8:1:3::/64");
    assert_eq!(key("::1"), "ip:::/64");
}
