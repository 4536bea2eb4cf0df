//! Token access: widget tokens checked (expiry, signature, origin), each subject limited to its own renders,
//! the rate limit, and CORS only for the listed origins.

use serde_json::{Value, json};

use crate::recording::RecordingUpstream;
use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, alice_and_bob, create_render, mint, sample_url};

async fn token_server(dist: &std::path::Path, extra: &[&str]) -> Server {
    let mut args = vec!["--access", "token"];
    args.extend_from_slice(extra);
    Server::start_with(dist, &args, &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await
}

async fn status_of(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_subject_sees_only_its_own_renders() {
    let dist = widget_dir();
    let server = token_server(dist.path(), &[]).await;
    let http = reqwest::Client::new();
    let (alice, bob) = alice_and_bob().await;
    let photo = sample_url(&server, "living-empty.jpg").await;

    let mut alices = Vec::new();
    for _ in 0..3 {
        alices.push(create_render(&server, Some(&alice), &photo, false).await["id"].as_str().unwrap().to_string());
    }
    let bobs = create_render(&server, Some(&bob), &photo, false).await;
    let bobs_id = bobs["id"].as_str().unwrap();
    let variation = bobs["variations"]["items"][0]["id"].as_str().unwrap();

    // alice cannot read, extend or list bob's render: it looks like no render at all
    for request in [
        http.get(server.api(&format!("/v2/renders/{bobs_id}"))),
        http.get(server.api(&format!("/v2/renders/{bobs_id}/variations/{variation}"))),
        http.post(server.api(&format!("/v2/renders/{bobs_id}/variations")))
            .json(&json!({"variation_count": 1, "config": {"type": "enhancement"}})),
        http.post(server.api("/v2/renders/variations/bulk")).json(&json!({"renders": [
            {"render_id": alices[0], "variation_count": 1, "config": {"type": "enhancement"}},
            {"render_id": bobs_id, "variation_count": 1, "config": {"type": "enhancement"}},
        ]})),
    ] {
        let (status, body) = status_of(request.bearer_auth(&alice)).await;
        assert_eq!(status, 404, "{body}");
    }
    let (status, _) = status_of(http.get(server.api(&format!("/v2/renders/{bobs_id}"))).bearer_auth(&bob)).await;
    assert_eq!(status, 200);

    // alice's list: hers only, newest first, paged by cursor
    let (status, first) = status_of(http.get(server.api("/v2/renders?limit=2")).bearer_auth(&alice)).await;
    assert_eq!(status, 200, "{first}");
    let ids = |page: &Value| {
        page["items"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(ids(&first), vec![alices[2].clone(), alices[1].clone()]);
    assert_eq!(first["total_count"], 3);
    assert!(first["items"][0]["variations"]["items"].is_array(), "renders come with their variations");
    let cursor = first["next_cursor"].as_str().unwrap();
    let (_, second) =
        status_of(http.get(server.api(&format!("/v2/renders?limit=2&cursor={cursor}"))).bearer_auth(&alice)).await;
    assert_eq!(ids(&second), vec![alices[0].clone()]);
    assert!(second["next_cursor"].is_null());
    let (_, oldest_first) = status_of(http.get(server.api("/v2/renders?order=asc")).bearer_auth(&alice)).await;
    assert_eq!(ids(&oldest_first), alices);
    let (_, bobs_list) = status_of(http.get(server.api("/v2/renders")).bearer_auth(&bob)).await;
    assert_eq!(ids(&bobs_list), vec![bobs_id.to_string()]);
    // bob's render id is no cursor for alice
    let (status, _) =
        status_of(http.get(server.api(&format!("/v2/renders?cursor={bobs_id}"))).bearer_auth(&alice)).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn open_access_is_rate_limited_per_client_address() {
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--rate-limit", "2"], &[]).await;
    let http = reqwest::Client::new();
    let codes: Vec<u16> = futures_util::future::join_all(
        (0..3).map(|_| async { http.get(server.api("/v2/status")).send().await.unwrap().status().as_u16() }),
    )
    .await;
    assert_eq!(codes.iter().filter(|&&c| c == 429).count(), 1, "{codes:?}");
}

#[tokio::test]
async fn cors_is_allowed_for_listed_origins_only() {
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--allow-origin", "https://listings.example"], &[]).await;
    let http = reqwest::Client::new();
    let preflight = |origin: &str| {
        http.request(reqwest::Method::OPTIONS, server.api("/v2/renders"))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "authorization, content-type")
            .send()
    };
    let allowed = preflight("https://listings.example").await.unwrap();
    assert!(allowed.status().is_success());
    assert_eq!(allowed.headers()["access-control-allow-origin"], "https://listings.example");
    let methods = allowed.headers()["access-control-allow-methods"].to_str().unwrap().to_string();
    assert!(methods.contains("POST"), "{methods}");
    let refused = preflight("https://evil.example").await.unwrap();
    assert!(refused.headers().get("access-control-allow-origin").is_none());

    // without --allow-origin no origin is allowed
    let plain = Server::start(dist.path()).await;
    let response = http.get(plain.api("/v2/status")).header("Origin", "https://listings.example").send().await.unwrap();
    assert!(response.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn bad_options_refuse_to_start_with_a_sentence() {
    for (args, envs, expected) in [
        (vec!["--access", "token"], vec![], "VSTAGE_WIDGET_SECRET"),
        (vec!["--access", "token"], vec![("VSTAGE_WIDGET_SECRET", "short")], "at least 32"),
        (vec!["--allow-origin", "listings.example"], vec![], "not an origin"),
        (vec!["--public-url", "ftp://x"], vec![], "plain http(s) URL"),
        (vec!["--upstream", "http://127.0.0.1:9"], vec![], "VSTAGE_API_KEY"),
    ] {
        let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(tempfile::tempdir().unwrap().path())
            .args(&args)
            .env_remove("VSTAGE_WIDGET_SECRET")
            .env_remove("VSTAGE_API_KEY")
            .envs(envs)
            .output()
            .await
            .unwrap();
        assert!(!output.status.success(), "{args:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains(expected), "{args:?}: {message}");
    }
}

#[tokio::test]
async fn a_query_naming_a_render_twice_cannot_reach_anothers() {
    let dist = widget_dir();
    let server = token_server(dist.path(), &[]).await;
    let http = reqwest::Client::new();
    let (alice, bob) = alice_and_bob().await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let v1_create = |token: &str| {
        http.post(server.api("/v1/render/create")).bearer_auth(token).json(&json!({
            "image_url": photo, "room_type": "living", "style": "modern", "wait_for_completion": false
        }))
    };
    let (_, mine) = status_of(v1_create(&alice)).await;
    let (_, theirs) = status_of(v1_create(&bob)).await;
    let (mine, theirs) = (mine["render_id"].as_str().unwrap(), theirs["render_id"].as_str().unwrap());

    let read = |query: String| http.get(server.api(&format!("/v1/render?{query}"))).bearer_auth(&alice);
    assert_eq!(status_of(read(format!("render_id={mine}"))).await.0, 200);
    for query in [
        format!("render_id={mine}&render_id={theirs}"),
        format!("render_id={mine}&render%5Fid={theirs}"),
        format!("render%5Fid={mine}&render_id={theirs}"),
    ] {
        let (status, body) = status_of(read(query.clone())).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body["message"].as_str().unwrap().contains("twice"), "{body}");
    }
    // spelled otherwise, bob's render is still bob's
    assert_eq!(status_of(read(format!("render%5Fid={theirs}"))).await.0, 404);
}

#[tokio::test]
async fn token_holders_see_their_own_allowance_never_the_accounts_nor_the_operators_identity() {
    let dist = widget_dir();
    let server = token_server(dist.path(), &["--allowance", "staging=30"]).await;
    let http = reqwest::Client::new();
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
    let (status, user) = status_of(http.get(server.api("/v2/user")).bearer_auth(&alice)).await;
    assert_eq!(status, 200);
    assert!(user.get("user").is_none(), "{user}");
    // the sandbox's account has 100 of each: the agent sees its own 30, and no limit where it has none
    assert_eq!(
        (&user["photoLimit"]["staging"], &user["photoLimit"]["imageEditing"]),
        (&json!(30), &json!("UNLIMITED"))
    );
    assert!(user["renewsAt"].as_i64().is_some_and(|at| at > vstage_api::time::now_millis()), "{user}");
    let (status, ping) = status_of(http.get(server.api("/v1/ping")).bearer_auth(&alice)).await;
    assert_eq!(status, 200);
    assert!(ping.get("userObj").is_none() && ping["photoLimit"].as_f64() == Some(30.0), "{ping}");
    assert!(!serde_json::to_string(&ping).unwrap().contains('@'), "{ping}");
}

#[tokio::test]
async fn a_caller_without_a_token_is_refused_before_its_body_is_read() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dist = widget_dir();
    let server = token_server(dist.path(), &[]).await;
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
        let read = tokio::time::timeout(std::time::Duration::from_secs(30), stream.read(&mut answer)).await;
        let read = read.unwrap_or_else(|_| panic!("{path}: no answer within 30 s to a caller without a token"));
        let text = String::from_utf8_lossy(&answer[..read.unwrap()]).to_string();
        assert!(text.starts_with("HTTP/1.1 401"), "{path}: {text}");
    }
}

#[tokio::test]
async fn a_creation_is_recorded_for_its_subject_even_when_the_browser_leaves_mid_call() {
    use tokio::io::AsyncWriteExt;
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let server = Server::start_with(
        dist.path(),
        &["--access", "token", "--upstream", &upstream.url],
        &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET), ("VSTAGE_API_KEY", "k_test")],
    )
    .await;
    upstream.forget();
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
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
    let http = reqwest::Client::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (status, body) = status_of(http.get(server.api("/v2/renders/rnd_recorded")).bearer_auth(&alice)).await;
        if status == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "recorded for alice: {status} {body}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let creations = upstream.seen().iter().filter(|seen| seen.method == "POST").count();
    assert_eq!(creations, 1, "the service created the render once");
    let (_, listed) = status_of(http.get(server.api("/v2/renders")).bearer_auth(&alice)).await;
    assert_eq!(listed["total_count"], 1, "{listed}");
}

#[tokio::test]
async fn calls_under_way_are_capped_per_caller() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let server = Server::start_with(
        dist.path(),
        &["--upstream", &upstream.url, "--max-in-flight", "1"],
        &[("VSTAGE_API_KEY", "k_test")],
    )
    .await;
    upstream.forget();
    let http = reqwest::Client::new();
    // under way from the moment the service has it, for three seconds
    let slow = tokio::spawn(http.get(server.api("/v2/renders/slow-3000")).send());
    upstream.until_seen(1).await;
    let (status, body) = status_of(http.get(server.api("/v2/status"))).await;
    assert_eq!(status, 429, "a second call while the first is under way: {body}");
    assert_eq!(slow.await.unwrap().unwrap().status().as_u16(), 200);
    assert_eq!(status_of(http.get(server.api("/v2/status"))).await.0, 200, "the place is given back");
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_for_a_place() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--max-connections", "2"], &[]).await;
    let address = server.url.trim_start_matches("http://");
    let first = tokio::net::TcpStream::connect(address).await.unwrap();
    let _second = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut third = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET /api/capabilities HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    third.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    let waited = tokio::time::timeout(std::time::Duration::from_secs(1), third.read_to_string(&mut answer)).await;
    assert!(waited.is_err(), "no answer while two connections hold the places: {answer}");
    drop(first);
    tokio::time::timeout(std::time::Duration::from_secs(5), third.read_to_string(&mut answer))
        .await
        .expect("an answer once a place is free")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn each_subject_lists_its_own_v1_renders_which_v1_cannot() {
    let dist = widget_dir();
    let server = token_server(dist.path(), &[]).await;
    let http = reqwest::Client::new();
    let (alice, bob) = alice_and_bob().await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let v1_create = |token: &str, style: &str| {
        http.post(server.api("/v1/render/create")).bearer_auth(token).json(&json!({
            "image_url": photo, "room_type": "living", "style": style, "wait_for_completion": false
        }))
    };
    let mut alices = Vec::new();
    for style in ["modern", "scandinavian", "industrial"] {
        alices.push(status_of(v1_create(&alice, style)).await.1["render_id"].as_str().unwrap().to_string());
    }
    let bobs = status_of(v1_create(&bob, "modern")).await.1["render_id"].as_str().unwrap().to_string();

    let list = |token: &str, query: &str| http.get(server.api(&format!("/v1/renders{query}"))).bearer_auth(token);
    let (status, page) = status_of(list(&alice, "?limit=2")).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total_count"], 3);
    let ids: Vec<&str> = page["items"].as_array().unwrap().iter().map(|r| r["render_id"].as_str().unwrap()).collect();
    assert_eq!(ids, [alices[2].as_str(), alices[1].as_str()], "newest first, each as GET /v1/render answers");
    let cursor = page["next_cursor"].as_str().unwrap();
    let (_, rest) = status_of(list(&alice, &format!("?limit=2&cursor={cursor}"))).await;
    assert_eq!(rest["items"][0]["render_id"], alices[0].as_str());
    assert!(rest["next_cursor"].is_null());

    let (_, theirs) = status_of(list(&bob, "")).await;
    let ids: Vec<&str> = theirs["items"].as_array().unwrap().iter().map(|r| r["render_id"].as_str().unwrap()).collect();
    assert_eq!(ids, [bobs.as_str()], "bob sees only his");
    // another's render is no cursor of mine
    assert_eq!(status_of(list(&alice, &format!("?cursor={bobs}"))).await.0, 400);
}
