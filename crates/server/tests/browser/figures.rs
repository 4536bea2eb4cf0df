//! The studio's figures for `cargo xtask bench` (ignored in ordinary runs): time to the first painted list of an
//! account with 100 renders, requests per finished variation with polling and with events, and the delay from a
//! variation finishing in the sandbox to it showing on screen; a 30-photo bulk from the board to every row shown
//! and every variation done; the embedded widget's time from `embed.js` to ready and to its first screen, also on
//! an emulated slow connection.
//! Each figure is appended to `$VSTAGE_FIGURES`.

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use thirtyfour::cdp::domains::network::NetworkConditions;
use thirtyfour::prelude::*;
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::browser::{click_text, dist, studio, with_browser};
use crate::embed::{start_host, watched_host_page};
use crate::support::Server;

/// Milliseconds since the epoch, on this machine's clock (the sandbox's and the page's).
fn now_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |since| since.as_secs_f64() * 1000.0)
}

/// A 1x1 photo: processing costs nothing, so the figures are the studio's.
pub const PHOTO: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC";
const VARIATIONS: u64 = 4;

pub fn record(figure: &str, unit: &str, value: f64) {
    record_against(figure, unit, value, None);
}

/// A figure with the issue's aim beside it, in the same unit.
pub fn record_against(figure: &str, unit: &str, value: f64, reference: Option<f64>) {
    println!("figure: {figure} = {value:.2} {unit}");
    let Ok(path) = std::env::var("VSTAGE_FIGURES") else { return };
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("the figures file opens");
    let line = json!({"figure": figure, "unit": unit, "value": value, "reference": reference});
    writeln!(file, "{line}").expect("a figure is written");
}

/// A size in bytes against its budget (a ceiling: `cargo xtask bench` names every figure over its budget at the end
/// of its report), with the files it adds up, each `{"file", "bytes"}`.
pub fn record_files(figure: &str, value: f64, budget: f64, files: Vec<Value>) {
    println!("figure: {figure} = {value:.0} bytes, budget {budget:.0}");
    let Ok(path) = std::env::var("VSTAGE_FIGURES") else { return };
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("the figures file opens");
    let line =
        json!({"figure": figure, "unit": "bytes", "value": value, "reference": budget, "budget": true, "files": files});
    writeln!(file, "{line}").expect("a figure is written");
}

pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

async fn create(server: &Server, variations: u64) -> String {
    let answer = reqwest::Client::new()
        .post(server.api("/v2/renders"))
        .json(&json!({"image_url": PHOTO, "variation_count": variations, "config": {"type": "enhancement"}}))
        .send()
        .await
        .unwrap();
    let status = answer.status();
    let created: Value = answer.json().await.unwrap_or_default();
    assert!(status.is_success(), "a render could not be created for the figure ({status}): {created}");
    created["id"].as_str().expect("a render id").to_string()
}

/// Milliseconds from navigation start until `selector` is on screen in the studio's shadow root (checked every
/// animation frame; the root is attached once the wasm has started).
async fn painted_after_navigation(driver: &WebDriver, selector: &str) -> WebDriverResult<f64> {
    let script = r#"
        const [selector, done] = arguments;
        const look = () => document.querySelector('vstage-widget')?.shadowRoot?.querySelector(selector)
            ? done(performance.now())
            : requestAnimationFrame(look);
        look();
    "#;
    driver.execute_async(script, vec![json!(selector)]).await?.convert()
}

#[tokio::test]
#[ignore = "a figure for `cargo xtask bench`"]
async fn figure_first_painted_list_of_100_renders() {
    // The list is what is measured, not the rate limit: 100 creations at once pass its burst of 60.
    let server = Server::start_with(&dist(), &["--rate-limit", "0"], &[]).await;
    for _ in 0..100 {
        create(&server, 1).await;
    }
    with_browser(|driver| async move {
        driver.set_script_timeout(Duration::from_secs(30)).await?;
        let mut times = Vec::new();
        for _ in 0..7 {
            driver.goto(&server.url).await?;
            times.push(painted_after_navigation(&driver, ".vstage-card .vstage-card__link").await?);
        }
        record("studio: navigation to the first painted list (100 renders)", "ms", median(times));
        Ok(())
    })
    .await;
}

/// Opens a render, waits until all its variations show done, and returns the requests made for it.
async fn requests_until_done(driver: &WebDriver, server: &Server, render_id: &str) -> WebDriverResult<f64> {
    driver.goto(format!("{}/renders/{render_id}", server.url)).await?;
    let root = studio(driver).await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let done = root.find_all(By::Css("article[data-status=done]")).await?.len() as u64;
        if done >= VARIATIONS {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the variations finish within 2 minutes");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let script =
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/v2/renders/')).length";
    driver.execute(script, vec![]).await?.convert()
}

#[tokio::test]
#[ignore = "a figure for `cargo xtask bench`"]
async fn figure_requests_per_finished_variation() {
    // events: the embedded sandbox sends its webhooks to this server, which streams them
    let with_events = Server::start(&dist()).await;
    let render = create(&with_events, VARIATIONS).await;
    with_browser(|driver| async move {
        let requests = requests_until_done(&driver, &with_events, &render).await?;
        record("studio: requests per finished variation, with events", "count", requests / VARIATIONS as f64);
        Ok(())
    })
    .await;

    // polling: a server in front of a separate sandbox that cannot send it webhooks
    let (sandbox_url, _sandbox) = standalone_sandbox("figures-key").await;
    let polling =
        Server::start_with(&dist(), &["--upstream", &sandbox_url], &[("VSTAGE_API_KEY", "figures-key")]).await;
    let render = create(&polling, VARIATIONS).await;
    with_browser(|driver| async move {
        let requests = requests_until_done(&driver, &polling, &render).await?;
        record("studio: requests per finished variation, with polling", "count", requests / VARIATIONS as f64);
        Ok(())
    })
    .await;
}

#[tokio::test]
#[ignore = "a figure for `cargo xtask bench`"]
async fn figure_delay_from_finishing_to_showing_with_events() {
    // Only variations that finish while the page is shown count: with 1.5 s each on the sandbox's workers, the
    // later ones of eight finish after the page has painted its cards.
    const COUNT: usize = 8;
    let server = Server::start(&dist()).await;
    // the service's own completion times arrive in the `done` deliveries (`timestamp`); and when each reached
    // this plain HTTP reader, beside the page's, to tell the server's part from the browser's
    let stream = reqwest::Client::new().get(server.api("/events")).send().await.unwrap();
    let finished = tokio::spawn(async move {
        let mut times = std::collections::HashMap::new();
        let mut read_at = Vec::new();
        let mut body = stream.bytes_stream();
        let mut text = String::new();
        use futures_util::StreamExt;
        while times.len() < COUNT {
            let Some(Ok(chunk)) = body.next().await else { break };
            text.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = text.find("\n\n") {
                let block: String = text.drain(..end + 2).collect();
                if let Some(data) = block.lines().find_map(|line| line.strip_prefix("data: ")) {
                    let event: Value = serde_json::from_str(data).unwrap_or_default();
                    if event["event_type"] == "done" {
                        let done = event["timestamp"].as_f64().unwrap_or_default();
                        times.insert(event["variation_id"].as_str().unwrap_or_default().to_string(), done);
                        read_at.push(now_ms() - done);
                    }
                }
            }
        }
        (times, read_at)
    });
    let render = create(&server, COUNT as u64).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/renders/{render}", server.url)).await?;
        studio(&driver).await?;
        driver.set_script_timeout(Duration::from_secs(120)).await?;
        // when the cards were first on screen, and each card's first frame showing "done", on the page's clock
        // (the same machine's)
        let script = r#"
            const [expected, done] = arguments;
            const seen = {};
            const heard = {};
            let opened = null;
            // the page's own stream: when each event reached the page, before the widget handled it
            const stream = new EventSource('/api/events');
            stream.addEventListener('done', (message) => {
                const event = JSON.parse(message.data);
                heard[event.variation_id] ??= Date.now();
            });
            const look = () => {
                const root = document.querySelector('vstage-widget').shadowRoot;
                if (opened === null && root.querySelector('article[data-variation-id]')) opened = Date.now();
                for (const card of root.querySelectorAll('article[data-status=done]')) {
                    seen[card.dataset.variationId] ??= Date.now();
                }
                if (Object.keys(seen).length >= expected) {
                    stream.close();
                    done({ seen, heard, opened });
                } else {
                    requestAnimationFrame(look);
                }
            };
            look();
        "#;
        let screen: Value = driver.execute_async(script, vec![json!(COUNT)]).await?.convert()?;
        let opened = screen["opened"].as_f64().unwrap_or(f64::MAX);
        let (finished, read_by_plain_client) = finished.await.expect("the event reader ends");
        // what reached the page (`heard`) and what it showed (`seen`), after the service finished it
        let delays = |times: &Value| -> Vec<f64> {
            let mut delays: Vec<f64> = times
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(id, at)| {
                    let done = *finished.get(id)?;
                    (done > opened).then(|| at.as_f64().unwrap_or_default() - done)
                })
                .collect();
            delays.sort_by(f64::total_cmp);
            delays
        };
        let (shown, heard) = (delays(&screen["seen"]), delays(&screen["heard"]));
        assert!(!shown.is_empty(), "no variation finished while the page was shown: {screen} {finished:?}");
        let p95 = |delays: &[f64]| delays[(delays.len() * 95).div_ceil(100).saturating_sub(1)];
        record("studio: variation finished to shown on screen, with events (median)", "ms", median(shown.clone()));
        record("studio: variation finished to shown on screen, with events (p95)", "ms", p95(&shown));
        if !heard.is_empty() {
            record("studio: variation finished to its event on the page (median)", "ms", median(heard.clone()));
            record("studio: variation finished to its event on the page (p95)", "ms", p95(&heard));
        }
        let mut plain = read_by_plain_client;
        plain.sort_by(f64::total_cmp);
        record("studio: variation finished to its event at a plain HTTP reader (median)", "ms", median(plain.clone()));
        record("studio: variation finished to its event at a plain HTTP reader (p95)", "ms", p95(&plain));
        Ok(())
    })
    .await;
}

/// The embedded widget's start on a host page of another origin: from the request for `embed.js` to the
/// `vstage-ready` event (wasm fetched, compiled and started, first answer from the server) and to the first screen
/// painted, on a first visit and with the browser's cache warm; on this machine's loopback and on an emulated slow
/// connection (1.6 Mbps down, 750 kbps up, 150 ms round trip: Lighthouse's "slow 4G"), starting on the renders list
/// and, on the slow connection, on the board (a screen of chunks).
#[tokio::test]
#[ignore = "a figure for `cargo xtask bench widget`"]
async fn widget_time_from_embed_js_to_ready_and_first_screen() {
    let (renders_listener, board_listener) = (
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
    );
    let renders = format!("http://{}", renders_listener.local_addr().unwrap());
    let board = format!("http://{}", board_listener.local_addr().unwrap());
    let server = Server::start_with(&dist(), &["--allow-origin", &renders, "--allow-origin", &board], &[]).await;
    let _renders_host = start_host(renders_listener, watched_host_page(&server.url, "renders")).await;
    let _board_host = start_host(board_listener, watched_host_page(&server.url, "board")).await;
    with_browser(|driver| async move {
        driver.set_script_timeout(Duration::from_secs(120)).await?;
        let cdp = driver.cdp();
        let network = cdp.network();
        network.enable().await?;
        let cases = [
            ("widget on loopback", None, &renders),
            ("widget on slow connection", Some(slow_connection()), &renders),
            ("widget on slow connection, starting on the board", Some(slow_connection()), &board),
        ];
        for (case, conditions, host) in cases {
            if let Some(conditions) = conditions {
                network.emulate_network_conditions(conditions).await?;
            }
            let mut first = (Vec::new(), Vec::new());
            let mut warm = (Vec::new(), Vec::new());
            for visit in 0..8 {
                let first_visit = visit < 3;
                if first_visit {
                    network.clear_browser_cache().await?;
                }
                driver.goto(host).await?;
                let (ready, painted) = start_times(&driver).await?;
                let sample = if first_visit { &mut first } else { &mut warm };
                sample.0.push(ready);
                sample.1.push(painted);
            }
            for (visit, (ready, painted)) in [("first visit, median of 3", first), ("cache warm, median of 5", warm)] {
                record(&format!("{case}: embed.js to vstage-ready, {visit}"), "ms", median(ready));
                record(&format!("{case}: embed.js to first screen painted, {visit}"), "ms", median(painted));
            }
        }
        Ok(())
    })
    .await;
}

/// Lighthouse's "slow 4G" in Chromium's network emulation: 150 ms round trip, 1.6 Mbps down, 750 kbps up.
pub fn slow_connection() -> NetworkConditions {
    let mut conditions = NetworkConditions::new();
    conditions.latency = 150;
    conditions.download_throughput = 1_600_000 / 8;
    conditions.upload_throughput = 750_000 / 8;
    conditions
}

/// Milliseconds from the request for `embed.js` to `vstage-ready` and to the first screen painted, on the page just
/// opened.
async fn start_times(driver: &WebDriver) -> WebDriverResult<(f64, f64)> {
    let script = r#"const done = arguments[0];
        const since = performance.getEntriesByType('resource').find(entry => entry.name.endsWith('/embed.js')).startTime;
        Promise.all([window.ready, window.painted]).then(times => done(times.map(time => time - since)));"#;
    let [ready, painted]: [f64; 2] = driver.execute_async(script, vec![]).await?.convert()?;
    Ok((ready, painted))
}

/// `vstage sandbox` on its own port with one key; the child is killed with the handle.
async fn standalone_sandbox(key: &str) -> (String, tokio::process::Child) {
    let mut child = tokio::process::Command::new(crate::support::vstage_program())
        .args(["sandbox", "--listen", "127.0.0.1:0", "--api-key", key])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    while let Some(line) = lines.next_line().await.unwrap() {
        if let Some(rest) = line.strip_prefix("vstage listening on ") {
            let url = rest.split_whitespace().next().unwrap().to_string();
            tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
            return (url, child);
        }
    }
    panic!("the sandbox did not start");
}

/// A listing of 30 photos (the sandbox's samples, full size) sent from the board in one click: milliseconds until
/// the board shows a row for each, and until every row's variation is done.
#[tokio::test]
#[ignore = "a figure for `cargo xtask bench`"]
async fn figure_a_30_photo_bulk_to_a_full_board() {
    const PHOTOS: usize = 30;
    let server = Server::start(&dist()).await;
    let samples: Vec<Value> = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let addresses: Vec<String> =
        (0..PHOTOS).map(|n| format!("{}?photo={n}", samples[n % samples.len()]["url"].as_str().unwrap())).collect();
    with_browser(|driver| async move {
        driver.set_script_timeout(Duration::from_secs(300)).await?;
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(addresses.join("\n")).await?;
        click_text(&root, "button", "Add these addresses").await?;
        // 30 photos are asked about first; the question's "Create" is what is timed
        click_text(&root, "button", format!("Create {PHOTOS} renders")).await?;
        root.query(By::Css(".vstage-ask .vstage-button")).first().await?;
        // Clicked from the page itself, so that the clock starts with the click; each frame counts the rows.
        let script = r#"
            const [photos, done] = arguments;
            const root = document.querySelector('vstage-widget').shadowRoot;
            const button = root.querySelector('.vstage-ask .vstage-button');
            const started = performance.now();
            let rows = null;
            const look = () => {
                if (rows === null && root.querySelectorAll('.vstage-board__row').length >= photos) {
                    rows = performance.now() - started;
                }
                // a furnished photo's furniture is removed first: its render holds two variations
                const words = root.querySelector('.vstage-board__overall-words')?.textContent ?? '';
                const counted = words.match(/^(\d+) of (\d+) variations done$/);
                if (rows !== null && counted && counted[1] === counted[2] && Number(counted[2]) >= photos) {
                    done([rows, performance.now() - started]);
                } else {
                    requestAnimationFrame(look);
                }
            };
            button.click();
            look();
        "#;
        let [rows, finished]: [f64; 2] = driver.execute_async(script, vec![json!(PHOTOS)]).await?.convert()?;
        record("board: 30-photo bulk, click to a row for every photo", "ms", rows);
        record("board: 30-photo bulk, click to every variation done", "ms", finished);
        Ok(())
    })
    .await;
}
