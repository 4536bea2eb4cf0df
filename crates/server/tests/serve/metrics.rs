//! `--metrics-listen`: the metrics a Prometheus scrapes, on their own address, counting requests, calls to the
//! service and webhooks under templates and fixed words, never an id, a token or a key; and each request's log
//! line (`--log-format json`) with its id, which the answer carries too.

use serde_json::Value;

use crate::support::{Server, widget_dir};
use crate::webhooks::deliver_done;
use crate::{WIDGET_SECRET, mint};

/// Every sample line of `text` whose name and labels start with `prefix`, summed.
fn sum(text: &str, prefix: &str) -> f64 {
    text.lines()
        .filter(|line| line.starts_with(prefix))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

#[tokio::test]
async fn a_request_a_call_to_the_service_and_a_webhook_are_counted_by_template_only() {
    let port = vstage_postgres_cluster::unused_loopback_port();
    let address = format!("127.0.0.1:{port}");
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--metrics-listen", &address], &[]).await;
    let http = reqwest::Client::new();
    let scrape = async || {
        let answer = http.get(format!("http://{address}/metrics")).send().await.unwrap();
        assert_eq!(answer.status(), 200);
        assert!(answer.headers()["content-type"].to_str().unwrap().starts_with("application/openmetrics-text"));
        answer.text().await.unwrap()
    };
    assert!(server.output().contains(&format!("vstage metrics on http://{address}/metrics")));

    assert_eq!(http.get(server.api("/v2/user")).send().await.unwrap().status(), 200);
    let missing = http.get(server.api("/v2/renders/rnd_secret_looking_id")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(deliver_done(&server, "var_counted").await, 200);

    let text = scrape().await;
    let requests = r#"vstage_http_requests_total{route="/api/v2/user",method="GET",status="200"}"#;
    assert_eq!(sum(&text, requests), 1.0, "{text}");
    let by_template = r#"vstage_http_requests_total{route="/api/v2/renders/{render_id}",method="GET",status="404"}"#;
    assert_eq!(sum(&text, by_template), 1.0, "{text}");
    assert_eq!(sum(&text, r#"vstage_upstream_calls_total{endpoint="/v2/user",outcome="2xx"}"#), 1.0, "{text}");
    assert_eq!(sum(&text, r#"vstage_upstream_calls_total{endpoint="/v2/renders/{render_id}",outcome="4xx"}"#), 1.0);
    assert!(sum(&text, r#"vstage_upstream_call_duration_seconds_count{endpoint="/v2/user"}"#) >= 1.0, "{text}");
    assert_eq!(sum(&text, r#"vstage_webhooks_total{outcome="received"}"#), 1.0, "{text}");
    let webhook = r#"vstage_http_requests_total{route="/api/webhooks/service",method="POST",status="200"}"#;
    assert_eq!(sum(&text, webhook), 1.0, "{text}");
    assert!(!text.contains("rnd_secret_looking_id") && !text.contains("var_counted"), "no ids: {text}");
    let key = std::fs::read_to_string(server.data_dir().join("sandbox-api-key")).unwrap();
    assert!(!text.contains(key.trim()), "no key");

    // the public address does not serve them
    let public = http.get(format!("{}/metrics", server.url)).send().await.unwrap();
    assert_eq!(public.status(), 404, "the studio's address says the metrics are elsewhere, not its page");
    let public = public.text().await.unwrap();
    assert!(!public.contains("vstage_http_requests_total"), "the metrics are not public");
    assert!(public.contains("--metrics-listen"), "it says where they are: {public}");
}

#[tokio::test]
async fn each_request_is_one_json_line_with_its_id_and_nothing_secret() {
    let port = vstage_postgres_cluster::unused_loopback_port();
    let address = format!("127.0.0.1:{port}");
    let dist = widget_dir();
    let args = ["--access", "token", "--log-format", "json", "--metrics-listen", &address];
    let server = Server::start_with(dist.path(), &args, &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    let subject = "agent-ana-lopez@listings.example";
    let token = mint(WIDGET_SECRET, subject, "10m", None).await;
    let http = reqwest::Client::new();

    let kept_id = http.get(server.api("/v2/user")).bearer_auth(&token).header("X-Request-Id", "lb-7f3a.1").send();
    let kept_id = kept_id.await.unwrap();
    assert_eq!(kept_id.status(), 200);
    assert_eq!(kept_id.headers()["x-request-id"], "lb-7f3a.1", "the balancer's id is kept");
    let made = http.get(server.api("/v2/renders")).bearer_auth(&token).send().await.unwrap();
    let made_id = made.headers()["x-request-id"].to_str().unwrap().to_string();
    assert!(!made_id.is_empty());
    let refused = http.get(server.api("/v2/user")).bearer_auth("v1.forged.token").send().await.unwrap();
    assert_eq!(refused.status(), 401);

    let metrics = http.get(format!("http://{address}/metrics")).send().await.unwrap().text().await.unwrap();
    // the lines are written as the answers go out: wait for the last one's
    let refused_id = refused.headers()["x-request-id"].to_str().unwrap().to_string();
    server.wait_for_output(&refused_id).await;
    let output = server.output();
    let lines: Vec<Value> =
        output.lines().filter(|line| line.starts_with('{')).map(|line| serde_json::from_str(line).unwrap()).collect();
    assert!(!lines.is_empty(), "JSON lines: {output}");
    let answered = |id: &str| lines.iter().find(|line| line["request_id"] == id && line["message"] == "answered");
    let line = answered("lb-7f3a.1").unwrap_or_else(|| panic!("a line for the request: {output}"));
    assert_eq!((line["route"].as_str(), line["status"].as_u64()), (Some("/api/v2/user"), Some(200)));
    assert!(line["ms"].as_f64().is_some() && line["level"] == "INFO", "{line}");
    assert_eq!(answered(&made_id).unwrap()["route"], "/api/v2/renders");

    let key = std::fs::read_to_string(server.data_dir().join("sandbox-api-key")).unwrap();
    for (name, secret) in [("token", token.as_str()), ("subject", subject), ("key", key.trim()), ("forged", "forged")] {
        assert!(!output.contains(secret), "the log holds the {name}: {output}");
        assert!(!metrics.contains(secret), "the metrics hold the {name}: {metrics}");
    }
}

/// Text logs written to a pipe (as here) or a file carry no terminal colour codes: a log file stays plain text.
#[tokio::test]
async fn text_logs_to_a_pipe_carry_no_colour_codes() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let answer = reqwest::get(server.api("/capabilities")).await.unwrap();
    let id = answer.headers()["x-request-id"].to_str().unwrap().to_string();
    let output = server.wait_for_output(&id).await;
    assert!(output.contains("answered"), "{output}");
    assert!(!output.contains('\u{1b}'), "no escape codes: {output:?}");
    // What an operator reads at start: no crate's progress lines, no claim about a variable that was not set.
    assert!(!output.contains("c2pa"), "the content-credentials crate's own lines: {output}");
    assert!(output.contains("webhook secret is set to the one kept in"), "{output}");
    assert!(!output.contains("set to VSTAGE_WEBHOOK_SECRET"), "{output}");
}

#[tokio::test]
async fn the_metrics_address_disconnects_a_client_that_never_finishes_its_headers() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let address = format!("127.0.0.1:{}", vstage_postgres_cluster::unused_loopback_port());
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--metrics-listen", &address, "--header-timeout-s", "1"], &[]).await;
    let mut slow = tokio::net::TcpStream::connect(&address).await.unwrap();
    slow.write_all(b"GET /metrics HTTP/1.1\r\nHost: vstage\r\n").await.unwrap();
    // closed without an answer, as on the main address (an idle one held it for ever before)
    let mut rest = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), slow.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the connection is still open after 10 s");
    assert_eq!(String::from_utf8_lossy(&rest), "");
    let scraped = reqwest::get(format!("http://{address}/metrics")).await.unwrap();
    assert_eq!(scraped.status(), 200, "a scrape that sends its request is served");
    drop(server);
}
