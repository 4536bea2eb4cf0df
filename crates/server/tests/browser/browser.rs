//! A headless Chromium for one test: its own chromedriver on a free port, quit when the test body ends.
//! Paths come from `CHROMIUM` and `CHROMEDRIVER` (set by `cargo xtask test`), defaulting to Debian's.

use std::future::Future;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use thirtyfour::prelude::*;
use tokio::process::{Child, Command};

/// The widget built by `trunk build --release` (`cargo xtask test` does it before these tests).
pub fn dist() -> PathBuf {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dist");
    assert!(
        dist.join("index.html").is_file(),
        "no built widget in {}: run the browser tests with `cargo xtask test`, which builds it first",
        dist.display()
    );
    dist
}

/// Runs `body` with a fresh browser and quits the browser whatever the outcome.
pub async fn with_browser<F, Fut>(body: F)
where
    F: FnOnce(WebDriver) -> Fut,
    Fut: Future<Output = WebDriverResult<()>>,
{
    let (driver, _chromedriver) = start().await;
    let outcome = body(driver.clone()).await;
    driver.quit().await.ok();
    outcome.expect("the browser steps succeed");
}

async fn start() -> (WebDriver, Child) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let chromedriver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    let process = Command::new(&chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {chromedriver} ({e}); `cargo xtask setup` installs it"));

    let mut capabilities = DesiredCapabilities::chrome();
    capabilities.set_binary(&std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())).unwrap();
    for arg in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-extensions",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,800",
    ] {
        capabilities.add_arg(arg).unwrap();
    }
    let url = format!("http://127.0.0.1:{port}");
    // chromedriver takes a moment to listen
    for _ in 0..100 {
        if let Ok(driver) = WebDriver::new(&url, capabilities.clone()).await {
            return (driver, process);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not accept a session on {url} within 10 s");
}
