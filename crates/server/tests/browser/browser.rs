//! A headless Chromium for one test: its own chromedriver on a free port, quit when the test body ends (also by a
//! panic).
//! Paths come from `CHROMIUM` and `CHROMEDRIVER` (set by `cargo xtask test`), defaulting to Debian's.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use futures_util::FutureExt;
use thirtyfour::extensions::query::ElementQuery;
use thirtyfour::prelude::*;
use thirtyfour::stringmatch::Needle;
use tokio::process::{Child, Command};

/// The widget's release build (`cargo xtask test` makes it before these tests).
pub fn dist() -> PathBuf {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dist");
    assert!(
        dist.join("index.html").is_file(),
        "no built widget in {}: run the browser tests with `cargo xtask test`, which builds it first",
        dist.display()
    );
    dist
}

/// Runs `step` again (up to five times) when it found an element that the studio then drew anew, which WebDriver
/// reports as a stale element: the screens redraw as answers come in.
pub async fn again_if_stale<T, Step, Outcome>(mut step: Step) -> WebDriverResult<T>
where
    Step: FnMut() -> Outcome,
    Outcome: Future<Output = WebDriverResult<T>>,
{
    for _ in 0..5 {
        match step().await {
            Err(error) if error.to_string().contains("stale element") => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            outcome => return outcome,
        }
    }
    step().await
}

/// The elements under `root` that `css` selects and whose text matches `text`, waited for. The studio redraws as
/// answers come in: an element removed while its text is read is no match, where thirtyfour would otherwise fail
/// the whole query with a stale element.
pub fn with_text<N>(root: &impl ElementQueryable, css: &str, text: N) -> ElementQuery
where
    N: Needle + Clone + Send + Sync + 'static,
{
    root.query(By::Css(css)).ignore_errors(true).with_text(text)
}

/// Clicks the element under `root` that `css` selects and whose text matches `text`, again when the studio drew it
/// anew between finding and clicking.
pub async fn click_text<N>(root: &impl ElementQueryable, css: &str, text: N) -> WebDriverResult<()>
where
    N: Needle + Clone + Send + Sync + 'static,
{
    again_if_stale(|| async { with_text(root, css, text.clone()).first().await?.click().await }).await
}

/// A finished staging of the first sample on `server`'s board, and the studio's main screens with what shows each
/// is loaded: the photo the render was made from, and the screens.
pub async fn main_screens_with_a_render(server: &crate::support::Server) -> (String, Vec<(String, &'static str)>) {
    let samples: serde_json::Value = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let photo = samples[0]["url"].as_str().unwrap().to_string();
    let render = server
        .post(
            "/v2/renders",
            serde_json::json!({"image_url": photo, "variation_count": 1, "wait_for_completion": true,
                "config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}}}),
        )
        .await;
    let render_id = render["id"].as_str().unwrap().to_string();
    let on_board = serde_json::json!({"renders": [{"render_id": render_id, "label": "Living.jpg"}]});
    server.post("/board/renders", on_board).await;
    let screens = vec![
        ("/".to_string(), ".vstage-card:not(.vstage-skeleton)"),
        ("/renders/new".to_string(), ".vstage-sample"),
        ("/board".to_string(), ".vstage-board__row"),
        (format!("/renders/{render_id}"), ".vstage-compare__handle"),
        ("/remove-furniture".to_string(), ".vstage-sample"),
    ];
    (photo, screens)
}

/// Moves the standalone studio to `path` within the page, as its own links do (a pushed history entry and the
/// back button's event), so that what the page holds stays.
pub async fn navigate_within(driver: &WebDriver, path: &str) -> WebDriverResult<()> {
    let script = "history.pushState(null, '', arguments[0]); dispatchEvent(new PopStateEvent('popstate'));";
    driver.execute(script, vec![serde_json::json!(path)]).await?;
    Ok(())
}

/// The studio inside the page's first `<vstage-widget>`: its open shadow root, queried as the page was before
/// the studio moved into one (CSS selectors and tag names; WebDriver finds no XPath inside a shadow root).
pub async fn studio(driver: &WebDriver) -> WebDriverResult<WebElement> {
    let element = driver.query(By::Css("vstage-widget")).first().await?;
    shadow_root(&element).await
}

/// The shadow root of a `<vstage-widget>`, once the wasm has started and attached it.
pub async fn shadow_root(element: &WebElement) -> WebDriverResult<WebElement> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        match element.get_shadow_root().await {
            Ok(root) => return Ok(root),
            Err(_) if tokio::time::Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(error) => return Err(error),
        }
    }
}

/// Runs `body` with a fresh browser and quits the browser whatever the outcome.
pub async fn with_browser<F, Fut>(body: F)
where
    F: FnOnce(WebDriver) -> Fut,
    Fut: Future<Output = WebDriverResult<()>>,
{
    run_in_browser(false, body).await;
}

/// [`with_browser`] with chromedriver's performance log on: the DevTools protocol's network events, read with
/// `driver.get_log("performance")`.
pub async fn with_browser_logging_network<F, Fut>(body: F)
where
    F: FnOnce(WebDriver) -> Fut,
    Fut: Future<Output = WebDriverResult<()>>,
{
    run_in_browser(true, body).await;
}

async fn run_in_browser<F, Fut>(network_log: bool, body: F)
where
    F: FnOnce(WebDriver) -> Fut,
    Fut: Future<Output = WebDriverResult<()>>,
{
    let (driver, _chromedriver, log) = start(network_log).await;
    // A body that panics (an assertion) quits the browser too: killing chromedriver alone would leave Chromium
    // running, and every figure measured after it on this machine would share the cores with it.
    let outcome = std::panic::AssertUnwindSafe(body(driver.clone())).catch_unwind().await;
    let failed = !matches!(outcome, Ok(Ok(())));
    if failed {
        // What the page showed when the step failed, to tell a wrong assertion from a broken page.
        let url = driver.current_url().await.map(|u| u.to_string()).unwrap_or_default();
        // the page's own text and the text inside each widget's shadow root, where the studio is
        let script = "return [document.body.innerText, ...Array.from(document.querySelectorAll('vstage-widget'), \
                      w => w.shadowRoot ? w.shadowRoot.textContent : '')].join('\\n')";
        let text: String = match driver.execute(script, vec![]).await {
            Ok(ret) => ret.convert().unwrap_or_default(),
            Err(_) => String::new(),
        };
        eprintln!("the page at {url} showed:\n{text}");
        let _ = screenshot(&driver, "failure").await;
        eprintln!("the end of Chromium's log ({}):\n{}", log.display(), log_tail(&log, 60));
    }
    driver.quit().await.ok();
    if !failed {
        std::fs::remove_file(&log).ok();
    }
    match outcome {
        Ok(steps) => steps.expect("the browser steps succeed"),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Saves the page as `<target>/e2e/{name}-1280x800.png` and `-390x844.png` (a desktop and a phone), then returns
/// to the desktop size.
pub async fn screenshot(driver: &WebDriver, name: &str) -> WebDriverResult<()> {
    let folder = e2e_folder();
    for (width, height) in [(390u32, 844u32), (1280, 800)] {
        driver.set_window_rect(0, 0, width, height).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        driver.screenshot(&folder.join(format!("{name}-{width}x{height}.png"))).await?;
    }
    Ok(())
}

/// The page as a picture of the docs (`docs/images/{name}.png`, 800 pixels wide from a 1280 × 1100 window), from
/// its top or from the element `top` selects (on the page or in the studio): written there with `VSTAGE_DOCS_PICTURES=1`, else beside the
/// screenshots, so that a test run leaves the sources alone.
pub async fn picture_for_the_docs(driver: &WebDriver, name: &str, top: Option<&str>) -> WebDriverResult<()> {
    driver.set_window_rect(0, 0, 1280, 1100).await?;
    match top {
        Some(selector) => {
            // on the page, or in the studio's shadow root
            let script = "const found = document.querySelector(arguments[0])
                ?? document.querySelector('vstage-widget')?.shadowRoot?.querySelector(arguments[0]);
                found.scrollIntoView({ block: 'start' })";
            driver.execute(script, vec![serde_json::json!(selector)]).await?;
        }
        None => {
            driver.execute("window.scrollTo(0, 0)", vec![]).await?;
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let shot = image::load_from_memory(&driver.screenshot_as_png().await?).expect("Chromium's screenshot is a PNG");
    assert!(shot.width() >= 1200, "the page was not drawn at the desktop width: {}", shot.width());
    let height = shot.height() * 800 / shot.width();
    let small = image::imageops::resize(&shot.to_rgb8(), 800, height, image::imageops::FilterType::Triangle);
    let mut png = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new_with_quality(
        &mut png,
        image::codecs::png::CompressionType::Best,
        image::codecs::png::FilterType::Adaptive,
    );
    small.write_with_encoder(encoder).expect("a PNG is written");
    let folder = if std::env::var_os("VSTAGE_DOCS_PICTURES").is_some_and(|value| value == "1") {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/images")
    } else {
        e2e_folder().join("docs")
    };
    std::fs::create_dir_all(&folder).ok();
    std::fs::write(folder.join(format!("{name}.png")), png).expect("the picture is saved");
    Ok(())
}

/// Where the chromedriver on `port` writes its log and Chromium's: `<target>/e2e/chromium-{port}.log`.
fn browser_log_path(port: u16) -> PathBuf {
    e2e_folder().join(format!("chromium-{port}.log"))
}

/// `<target>/e2e`, made if it is not there, where the tests leave what a person reads after them.
fn e2e_folder() -> PathBuf {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`, wherever CARGO_TARGET_DIR put the target directory.
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap_or(Path::new("target")).join("e2e");
    std::fs::create_dir_all(&folder).ok();
    folder
}

/// The last `lines` lines of the log at `path`, or why there are none.
fn log_tail(path: &Path, lines: usize) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let all: Vec<&str> = text.lines().collect();
            all[all.len().saturating_sub(lines)..].join("\n")
        }
        Err(error) => format!("(no log: {error})"),
    }
}

async fn start(network_log: bool) -> (WebDriver, Child, PathBuf) {
    let port = vstage_postgres_cluster::unused_loopback_port();
    let chromedriver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    // Chromium's own log beside chromedriver's, read back when a step fails (a renderer that crashed says why).
    let log = browser_log_path(port);
    let process = Command::new(&chromedriver)
        .arg(format!("--port={port}"))
        .arg(format!("--log-path={}", log.display()))
        .arg("--enable-chrome-logs")
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
    if network_log {
        capabilities.set_logging_prefs("performance", thirtyfour::LoggingPrefsLogLevel::All).unwrap();
    }
    let url = format!("http://127.0.0.1:{port}");
    // chromedriver takes a moment to listen
    for _ in 0..100 {
        if let Ok(driver) = WebDriver::new(&url, capabilities.clone()).await {
            return (driver, process, log);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not accept a session on {url} within 10 s");
}

/// Waits until the focus, in the page's first studio, is on an element matching `selector` (a refusal, or the section
/// an action brought to the eye).
pub async fn focus_moves_to(driver: &WebDriver, selector: &str) -> WebDriverResult<()> {
    let script =
        "return document.querySelector('vstage-widget').shadowRoot.activeElement?.matches(arguments[0]) ?? false";
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !driver.execute(script, vec![serde_json::json!(selector)]).await?.convert::<bool>()? {
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("{selector} never took the focus")));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// The elements of `role` named `name` (their accessible name, as an assistive technology reads it) in the subtree
/// of the element the script `scope` returns (e.g. `document.querySelector('vstage-widget').shadowRoot.firstElementChild`),
/// found in Chromium's accessibility tree; waited for until at least one is there. Each is returned as an element
/// of `root` (the shadow root or page it lives in), which it is marked in for the finding.
pub async fn all_by_role(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    role: &str,
    name: &str,
) -> WebDriverResult<Vec<WebElement>> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let found = find_by_role(driver, root, scope, role, name).await?;
        if !found.is_empty() {
            return Ok(found);
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("no {role} named {name:?} in {scope}")));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The one element of `role` named `name` under `scope` (see [`all_by_role`]), waited for.
pub async fn by_role(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    role: &str,
    name: &str,
) -> WebDriverResult<WebElement> {
    let mut found = all_by_role(driver, root, scope, role, name).await?;
    match found.len() {
        1 => Ok(found.remove(0)),
        many => Err(WebDriverError::ParseError(format!("{many} of role {role} are named {name:?} in {scope}"))),
    }
}

/// Clicks the one element of `role` named `name` under `scope`, found again when the studio drew it anew.
pub async fn click_role(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    role: &str,
    name: &str,
) -> WebDriverResult<()> {
    again_if_stale(|| async { by_role(driver, root, scope, role, name).await?.click().await }).await
}

/// The live region (`role=status`, which takes no name from its words) under `scope` that says `text`, waited for.
pub async fn status_saying(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    text: &str,
) -> WebDriverResult<WebElement> {
    Ok(statuses_saying(driver, root, scope, text, 1).await?.remove(0))
}

/// The live regions under `scope` that say `text`, waited for until there are `count` of them.
pub async fn statuses_saying(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    text: &str,
    count: usize,
) -> WebDriverResult<Vec<WebElement>> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let mut saying = Vec::new();
        for status in find_by_role(driver, root, scope, "status", "").await? {
            if status.text().await.is_ok_and(|said| said.trim() == text) {
                saying.push(status);
            }
        }
        if saying.len() == count {
            return Ok(saying);
        }
        if tokio::time::Instant::now() > deadline {
            let why = format!("{} statuses say {text:?} in {scope}, not {count}", saying.len());
            return Err(WebDriverError::ParseError(why));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether no element of `role` named `name` is under `scope` now.
pub async fn no_role(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    role: &str,
    name: &str,
) -> WebDriverResult<bool> {
    Ok(find_by_role(driver, root, scope, role, name).await?.is_empty())
}

async fn find_by_role(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    role: &str,
    name: &str,
) -> WebDriverResult<Vec<WebElement>> {
    let cdp = driver.cdp();
    let scoped = cdp.send_raw("Runtime.evaluate", serde_json::json!({"expression": scope})).await?;
    let Some(object) = scoped["result"]["objectId"].as_str() else {
        return Ok(Vec::new());
    };
    let mut query = serde_json::json!({"objectId": object, "role": role});
    if !name.is_empty() {
        query["accessibleName"] = serde_json::json!(name);
    }
    let answer = cdp.send_raw("Accessibility.queryAXTree", query).await?;
    let nodes: Vec<serde_json::Value> = answer["nodes"].as_array().cloned().unwrap_or_default();
    static FINDINGS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mark = format!("found-{}", FINDINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let mut marked = 0;
    for node in nodes.iter().filter(|node| node["ignored"] == false) {
        let Some(backend) = node["backendDOMNodeId"].as_u64() else { continue };
        let resolved = cdp.send_raw("DOM.resolveNode", serde_json::json!({"backendNodeId": backend})).await?;
        let Some(element) = resolved["object"]["objectId"].as_str() else { continue };
        let function = "function (mark) { this.setAttribute('data-found', mark); }";
        let call = serde_json::json!({"objectId": element, "functionDeclaration": function,
            "arguments": [{"value": format!("{mark}-{marked}")}]});
        cdp.send_raw("Runtime.callFunctionOn", call).await?;
        marked += 1;
    }
    let mut found = Vec::new();
    for index in 0..marked {
        found.push(root.find(By::Css(format!("[data-found='{mark}-{index}']"))).await?);
    }
    Ok(found)
}
