//! Forwarding to a service over TLS (its trust from the process's environment), waiting calls sent to the
//! service's long-running address (`--direct-sync-url`, against the sandbox's), open access refusing to listen
//! beyond loopback, the deadlines on headers and bodies at the socket, and a closed standard output. (The proxy's
//! handler tests run in-process, in `src/proxy/served.rs` and beside it.)

use std::time::Duration;

use crate::recording::RecordingUpstream;
use crate::support::{ONE_PIXEL_PNG, Server, sandbox, widget_dir};

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

/// `vstage serve --direct-sync-url` pointed at the sandbox's long-running address (`/direct-sync`, its OpenAPI's
/// second server): a call that waits for completion goes there and is answered once the work is done, where the
/// regular address (its sync time-out 0 here) answers at once with the work queued. The sandbox's account is held
/// (`/sandbox/hold`) until both calls are made, so neither answer depends on the machine's speed.
#[tokio::test]
async fn a_waiting_call_goes_to_the_direct_sync_url_the_sandbox_serves() {
    let args = ["--api-key", KEY, "--processing-ms", "20", "--sync-timeout-s", "0"];
    let (_sandbox, service) = sandbox(&args, &[]).await;
    let hold = |method| {
        reqwest::Client::new()
            .request(method, format!("{service}/sandbox/hold"))
            .header("Authorization", format!("Api-Key {KEY}"))
    };
    assert!(hold(reqwest::Method::POST).send().await.unwrap().status().is_success());
    let dist = widget_dir();
    let envs = [("VSTAGE_API_KEY", KEY)];
    let regular = Server::start_with(dist.path(), &["--upstream", &service], &envs).await;
    let direct_sync = format!("{service}/direct-sync");
    let args = ["--upstream", service.as_str(), "--direct-sync-url", direct_sync.as_str()];
    let direct = Server::start_with(dist.path(), &args, &envs).await;
    let body = serde_json::json!({"image_url": ONE_PIXEL_PNG, "variation_count": 1, "wait_for_completion": true,
                                  "config": {"type": "enhancement"}});
    let create = |server: &Server| reqwest::Client::new().post(server.api("/v2/renders")).json(&body).send();

    let answered: serde_json::Value = create(&regular).await.unwrap().json().await.unwrap();
    assert_eq!(answered["variations"]["items"][0]["status"], "queued", "the regular address: {answered}");
    let waiting = tokio::spawn(create(&direct));
    assert!(!waiting.is_finished());
    assert!(hold(reqwest::Method::DELETE).send().await.unwrap().status().is_success());
    let answer = waiting.await.unwrap().unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let answered: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(answered["variations"]["items"][0]["status"], "done", "the long-running address: {answered}");
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
