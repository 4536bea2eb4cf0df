//! Forwarding to the embedded sandbox or to a service over TLS, the API's 404s, path tricks, and the widget's files.

use std::time::Duration;

use crate::recording::RecordingUpstream;
use crate::support::{Server, widget_dir};
use crate::{post_raw, raw_http};

#[tokio::test]
async fn status_and_user_are_forwarded_to_the_embedded_sandbox_with_its_key() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();

    let status = http.get(format!("{}/api/v2/status", server.url)).send().await.unwrap();
    assert_eq!(status.status().as_u16(), 200);

    // The browser sends no key; whatever Authorization it sends is replaced by the server's own.
    let user = http
        .get(format!("{}/api/v2/user", server.url))
        .header("Authorization", "Api-Key not-the-key")
        .send()
        .await
        .unwrap();
    assert_eq!(user.status().as_u16(), 200);
    let body: serde_json::Value = serde_json::from_slice(&user.bytes().await.unwrap()).unwrap();
    assert_eq!(body["photoLimit"]["staging"], 100);
    assert_eq!(body["photosUsedThisPeriod"]["imageEditing"], 0);
    assert!(body["user"]["email"].is_string());
}

const KEY: &str = "k_live_tls_test";

#[tokio::test]
async fn calls_reach_an_https_service_on_one_kept_alive_verified_connection() {
    let (upstream, authority) = RecordingUpstream::start_tls().await;
    let dist = widget_dir();
    let authority_file = authority.pem_file.to_str().unwrap();
    let server = Server::start_with(
        dist.path(),
        &["--upstream", &upstream.url, "--workers", "1"],
        &[("VSTAGE_API_KEY", KEY), ("SSL_CERT_FILE", authority_file)],
    )
    .await;
    upstream.forget();
    let http = reqwest::Client::new();
    for _ in 0..3 {
        let answer = http.get(server.api("/v2/renders/rnd_1")).send().await.unwrap();
        assert_eq!(answer.status().as_u16(), 200);
        assert!(answer.text().await.unwrap().contains("rnd_1"));
    }
    let created = http
        .post(server.api("/v2/renders"))
        .json(&serde_json::json!({"image_url": "https://img.example/a.jpg", "variation_count": 1,
                                  "config": {"type": "enhancement"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 200);

    let seen = upstream.seen();
    assert_eq!(seen.iter().map(|call| call.method.as_str()).collect::<Vec<_>>(), ["GET", "GET", "GET", "POST"]);
    assert!(seen.iter().all(|call| call.headers["authorization"] == format!("Api-Key {KEY}")));
    assert_eq!(seen[0].headers["host"], upstream.url.trim_start_matches("https://"));
    assert!(String::from_utf8_lossy(&seen[3].body).contains("img.example"));
    assert_eq!(upstream.tls_connections(), 1, "the calls share one TLS connection");
}

#[tokio::test]
async fn an_https_service_whose_certificate_is_not_trusted_is_a_502() {
    let (upstream, _authority) = RecordingUpstream::start_tls().await;
    let dist = widget_dir();
    // started anyway, as a server whose service went wrong after it started
    let args = ["--upstream", &upstream.url, "--skip-check", "upstream"];
    let server = Server::start_with(dist.path(), &args, &[("VSTAGE_API_KEY", KEY)]).await;
    let answer = reqwest::get(server.api("/v2/status")).await.unwrap();
    assert_eq!(answer.status().as_u16(), 502);
    assert!(answer.text().await.unwrap().contains("message"));
    assert!(upstream.seen().is_empty(), "nothing was sent over the untrusted connection");
}

#[tokio::test]
async fn unknown_api_paths_are_json_404s_not_the_page() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let response = reqwest::get(format!("{}/api/v2/not-an-endpoint", server.url)).await.unwrap();
    assert_eq!(response.status().as_u16(), 404);
    let body: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert!(body["message"].as_str().unwrap().contains("No such API endpoint"));
}

#[tokio::test]
async fn page_paths_fall_back_to_index_html_and_files_are_served() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    for path in ["/", "/renders/r_123", "/some/deep/link"] {
        let response = reqwest::get(format!("{}{path}", server.url)).await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(response.text().await.unwrap().contains("<title>widget</title>"), "{path}");
    }
    let script = reqwest::get(format!("{}/app.js", server.url)).await.unwrap();
    assert!(script.headers()["content-type"].to_str().unwrap().contains("javascript"));
    assert_eq!(script.text().await.unwrap(), "console.log('widget')");
}

#[tokio::test]
async fn open_access_refuses_a_non_loopback_address() {
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["serve", "--listen", "0.0.0.0:0"])
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("refusing to listen on 0.0.0.0:0") && message.contains("--access token"), "{message}");
}

#[tokio::test]
async fn every_endpoint_is_forwarded_and_nothing_else() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();
    let api = |path: &str| format!("{}/api{path}", server.url);
    let photo = format!("{}/api/v2/status", server.url); // any http address passes the contract's pattern
    let body = serde_json::json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}});
    let created: serde_json::Value =
        http.post(api("/v2/renders")).json(&body).send().await.unwrap().json().await.unwrap();
    let id = created["id"].as_str().expect("a render id").to_string();
    let variation = created["variations"]["items"][0]["id"].as_str().unwrap().to_string();
    for path in [
        format!("/v2/renders/{id}?include_variations=true"),
        format!("/v2/renders/{id}/variations/{variation}"),
        "/v2/renders?limit=1".to_string(),
        "/v1/ping".to_string(),
        "/v1/options".to_string(),
    ] {
        let response = http.get(api(&path)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-store");
    }
    let page: serde_json::Value = http.get(api("/v2/renders?limit=1")).send().await.unwrap().json().await.unwrap();
    assert_eq!(page["items"][0]["id"], id.as_str(), "the query string reaches the service");
    let added = http
        .post(api(&format!("/v2/renders/{id}/variations")))
        .json(&serde_json::json!({"variation_count": 1, "config": {"type": "enhancement"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(added.status().as_u16(), 200);

    // path tricks, other versions and the sandbox's own tools are refused before anything is forwarded; sent as
    // written (an HTTP client library would resolve the dots before sending)
    for (path, status) in [
        ("/v2/renders/%2e%2e", 400),
        ("/v2/renders/..%2Fuser", 400),
        ("/v2/renders/a%5Cb", 400),
        ("/v2//user", 404),
        ("/v3/user", 404),
        ("/sandbox/faults", 404),
        ("/openapi.json", 404),
    ] {
        let (answered, body) = raw_get(&server.url, &format!("/api{path}")).await;
        assert_eq!(answered, status, "{path}");
        assert!(body.contains("\"message\""), "{path}: {body}");
    }
    let wrong_method = http.delete(api("/v2/renders")).send().await.unwrap();
    assert_eq!(wrong_method.status().as_u16(), 405);
    assert_eq!(wrong_method.headers()["allow"], "GET, POST");
    let body: serde_json::Value = wrong_method.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("only GET, POST"), "{body}");
    let head = http.head(api("/v2/renders/rnd_1")).send().await.unwrap();
    assert_eq!((head.status().as_u16(), &head.headers()["allow"]), (405, &"GET".parse().unwrap()));
    // Over a plain socket: the server refuses the body by its length before reading it, and a client library
    // still writing would report the closed connection instead of the answer.
    let too_large = post_raw(&server.url, "/api/v2/renders", None, &" ".repeat(2 * 1024 * 1024)).await;
    assert_eq!(too_large, 413);
}

/// A GET sent byte for byte as written, and the status and body of the answer.
async fn raw_get(base: &str, path: &str) -> (u16, String) {
    let host = base.trim_start_matches("http://");
    raw_http(base, &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")).await
}

#[tokio::test]
async fn hashed_assets_are_cached_for_good_and_text_is_compressed() {
    let dist = widget_dir();
    std::fs::write(dist.path().join("vstage-widget-0123456789abcdef.js"), "x".repeat(4096)).unwrap();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();
    let hashed = http
        .get(format!("{}/vstage-widget-0123456789abcdef.js", server.url))
        .header("Accept-Encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(hashed.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(hashed.headers()["content-encoding"], "gzip");
    assert!(hashed.bytes().await.unwrap().len() < 4096);
    let page = http.get(format!("{}/renders/r1", server.url)).send().await.unwrap();
    assert_eq!(page.headers()["cache-control"], "no-cache");
}

#[tokio::test]
async fn embed_js_is_compressed_for_clients_that_take_it() {
    // The script carries each screen's list of files: a few kilobytes that compress to a quarter.
    let dist = widget_dir();
    let files: Vec<String> = (0..40).map(|n| format!("chunk_{n}-0123456789abcdef.wasm")).collect();
    let screens = serde_json::json!({ "board": files, "account": files });
    std::fs::write(dist.path().join("vstage-screens.json"), screens.to_string()).unwrap();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::builder().no_gzip().build().unwrap();
    let url = format!("{}/embed.js", server.url);
    let plain = http.get(&url).header("Accept-Encoding", "identity").send().await.unwrap().bytes().await.unwrap();
    assert!(String::from_utf8_lossy(&plain).contains("chunk_39-0123456789abcdef.wasm"));
    let answer = http.get(&url).header("Accept-Encoding", "gzip").send().await.unwrap();
    assert_eq!(answer.headers()["content-encoding"], "gzip");
    let vary: Vec<String> =
        answer.headers().get_all("vary").iter().map(|value| value.to_str().unwrap().to_lowercase()).collect();
    assert!(vary.iter().any(|value| value.contains("accept-encoding")), "{vary:?}");
    assert!(vary.iter().any(|value| value.contains("origin")), "{vary:?}");
    assert_eq!(answer.headers()["access-control-allow-origin"], "*");
    let sent = answer.bytes().await.unwrap();
    assert!(sent.len() * 3 < plain.len(), "{} bytes sent for {}", sent.len(), plain.len());
}

#[tokio::test]
async fn the_elements_typescript_declarations_are_served_beside_embed_js() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let kit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kit");
    for name in ["vstage-widget.d.ts", "vstage-widget-react.d.ts", "vstage-widget-vue.d.ts"] {
        let answer = reqwest::get(format!("{}/{name}", server.url)).await.unwrap();
        assert_eq!(answer.status(), 200, "{name}");
        assert_eq!(answer.headers()["content-type"], "text/plain; charset=utf-8", "{name}");
        assert_eq!(answer.headers()["access-control-allow-origin"], "*", "{name}");
        assert_eq!(answer.text().await.unwrap(), std::fs::read_to_string(kit.join(name)).unwrap(), "{name}");
    }
}

#[tokio::test]
async fn a_missing_hashed_file_is_a_404_never_the_page_cached_for_good() {
    // A chunk of another build (a page loaded before a deploy) must fail plainly, so that a retry after the
    // deploy is not answered from a cache holding the page under the chunk's name.
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let missing = reqwest::get(format!("{}/split_account_screen-0123456789abcdef.wasm", server.url)).await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["cache-control"], "no-cache");
}

#[tokio::test]
async fn the_builds_precompressed_files_are_sent_to_clients_that_take_them() {
    let dist = widget_dir();
    let wasm = dist.path().join("vstage-widget-0123456789abcdef_bg.wasm");
    std::fs::write(&wasm, b"\0asm plain").unwrap();
    std::fs::write(wasm.with_extension("wasm.br"), b"brotli bytes").unwrap();
    std::fs::write(wasm.with_extension("wasm.gz"), b"gzip bytes").unwrap();
    let server = Server::start(dist.path()).await;
    let url = format!("{}/vstage-widget-0123456789abcdef_bg.wasm", server.url);
    let http = reqwest::Client::new();

    for (accepted, encoding, body) in [("br, gzip", Some("br"), "brotli bytes"), ("gzip", Some("gzip"), "gzip bytes")] {
        let answer = http.get(&url).header("Accept-Encoding", accepted).send().await.unwrap();
        assert_eq!(answer.headers()["content-type"], "application/wasm", "for {accepted}");
        assert_eq!(answer.headers().get("content-encoding").map(|v| v.to_str().unwrap()), encoding, "for {accepted}");
        assert_eq!(answer.headers()["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(answer.headers()["access-control-allow-origin"], "*");
        assert!(answer.headers()["vary"].to_str().unwrap().to_lowercase().contains("accept-encoding"));
        assert_eq!(answer.text().await.unwrap(), body, "for {accepted}");
    }
    let plain = http.get(&url).header("Accept-Encoding", "identity").send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.bytes().await.unwrap().as_ref(), b"\0asm plain");
}

#[tokio::test]
async fn capabilities_say_what_this_server_offers() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let capabilities: serde_json::Value =
        reqwest::get(format!("{}/api/capabilities", server.url)).await.unwrap().json().await.unwrap();
    assert_eq!(
        capabilities,
        serde_json::json!({"mode": "sandbox", "events": true, "uploads": true, "board": true, "access": "open"})
    );
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_disconnected() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--header-timeout-s", "1"], &[]).await;
    let address = server.url.trim_start_matches("http://").to_string();
    // before the connections: the server's time-out cannot start earlier than this
    let started = std::time::Instant::now();
    let mut slow = tokio::net::TcpStream::connect(&address).await.unwrap();
    slow.write_all(b"GET /api/capabilities HTTP/1.1\r\nHost: vstage\r\n").await.unwrap();
    let idle = tokio::net::TcpStream::connect(&address).await.unwrap();

    // Both are closed once the second is up, without an answer; a client that sends its request is served.
    let closed = |mut stream: tokio::net::TcpStream| async move {
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut rest)).await;
        assert!(read.is_ok(), "the connection is still open after 10 s");
        rest
    };
    assert_eq!(String::from_utf8_lossy(&closed(slow).await), "");
    assert_eq!(String::from_utf8_lossy(&closed(idle).await), "");
    assert!(started.elapsed() >= Duration::from_secs(1), "closed before its time: {:?}", started.elapsed());
    let capabilities = reqwest::get(server.api("/capabilities")).await.unwrap();
    assert_eq!(capabilities.status().as_u16(), 200);
}

#[tokio::test]
async fn answers_are_not_sniffed_and_an_upstream_page_is_not_relayed() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--upstream", &upstream.url], &[("VSTAGE_API_KEY", "k_test_0123")]).await;
    upstream.forget();
    let http = reqwest::Client::new();

    let relayed = http.get(server.api("/v2/renders/rnd_1")).send().await.unwrap();
    assert_eq!(relayed.status().as_u16(), 200);
    assert_eq!(relayed.headers()["x-content-type-options"], "nosniff");
    let refused = http.get(server.api("/v2/no-such-endpoint")).send().await.unwrap();
    assert_eq!(refused.headers()["x-content-type-options"], "nosniff", "errors of our own too");
    let page = http.get(format!("{}/", server.url)).send().await.unwrap();
    assert_eq!(page.headers()["x-content-type-options"], "nosniff", "and the widget's files");

    // The service (or a proxy before it) answers an HTML page: it never becomes a page of this origin.
    let html = http.get(server.api("/v2/renders/html-page")).send().await.unwrap();
    assert_eq!(html.status().as_u16(), 502);
    assert_eq!(html.headers()["content-type"], "application/json");
    let body: serde_json::Value = html.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("something other than data"), "{body}");
}

#[tokio::test]
async fn the_query_sent_upstream_is_the_servers_own_encoding() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--upstream", &upstream.url], &[("VSTAGE_API_KEY", "k_test_0123")]).await;
    upstream.forget();
    let http = reqwest::Client::new();

    let answer = http.get(server.api("/v1/render?render%5Fid=rnd_1&note=a+b%26c&&=x&RENDER_ID=rnd_2")).send();
    assert_eq!(answer.await.unwrap().status().as_u16(), 200);
    let twice = http.get(server.api("/v1/render?render_id=rnd_1&render%5Fid=rnd_2")).send().await.unwrap();
    assert_eq!(twice.status().as_u16(), 400);
    let seen = upstream.seen();
    assert_eq!(seen.len(), 1, "the ambiguous query never left: {seen:?}");
    // only the parameters the endpoint has, read and written again by this server: `note`, `RENDER_ID` dropped
    assert_eq!(seen[0].path_and_query, "/v1/render?render_id=rnd_1");
}

#[tokio::test]
async fn token_holders_choose_no_webhook_and_no_private_address() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let secret = "test-widget-secret-0123456789abcdef";
    let server = Server::start_with(
        dist.path(),
        &["--upstream", &upstream.url, "--access", "token", "--public-url", "https://studio.example"],
        &[("VSTAGE_API_KEY", "k_test_0123"), ("VSTAGE_WIDGET_SECRET", secret), ("VSTAGE_WEBHOOK_SECRET", "whs_0123")],
    )
    .await;
    upstream.forget();
    let token = crate::mint(secret, "alice", "1h", None).await;
    let creations = || upstream.seen().into_iter().filter(|seen| seen.method == "POST").collect::<Vec<_>>();
    let http = reqwest::Client::new();
    let create = |body: serde_json::Value| http.post(server.api("/v2/renders")).bearer_auth(&token).json(&body);
    let render = |image_url: &str| {
        serde_json::json!({"image_url": image_url, "variation_count": 1, "config": {"type": "enhancement"},
                           "webhook_url": "https://attacker.example/hook"})
    };

    // the browser's webhook_url is replaced by the server's receiver, naming the creation
    let answer = create(render("https://photos.example/a.jpg")).send().await.unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let sent: serde_json::Value = serde_json::from_slice(&creations()[0].body).unwrap();
    let receiver = sent["webhook_url"].as_str().unwrap_or_default();
    let creation = receiver.strip_prefix("https://studio.example/api/webhooks/service?creation=crt_");
    assert!(creation.is_some_and(|token| token.len() == 64), "{receiver}");
    // the server's own uploads are fine
    let own = create(render("https://studio.example/api/uploads/abc.jpg")).send().await.unwrap();
    assert_eq!(own.status().as_u16(), 200);

    // this machine, the cloud's metadata service, a private network: refused, nothing sent
    for (body, field) in [
        (render("http://169.254.169.254/latest/meta-data/"), "image_url"),
        (render("http://localhost:6379/"), "image_url"),
        (
            serde_json::json!({"image_url": "https://photos.example/a.jpg", "variation_count": 1,
                               "config": {"type": "staging", "remove_furniture": {"mode": "on",
                                          "mask_url": "http://10.1.2.3/mask.png"}}}),
            "config.remove_furniture.mask_url",
        ),
    ] {
        let answer = create(body).send().await.unwrap();
        assert_eq!(answer.status().as_u16(), 400);
        let message: serde_json::Value = answer.json().await.unwrap();
        assert!(message["message"].as_str().unwrap().starts_with(field), "{message}");
    }
    let v1 = http
        .post(server.api("/v1/render/create?image_url=http%3A%2F%2F192.168.0.10%2Fa.jpg&room_type=living"))
        .bearer_auth(&token)
        .multipart(reqwest::multipart::Form::new().text("note", "x"))
        .send()
        .await
        .unwrap();
    assert_eq!(v1.status().as_u16(), 400);
    assert_eq!(creations().len(), 2, "only the two public creations reached the service");
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_answered_408() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--body-timeout-s", "1", "--upload-timeout-s", "1"], &[]).await;
    let address = server.url.trim_start_matches("http://").to_string();
    for (path, expected) in [("/api/v2/renders", "HTTP/1.1 408"), ("/api/uploads", "HTTP/1.1 408")] {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(b"{\"image_url\": ").await.unwrap();
        // ...and nothing more
        let mut answer = vec![0u8; 512];
        let read = tokio::time::timeout(std::time::Duration::from_secs(30), stream.read(&mut answer)).await;
        let read = read.unwrap_or_else(|_| panic!("{path}: still waiting for the body after 30 s"));
        let text = String::from_utf8_lossy(&answer[..read.unwrap()]).to_string();
        assert!(text.starts_with(expected), "{path}: {text}");
    }
}

#[tokio::test]
async fn a_webhook_body_sent_a_byte_at_a_time_is_answered_408_once_its_time_is_up() {
    // Anyone may post a delivery: one sent a byte at a time, each in time, must not hold its connection.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--body-timeout-s", "2"], &[]).await;
    let address = server.url.trim_start_matches("http://").to_string();
    let stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let (mut reading, mut writing) = stream.into_split();
    let head = format!(
        "POST /api/webhooks/service HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: 100000\r\n\r\n"
    );
    writing.write_all(head.as_bytes()).await.unwrap();
    // it drips for a minute, longer than the answer is waited for: any answer comes while it still drips
    let drip = tokio::spawn(async move {
        for _ in 0..120 {
            if writing.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    });
    let mut answer = vec![0u8; 512];
    let read = tokio::time::timeout(std::time::Duration::from_secs(30), reading.read(&mut answer)).await;
    let read = read.expect("an answer while the body still drips in").unwrap();
    let text = String::from_utf8_lossy(&answer[..read]).to_string();
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("did not arrive within 2 s"), "{text}");
    drip.abort();
}

#[tokio::test]
async fn a_closed_standard_output_does_not_stop_the_server() {
    // A supervisor may close the output once the address is read; the server's next lines must not fail it.
    use tokio::io::AsyncBufReadExt;
    let dist = widget_dir();
    let data = tempfile::tempdir().unwrap();
    let mut process = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["serve", "--listen", "127.0.0.1:0", "--dist"])
        .arg(dist.path())
        .arg("--data-dir")
        .arg(data.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut first = String::new();
    tokio::io::BufReader::new(process.stdout.take().unwrap()).read_line(&mut first).await.unwrap();
    let url = first.strip_prefix("vstage listening on ").unwrap().split_whitespace().next().unwrap().to_string();
    // the output is closed now; the server keeps answering and stops cleanly, saying so into the closed pipe
    let status = reqwest::get(format!("{url}/api/v2/status")).await.unwrap().status();
    assert_eq!(status, 200);
    let _ = std::process::Command::new("kill").args(["-TERM", &process.id().unwrap().to_string()]).status();
    let exit = tokio::time::timeout(std::time::Duration::from_secs(10), process.wait()).await.unwrap().unwrap();
    assert!(exit.success(), "it stopped with {exit}");
}
