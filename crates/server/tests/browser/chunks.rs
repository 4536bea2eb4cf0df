//! What loads on first use: every screen is a chunk, the renders list too. The one an element starts on is fetched
//! beside the main module (`/embed.js` preloads it), so no request before the first screen waits for the main module;
//! the others load when first shown. A screen whose chunk cannot be fetched says so, and loads on "Try again" once
//! the chunk is there.

use std::path::Path;

use serde_json::Value;
use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;

use crate::browser::{click_text, dist, studio, with_browser, with_text};
use crate::embed::{WATCH_START, start_host, watched_host_page};
use crate::support::Server;

/// A copy of the build without the chunk of the screen `split` (and its precompressed forms), which are kept aside.
struct ChunkAway {
    copy: tempfile::TempDir,
    away: tempfile::TempDir,
    files: Vec<String>,
}

impl ChunkAway {
    fn new(split: &str) -> Self {
        let (copy, away) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        copy_tree(&dist(), copy.path());
        let files: Vec<_> = std::fs::read_dir(copy.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.starts_with(&format!("split_{split}-")))
            .collect();
        assert_eq!(files.len(), 3, "the chunk with its .br and .gz: {files:?}");
        for name in &files {
            std::fs::rename(copy.path().join(name), away.path().join(name)).unwrap();
        }
        ChunkAway { copy, away, files }
    }

    fn put_back(&self) {
        for name in &self.files {
            std::fs::rename(self.away.path().join(name), self.copy.path().join(name)).unwrap();
        }
    }
}

#[tokio::test]
async fn a_screen_whose_chunk_cannot_be_fetched_says_so_and_loads_on_try_again() {
    let chunk = ChunkAway::new("account_screen");
    let server = Server::start(chunk.copy.path()).await;
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        with_text(&root, "h1", "Your renders").first().await?;
        let fetched = r#"return performance.getEntriesByType("resource").map((entry) => entry.name)
                             .filter((name) => name.endsWith(".wasm"))"#;
        let wasm: Vec<String> = driver.execute(fetched, vec![]).await?.convert()?;
        assert!(
            wasm.iter().all(|name| !name.contains("account")),
            "the account's chunk waits for its screen: {wasm:?}"
        );

        root.find(By::LinkText("Account")).await?.click().await?;
        let failed = with_text(&root, "[role=alert]", StringMatch::new("could not be loaded").partial());
        failed.first().await?;
        chunk.put_back();
        click_text(&root, "button", "Try again").await?;
        let account = root.query(By::Css(".vstage-facts")).first().await?.text().await?;
        assert!(account.contains("@sandbox.vstage.invalid"), "{account}");
        Ok(())
    })
    .await;
}

/// The renders list, the first screen, is a chunk too: fetched early by `/embed.js`, and fetched again on "Try
/// again" (the early fetch is taken once).
#[tokio::test]
async fn a_first_screen_whose_chunk_cannot_be_fetched_says_so_and_loads_on_try_again() {
    let chunk = ChunkAway::new("renders_screen");
    let server = Server::start(chunk.copy.path()).await;
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        let failed = with_text(&root, "[role=alert]", StringMatch::new("could not be loaded").partial());
        failed.first().await?;
        assert!(root.find(By::LinkText("Account")).await.is_ok(), "the shell is there around the failed screen");
        chunk.put_back();
        click_text(&root, "button", "Try again").await?;
        with_text(&root, "h1", "Your renders").first().await?;
        Ok(())
    })
    .await;
}

/// The requests the page made before its first screen was painted (for a page that did not watch from its start,
/// before this script saw it): name, start and end, in milliseconds.
async fn requests_before_paint(driver: &WebDriver) -> WebDriverResult<Vec<Value>> {
    let script = format!(
        r#"const done = arguments[0];
        {WATCH_START}
        // A request's entry is written once its answer has been read: look a moment after the paint.
        window.painted.then((painted) => setTimeout(() => done(performance.getEntriesByType("resource")
            .filter((entry) => entry.startTime < painted)
            .map((entry) => ({{ name: entry.name, start: entry.startTime, end: entry.responseEnd }}))), 1000));"#
    );
    driver.execute_async(&script, vec![]).await?.convert()
}

/// Every file of the screen (`vstage-screens.json`) was asked for before the main module had arrived, and each
/// wasm file once (the split loader's fetches took the preloads).
fn fetched_beside_the_main_module(requests: &[Value], view: &str) {
    let screens: Value = serde_json::from_str(&std::fs::read_to_string(dist().join("vstage-screens.json")).unwrap())
        .expect("the build lists each screen's files");
    let names: Vec<&str> = requests.iter().filter_map(|request| request["name"].as_str()).collect();
    println!("{view}: {} requests before the first screen was painted: {names:#?}", names.len());
    let request = |file: &str| {
        requests
            .iter()
            .find(|request| {
                request["name"].as_str().is_some_and(|name| name.split('?').next().unwrap().ends_with(file))
            })
            .unwrap_or_else(|| panic!("{view}: {file} was not fetched before the first screen: {names:#?}"))
    };
    let main = names.iter().find(|name| name.contains("/vstage-widget-") && name.ends_with("_bg.wasm"));
    let main_end = request(main.expect("the main module was fetched"))["end"].as_f64().unwrap();
    let wanted = screens[view].as_array().expect("the build lists the view's files");
    for file in wanted {
        let file = format!("/{}", file.as_str().unwrap());
        let start = request(&file)["start"].as_f64().unwrap();
        assert!(start < main_end, "{view}: {file} asked at {start} ms, after the main module arrived ({main_end} ms)");
    }
    let wasm = names.iter().filter(|name| name.ends_with(".wasm")).count();
    assert_eq!(wasm, wanted.len() + 1, "{view}: the main module and the screen's files, once each: {names:#?}");
}

/// The embedded views tried: the renders list (the default) and two others.
const VIEWS: [&str; 3] = ["renders", "account", "board"];

#[tokio::test]
async fn the_first_screens_chunk_is_fetched_beside_the_main_module() {
    let mut hosts = Vec::new();
    let mut allowed = Vec::new();
    for _ in VIEWS {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        allowed.extend(["--allow-origin".to_string(), format!("http://{}", listener.local_addr().unwrap())]);
        hosts.push(listener);
    }
    let server = Server::start_with(&dist(), &allowed.iter().map(String::as_str).collect::<Vec<_>>(), &[]).await;
    let mut pages = Vec::new();
    for (view, listener) in VIEWS.into_iter().zip(hosts) {
        let url = format!("http://{}", listener.local_addr().unwrap());
        pages.push((view, url, start_host(listener, watched_host_page(&server.url, view)).await));
    }
    with_browser(|driver| async move {
        driver.set_script_timeout(std::time::Duration::from_secs(30)).await?;
        // Each a first visit: a file from the cache arrives at once, before anything could be asked beside it.
        let cdp = driver.cdp();
        let network = cdp.network();
        // Embedded on a host page of another origin, on its `view`.
        for (view, url, _host) in &pages {
            network.clear_browser_cache().await?;
            driver.goto(url).await?;
            fetched_beside_the_main_module(&requests_before_paint(&driver).await?, view);
        }
        // The standalone page, on its address.
        network.clear_browser_cache().await?;
        driver.goto(format!("{}/renders/new", server.url)).await?;
        fetched_beside_the_main_module(&requests_before_paint(&driver).await?, "new-render");
        Ok(())
    })
    .await;
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
