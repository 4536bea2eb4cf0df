//! The bytes before each first screen, for `cargo xtask bench widget` (ignored in ordinary runs): every request the
//! browser makes from opening the page until the first screen's heading is painted, read from Chromium's network
//! events (the DevTools protocol's `Network.requestWillBeSent`, through chromedriver's performance log), each
//! answer's body fetched again and compressed with `gzip -9`; for each screen a host can open first (`renders`,
//! `new-render`, `render`, `board`), standalone (on its address) and embedded (`/embed.js` on a host page of
//! another origin, whose own requests (its page, its icon) are the host's and not counted), on the emulated slow connection with the cache
//! cleared. Each case's total is a figure beside the 160 KiB budget, with its files; and its time to the first
//! screen painted, the median of three first visits.

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use thirtyfour::BrowserLogEntry;
use thirtyfour::prelude::*;

use crate::browser::{dist, with_browser_logging_network};
use crate::embed::WATCH_START;
use crate::figures::{median, slow_connection};
use crate::support::Server;

/// The whole first screen's budget (#63), gzip -9, everything the browser fetches before it is painted.
const BUDGET: f64 = 160.0 * 1024.0;

/// The screens a host can open first, as its `view` and as the standalone page's address (`{render}` the render).
const SCREENS: [(&str, &str); 4] =
    [("renders", "/"), ("new-render", "/renders/new"), ("render", "/renders/{render}"), ("board", "/board")];

/// One answer the browser asked for before the first screen was painted.
#[derive(Debug)]
struct Fetched {
    url: String,
    method: String,
    /// An event stream stays open: what it sent is not a file to compress.
    stream: bool,
}

#[tokio::test]
#[ignore = "a figure for `cargo xtask bench widget`"]
async fn widget_bytes_fetched_before_each_first_screen() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let host = format!("http://{}", listener.local_addr().unwrap());
    let server = Server::start_with(&dist(), &["--allow-origin", &host], &[]).await;
    let render = server
        .post(
            "/v2/renders",
            json!({"image_url": crate::figures::PHOTO, "variation_count": 1, "config": {"type": "enhancement"}}),
        )
        .await["id"]
        .as_str()
        .expect("a render id")
        .to_string();
    let _host = start_host_pages(listener, &server.url, &render).await;
    with_browser_logging_network(|driver| async move {
        driver.set_script_timeout(Duration::from_secs(120)).await?;
        driver.cdp().page().add_script_to_evaluate_on_new_document(WATCH_START).await?;
        let cdp = driver.cdp();
        let network = cdp.network();
        network.enable().await?;
        network.emulate_network_conditions(slow_connection()).await?;
        for (view, path) in SCREENS {
            let standalone = format!("{}{}", server.url, path.replace("{render}", &render));
            let embedded = format!("{host}/{view}");
            for (mode, page, host_origin) in [("standalone", standalone, None), ("embedded", embedded, Some(&host))] {
                let mut times = Vec::new();
                let mut visits = Vec::new();
                for _ in 0..3 {
                    network.clear_browser_cache().await?;
                    driver.get_log("performance").await?;
                    driver.goto(&page).await?;
                    let (opened_at, painted, painted_at) = painted(&driver).await?;
                    times.push(painted);
                    let log = driver.get_log("performance").await?;
                    visits.push(sized(&requests_between(&log, opened_at, painted_at, host_origin)).await);
                }
                // What comes before the heading can vary with the timing (a picture asked for just before it, or
                // just after): the visit of the median total counts.
                visits.sort_by_key(|files| {
                    files.iter().map(|file| file["bytes"].as_u64().unwrap_or_default()).sum::<u64>()
                });
                let case = format!("first screen {view}, {mode}");
                record_bytes(&case, visits.swap_remove(1));
                crate::figures::record(
                    &format!("{case}: opened to painted, slow connection, first visit, median of 3"),
                    "ms",
                    median(times),
                );
            }
        }
        Ok(())
    })
    .await;
}

/// The navigation's start on the wall clock (milliseconds since 1970, which the network events' `wallTime` is on),
/// the milliseconds from it to the first screen painted, and that moment on the wall clock.
async fn painted(driver: &WebDriver) -> WebDriverResult<(f64, f64, f64)> {
    let script = r#"const done = arguments[0];
        window.painted.then((time) => done([performance.timeOrigin, time, performance.timeOrigin + time]));"#;
    let [opened, since_start, wall]: [f64; 3] = driver.execute_async(script, vec![]).await?.convert()?;
    Ok((opened, since_start, wall))
}

/// The requests of the performance log (chromedriver's record of the DevTools protocol's events) sent from the
/// navigation's start (a millisecond's leeway: the two clocks round differently) to `painted_at`, but those to the
/// host's origin (`host_origin`: its page, its icon), which are not the studio's; none of the page before.
fn requests_between(
    log: &[BrowserLogEntry],
    opened_at: f64,
    painted_at: f64,
    host_origin: Option<&String>,
) -> Vec<Fetched> {
    let mut sent: Vec<(String, Fetched)> = Vec::new();
    let mut streams = Vec::new();
    for entry in log {
        let Ok(event) = serde_json::from_str::<Value>(&entry.message) else { continue };
        let (method, params) = (&event["message"]["method"], &event["message"]["params"]);
        let id = params["requestId"].as_str().unwrap_or_default().to_string();
        match method.as_str() {
            Some("Network.requestWillBeSent") => {
                let at = params["wallTime"].as_f64().unwrap_or(f64::MAX) * 1000.0;
                let url = params["request"]["url"].as_str().unwrap_or_default().to_string();
                let hosts = host_origin.is_some_and(|origin| url.starts_with(&format!("{origin}/")));
                if at >= opened_at - 1.0 && at <= painted_at && !hosts && !url.starts_with("data:") {
                    let method = params["request"]["method"].as_str().unwrap_or("GET").to_string();
                    let stream = params["type"] == "EventSource";
                    sent.push((id, Fetched { url, method, stream }));
                }
            }
            Some("Network.responseReceived") if params["response"]["mimeType"] == "text/event-stream" => {
                streams.push(id);
            }
            _ => {}
        }
    }
    sent.into_iter()
        .map(|(id, mut fetched)| {
            fetched.stream |= streams.contains(&id);
            fetched
        })
        .collect()
}

/// Each answer's body fetched again as it was sent, uncompressed, and its size with `gzip -9`; an event stream and
/// anything but a GET count nothing (they carry no file): `{"file", "bytes"}` each.
async fn sized(fetched: &[Fetched]) -> Vec<Value> {
    let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
    let mut files = Vec::new();
    for request in fetched {
        let bytes = if request.stream || request.method != "GET" {
            0
        } else {
            let answer = client.get(&request.url).header("Accept-Encoding", "identity").send().await.unwrap();
            gzip_9(&answer.bytes().await.unwrap())
        };
        let path = request.url.split_once("://").map_or(request.url.as_str(), |(_, rest)| rest);
        let path = path.split_once('/').map_or("/", |(_, path)| path);
        let kind = if request.stream { " (event stream)" } else { "" };
        files.push(json!({"file": format!("{} /{path}{kind}", request.method), "bytes": bytes}));
    }
    files
}

/// The total of a visit's `files`, beside the budget, with the files.
fn record_bytes(case: &str, files: Vec<Value>) {
    let total: u64 = files.iter().map(|file| file["bytes"].as_u64().unwrap_or_default()).sum();
    println!("{case}: {total} bytes gzip -9 in {} requests: {files:#?}", files.len());
    // the count beside, not in the name: a figure keeps its name from run to run, to be compared
    crate::figures::record(&format!("{case}: requests before it is painted"), "count", files.len() as f64);
    crate::figures::record_files(
        &format!("{case}: gzip -9 bytes fetched before it is painted"),
        total as f64,
        BUDGET,
        files,
    );
}

/// `gzip -9`'s output size for `bytes` (the name and time left out, as a server's would be).
fn gzip_9(bytes: &[u8]) -> u64 {
    let mut gzip = std::process::Command::new("gzip")
        .args(["-9", "-n", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gzip runs");
    let mut input = gzip.stdin.take().expect("gzip's input");
    let body = bytes.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&body));
    let output = gzip.wait_with_output().expect("gzip ends");
    writer.join().expect("the body is written").expect("gzip reads the body");
    assert!(output.status.success(), "gzip -9 failed");
    output.stdout.len() as u64
}

/// A host page per screen at `/{view}`, each with one element starting on it (the render screen on `render`), of
/// another origin than the server's.
async fn start_host_pages(
    listener: tokio::net::TcpListener,
    server: &str,
    render: &str,
) -> tokio::task::JoinHandle<()> {
    use axum::extract::Path;
    use axum::response::Html;
    let (server, render) = (server.to_string(), render.to_string());
    let page = move |Path(view): Path<String>| {
        let (server, render) = (server.clone(), render.clone());
        async move {
            Html(format!(
                r#"<!doctype html><html><head><meta charset="utf-8"><title>A listing</title>
                <script type="module" src="{server}/embed.js"></script></head>
                <body><vstage-widget view="{view}" render-id="{render}"></vstage-widget></body></html>"#
            ))
        }
    };
    let app = axum::Router::new().route("/{view}", axum::routing::get(page));
    tokio::spawn(async move {
        axum::serve(listener, app).await.ok();
    })
}
