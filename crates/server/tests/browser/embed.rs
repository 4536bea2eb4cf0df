//! The studio embedded in host pages: `/embed.js` on a page of another origin, two widgets with two subjects,
//! events to the host, "Use in listing", a renewed token, isolation both ways, and removal leaving nothing behind.

use std::time::Duration;

use serde_json::{Value, json};
use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;
use vstage_server::token::{Claims, WidgetSecret};

use crate::browser::{click_text, dist, screenshot, shadow_root, studio, with_browser, with_text};
use crate::studio::{choose_sample, submit};
use crate::support::Server;

const SECRET: &str = "embedding-test-secret-0123456789abcdef";
/// Long enough for the sandbox to finish a variation on a busy machine.
const FINISH: Duration = Duration::from_secs(60);

#[tokio::test]
async fn the_standalone_page_is_the_widget_in_a_shadow_root_with_its_styles() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let studio = studio(&driver).await?;
        with_text(&studio, ".vstage-status__label", "Online").first().await?;
        // The shell's styles and, come with the renders list's chunk, those every screen comes with
        // (www/screens.css); the other screens' (www/pages.css) come with theirs.
        with_text(&studio, "h1", "Your renders").first().await?;
        let sheets = r#"return document.querySelector("vstage-widget").shadowRoot.adoptedStyleSheets.length"#;
        assert_eq!(
            driver.execute(sheets, vec![]).await?.convert::<u64>()?,
            2,
            "the list comes without the pages' styles"
        );
        studio.query(By::LinkText("Account")).first().await?.click().await?;
        studio.query(By::Css(".vstage-facts")).first().await?;
        assert_eq!(driver.current_url().await?.path(), "/account");
        // back goes back in the studio
        driver.back().await?;
        with_text(&studio, "h1", "Your renders").first().await?;
        assert_eq!(driver.execute(sheets, vec![]).await?.convert::<u64>()?, 3, "the account brought the pages' styles");
        studio.query(By::LinkText("New render")).first().await?.click().await?;
        studio.query(By::Css(".vstage-form")).first().await?;
        let form = r#"const root = document.querySelector("vstage-widget").shadowRoot;
                      return getComputedStyle(root.querySelector(".vstage-form")).display"#;
        assert_eq!(driver.execute(form, vec![]).await?.convert::<String>()?, "grid", "a screen's rule applies");
        Ok(())
    })
    .await;
}

/// A listing site on its own origin: the two lines of the README, two agents' widgets, its own CSS (which must
/// stay out) and custom properties (which must get in), a link of its own, and a probe that counts the timers,
/// event streams and window listeners the page holds and records every `vstage-*` event.
fn host_page(vstage: &str, first_token: &str, second_token: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A listing</title>
<style>
  button {{ background: rgb(255, 0, 0) !important; }}
  #second {{ --vstage-accent: rgb(0, 128, 0); }}
  #first::part(header) {{ border-top: 7px solid rgb(1, 2, 3); }}
</style>
<script>
  const probe = {{ intervals: new Set(), timeouts: new Set(), sources: new Set(), listeners: 0, events: [] }};
  window.probe = probe;
  const [setI, clearI, setT, clearT] = [setInterval, clearInterval, setTimeout, clearTimeout];
  window.setInterval = (...a) => {{ const id = setI(...a); probe.intervals.add(id); return id; }};
  window.clearInterval = (id) => {{ probe.intervals.delete(id); clearI(id); }};
  window.setTimeout = (f, ...a) => {{
    const id = setT((...b) => {{ probe.timeouts.delete(id); typeof f === "function" ? f(...b) : eval(f); }}, ...a);
    probe.timeouts.add(id);
    return id;
  }};
  window.clearTimeout = (id) => {{ probe.timeouts.delete(id); clearT(id); }};
  const NativeSource = EventSource;
  window.EventSource = class extends NativeSource {{
    constructor(...a) {{ super(...a); probe.sources.add(this); }}
    close() {{ probe.sources.delete(this); super.close(); }}
  }};
  const [add, remove] = [window.addEventListener, window.removeEventListener];
  window.addEventListener = function (...a) {{ probe.listeners += 1; return add.apply(this, a); }};
  window.removeEventListener = function (...a) {{ probe.listeners -= 1; return remove.apply(this, a); }};
  for (const type of ["vstage-ready", "vstage-render-created", "vstage-variation-done", "vstage-result-chosen",
                      "vstage-token-expired", "vstage-error"]) {{
    document.addEventListener(type, (event) => probe.events.push({{ type, target: event.target.id, detail: event.detail }}));
  }}
  probe.headChildren = document.head.children.length + 1; // this script's module sibling below
  probe.historyLength = history.length;
</script>
<script type="module" src="{vstage}/embed.js"></script>
</head><body>
<h1>14 Alder Lane</h1>
<a id="host-link" href="/elsewhere">The host's own link</a>
<vstage-widget id="first" token="{first_token}"></vstage-widget>
<vstage-widget id="second" token="{second_token}"></vstage-widget>
</body></html>"#
    )
}

/// Notes, from a page's start, when `vstage-ready` comes (`window.ready`) and when the first screen's heading is on
/// screen (`window.painted`, checked every animation frame), in the page's milliseconds. Run again, it keeps what
/// an earlier run noted.
pub const WATCH_START: &str = r#"
    window.ready ??= new Promise(done => addEventListener('vstage-ready', () => done(performance.now()), { once: true }));
    window.painted ??= new Promise(done => {
        const look = () => document.querySelector('vstage-widget')?.shadowRoot?.querySelector('.vstage-main h1')
            ? done(performance.now())
            : requestAnimationFrame(look);
        look();
    });
"#;

/// A host page with one widget of `server` starting on `view`, watching its start ([`WATCH_START`]).
pub fn watched_host_page(server: &str, view: &str) -> String {
    format!(
        r#"<!doctype html><html><head><script>{WATCH_START}</script>
        <script type="module" src="{server}/embed.js"></script></head>
        <body><vstage-widget view="{view}"></vstage-widget></body></html>"#
    )
}

/// Serves `page` at `/` and a second page at `/elsewhere` from its own origin.
pub async fn start_host(listener: tokio::net::TcpListener, page: String) -> tokio::task::JoinHandle<()> {
    use axum::response::Html;
    let app = axum::Router::new()
        .route("/", axum::routing::get(move || async move { Html(page) }))
        .route("/elsewhere", axum::routing::get(|| async { Html("<h1>Elsewhere on the host</h1>") }));
    tokio::spawn(async move {
        axum::serve(listener, app).await.ok();
    })
}

/// How many of the page's event streams that the browser has not closed were opened with `token`.
async fn open_streams_with(driver: &WebDriver, token: &str) -> WebDriverResult<u64> {
    let script =
        "return [...window.probe.sources].filter((s) => s.url.includes(arguments[0]) && s.readyState !== 2).length";
    driver.execute(script, vec![json!(token)]).await?.convert()
}

async fn events(driver: &WebDriver) -> WebDriverResult<Vec<Value>> {
    driver.execute("return window.probe.events", vec![]).await?.convert()
}

/// Waits for the host to have heard `kind` from the widget `target`; returns its detail.
async fn heard(driver: &WebDriver, kind: &str, target: &str) -> WebDriverResult<Value> {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let found = events(driver).await?.into_iter().find(|event| event["type"] == kind && event["target"] == target);
        if let Some(event) = found {
            return Ok(event["detail"].clone());
        }
        if tokio::time::Instant::now() > deadline {
            let all = events(driver).await?;
            return Err(WebDriverError::ParseError(format!("no {kind} from #{target}; heard {all:?}")));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A listing's page that loads `vstage`'s `/embed.js` and holds `widget` (its element as written), keeping in
/// `window.heard` each of `events` it hears (`{type, detail}`) and in `window.logged` what is written to the
/// console's errors.
pub fn recording_host_page(vstage: &str, events: &[&str], widget: &str) -> String {
    let events = serde_json::to_string(events).unwrap();
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A listing</title>
<script>
  window.heard = [];
  for (const type of {events}) {{
    document.addEventListener(type, (event) => window.heard.push({{ type, detail: event.detail }}));
  }}
  window.logged = [];
  const error = console.error.bind(console);
  console.error = (...parts) => {{ window.logged.push(parts.join(" ")); error(...parts); }};
</script>
<script type="module" src="{vstage}/embed.js"></script></head>
<body>{widget}</body></html>"#
    )
}

/// Waits until a [`recording_host_page`] has heard `kind` `count` times; the details of all it heard of that kind.
pub async fn heard_at_least(driver: &WebDriver, kind: &str, count: usize) -> WebDriverResult<Vec<Value>> {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let all: Vec<Value> = driver.execute("return window.heard", vec![]).await?.convert()?;
        let of_kind: Vec<Value> =
            all.iter().filter(|event| event["type"] == kind).map(|event| event["detail"].clone()).collect();
        if of_kind.len() >= count {
            return Ok(of_kind);
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("{count} {kind} never heard; heard {all:?}")));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the widget `id` shows `text` (read from its shadow root as a whole: the status lines it watches
/// are replaced as they change, which would make a found element stale).
pub async fn shows(driver: &WebDriver, id: &str, text: &str) -> WebDriverResult<()> {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let shown: String = driver
            .execute("return document.getElementById(arguments[0]).shadowRoot.textContent", vec![json!(id)])
            .await?
            .convert()?;
        if shown.contains(text) {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("#{id} never showed {text:?}; it shows {shown:?}")));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn widget(driver: &WebDriver, id: &str) -> WebDriverResult<WebElement> {
    let element = driver.query(By::Id(id)).first().await?;
    shadow_root(&element).await
}

pub async fn set_attribute(driver: &WebDriver, id: &str, name: &str, value: &str) -> WebDriverResult<()> {
    driver
        .execute(
            "document.getElementById(arguments[0]).setAttribute(arguments[1], arguments[2])",
            vec![json!(id), json!(name), json!(value)],
        )
        .await?;
    Ok(())
}

/// A listing site's origin of its own (its listener, not serving yet), and a token-access server that allows it,
/// with the secret its tokens are signed with.
/// A token of `sub` for `origin` whose time ran out a minute ago.
fn expired_token(secret: &WidgetSecret, sub: &str, origin: &str) -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    secret.sign(&Claims { sub: sub.into(), exp: now - 60, origin: Some(origin.into()) })
}

pub async fn server_for_a_host() -> (tokio::net::TcpListener, String, Server, WidgetSecret) {
    server_of_build_for_a_host(&dist()).await
}

/// [`server_for_a_host`] serving the widget built in `build`.
pub async fn server_of_build_for_a_host(
    build: &std::path::Path,
) -> (tokio::net::TcpListener, String, Server, WidgetSecret) {
    let host_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let host_origin = format!("http://{}", host_listener.local_addr().unwrap());
    let server = Server::start_with(
        build,
        &["--access", "token", "--allow-origin", &host_origin],
        &[("VSTAGE_WIDGET_SECRET", SECRET)],
    )
    .await;
    (host_listener, host_origin, server, WidgetSecret::new(SECRET).unwrap())
}

#[tokio::test]
async fn two_widgets_on_a_host_of_another_origin_work_apart_and_tell_the_host() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let ana = secret.mint("agent-ana", Duration::from_secs(3600), Some(&host_origin));
    let ben = secret.mint("agent-ben", Duration::from_secs(3600), Some(&host_origin));
    // Ben's token runs out while he works (one already past its time is put in then, so no clock is raced); the
    // host gives him another.
    let ben_expired = expired_token(&secret, "agent-ben", &host_origin);
    let ben_renewed = secret.mint("agent-ben", Duration::from_secs(3599), Some(&host_origin));
    let samples: Vec<Value> = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let photo = samples[0]["url"].as_str().unwrap().to_string();
    let _host = start_host(host_listener, host_page(&server.url, &ana, &ben)).await;

    with_browser(|driver| async move {
        driver.goto(&host_origin).await?;
        heard(&driver, "vstage-ready", "first").await?;
        let ready = heard(&driver, "vstage-ready", "second").await?;
        assert_eq!(ready["api_base"], format!("{}/api", server.url), "the default api-base is embed.js's origin");
        let first = widget(&driver, "first").await?;
        let second = widget(&driver, "second").await?;
        with_text(&first, ".vstage-status__label", "Online").first().await?;

        // Isolation: the host's CSS stays out, its custom properties and ::part rules get in, its head is untouched.
        let styles: Value = driver
            .execute(
                r#"const button = (id) => document.getElementById(id).shadowRoot.querySelector(".vstage-button[part~=primary-button]");
                   const header = document.getElementById("first").shadowRoot.querySelector("header");
                   return { first: getComputedStyle(button("first")).backgroundColor,
                            second: getComputedStyle(button("second")).backgroundColor,
                            part: getComputedStyle(header).borderTopWidth,
                            head: document.head.children.length, expected: window.probe.headChildren };"#,
                vec![],
            )
            .await?
            .convert()?;
        assert_eq!(styles["first"], "rgb(11, 92, 173)", "the host's `button` rule does not reach in: {styles}");
        assert_eq!(styles["second"], "rgb(0, 128, 0)", "--vstage-accent themes the widget: {styles}");
        assert_eq!(styles["part"], "7px", "::part(header) is styled by the host: {styles}");
        assert_eq!(styles["head"], styles["expected"], "nothing was added to the host's <head>: {styles}");
        screenshot(&driver, "embed-two-widgets").await?;

        // Ana starts from the listing's photo and creates a render.
        set_attribute(&driver, "first", "photo-url", &photo).await?;
        // with the listing's references, which come back in every event about the render
        set_attribute(&driver, "first", "listing-id", "L-1042").await?;
        set_attribute(&driver, "first", "photo-id", "p-7").await?;
        driver.execute(r#"document.getElementById("first").metadata = { mls: 1042, agent: "Zoë" };"#, vec![]).await?;
        let references = json!({"listing_id": "L-1042", "photo_id": "p-7", "metadata": {"mls": 1042, "agent": "Zoë"}});
        let referenced = |detail: &Value| {
            json!({"listing_id": detail["listing_id"], "photo_id": detail["photo_id"], "metadata": detail["metadata"]})
        };
        set_attribute(&driver, "first", "view", "new-render").await?;
        let field = first.query(By::Css("input[type=url]")).first().await?;
        assert_eq!(field.prop("value").await?.as_deref(), Some(photo.as_str()), "photo-url starts the form");
        // with a token the server picks the webhook: the form does not offer one
        assert!(first.find_all(By::Css("#vstage-webhook")).await?.is_empty(), "no webhook field for a token");
        click_text(&first, "button[type=submit]", "Create render").await?;
        let created = heard(&driver, "vstage-render-created", "first").await?;
        let render_id = created["render_id"].as_str().unwrap_or_default().to_string();
        assert!(render_id.starts_with("rnd_"), "{created}");
        assert_eq!(referenced(&created), references, "{created}");
        let done = heard(&driver, "vstage-variation-done", "first").await?;
        assert_eq!(done["render_id"], render_id.as_str());
        assert_eq!(done["variation_type"], "staging");
        assert_eq!(referenced(&done), references, "{done}");
        assert!(done["result"]["url"].as_str().is_some_and(|url| url.starts_with(&server.url)), "{done}");

        // "Use in listing" hands the host the result with its disclosure, at the server's kept copy once the
        // server has made it (right after the `done` event).
        let kept_prefix = server.api(&format!("/results/{render_id}/"));
        let render_address = server.api(&format!("/v2/renders/{render_id}?include_variations=true"));
        let deadline = tokio::time::Instant::now() + FINISH;
        loop {
            let render: Value = reqwest::Client::new()
                .get(&render_address)
                .bearer_auth(&ana)
                .header("Origin", &host_origin)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if render["variations"]["items"][0]["result"]["url"].as_str().is_some_and(|u| u.starts_with(&kept_prefix)) {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "the server keeps a copy of the result: {render}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        click_text(&first, "button", "Use in listing").await?;
        let chosen = heard(&driver, "vstage-result-chosen", "first").await?;
        assert_eq!(chosen["render_id"], render_id.as_str());
        assert_eq!(chosen["variation_id"], done["variation_id"]);
        let kept = chosen["url"].as_str().unwrap_or_default();
        assert!(kept.starts_with(&kept_prefix), "the kept copy, not the service's: {chosen}");
        for copy in ["optimized_url", "thumbnail_url"] {
            let address = chosen[copy].as_str().unwrap_or_default();
            assert!(address.starts_with(&kept_prefix), "{copy} is a kept copy too: {chosen}");
        }
        assert_eq!(referenced(&chosen), references, "{chosen}");
        let image = reqwest::Client::new().get(kept).bearer_auth(&ana).header("Origin", &host_origin).send().await;
        assert_eq!(image.unwrap().status(), 200, "the host's backend fetches it with the agent's token");
        // the listing's photo, kept with the result (the server's default profile, AB 723, links its page)
        let original = chosen["original_url"].as_str().unwrap_or_default();
        assert!(original.starts_with(&kept_prefix) && original.contains("/original."), "{chosen}");
        assert_eq!(chosen["virtually_staged"], true);
        let page = chosen["disclosure_url"].as_str().unwrap_or_default();
        assert!(page.starts_with(&format!("{}/disclosures/dsc_", server.url)), "{chosen}");
        // California's statute: that it was altered, and that the unaltered original can be seen at the link
        let statement = "Virtually staged: this image was digitally altered. The unaltered original can be accessed \
                         at the linked page or QR code";
        assert_eq!(chosen["disclosure"], format!("{statement}: {page}"));
        // the result image loaded across origins
        let loaded: bool = driver
            .execute(
                r#"const img = document.getElementById("first").shadowRoot.querySelector(".vstage-variation img");
                   return img.complete && img.naturalWidth > 0;"#,
                vec![],
            )
            .await?
            .convert()?;
        assert!(loaded, "the result's thumbnail is shown");

        // Each agent sees only their own renders.
        set_attribute(&driver, "first", "view", "renders").await?;
        assert_eq!(
            first.query(By::Css(".vstage-card:not(.vstage-skeleton)")).all_from_selector_required().await?.len(),
            1
        );
        second.query(By::Css(".vstage-empty")).first().await?;
        // On another listing's page, Ana's list holds only that listing's renders: none yet.
        set_attribute(&driver, "first", "listing-id", "L-2000").await?;
        first.query(By::Css(".vstage-empty")).first().await?;
        let only = "Only renders made for listing L-2000 are shown here: none yet.";
        with_text(&first, "p.vstage-muted", only).first().await?;
        set_attribute(&driver, "first", "listing-id", "L-1042").await?;
        let cards = first.query(By::Css(".vstage-card:not(.vstage-skeleton)")).all_from_selector_required().await?;
        assert_eq!(cards.len(), 1, "back on the render's listing, its card");
        with_text(&first, "p.vstage-muted", "1 render for listing L-1042").first().await?;

        // Ben's token expires: the host hears it, gives a new one, and the widget's waiting call carries on.
        set_attribute(&driver, "second", "view", "account").await?;
        // a token's holder sees usage, not the operator's email and account id
        with_text(&second, "h1", "Your account").first().await?;
        assert!(second.find_all(By::Css(".vstage-facts")).await?.is_empty(), "no identity for a token");
        driver.execute("document.getElementById('second').token = arguments[0]", vec![json!(ben_expired)]).await?;
        set_attribute(&driver, "second", "view", "renders").await?;
        let expired = heard(&driver, "vstage-token-expired", "second").await?;
        assert!(expired["message"].as_str().is_some_and(|m| m.contains("expired")), "{expired}");
        let waiting = second.find_all(By::Css(".vstage-empty, .vstage-card:not(.vstage-skeleton)")).await?;
        let shown: String = driver
            .execute("return document.getElementById('second').shadowRoot.textContent", vec![])
            .await?
            .convert()?;
        assert!(waiting.is_empty(), "the list waits for the new token: {shown}");
        // the event stream ended with the token, and was not reopened with it
        assert_eq!(open_streams_with(&driver, &ben_expired).await?, 0, "no stream holds on to the expired token");
        driver.execute("document.getElementById('second').token = arguments[0]", vec![json!(ben_renewed)]).await?;
        second.query(By::Css(".vstage-empty")).first().await?;
        // the list shows before its stream opens: wait for the stream
        let deadline = tokio::time::Instant::now() + FINISH;
        while open_streams_with(&driver, &ben_renewed).await? != 1 {
            assert!(tokio::time::Instant::now() < deadline, "the new token opens a new stream");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        // A view the widget does not have is reported, not shown blank.
        set_attribute(&driver, "first", "view", "gallery").await?;
        let error = heard(&driver, "vstage-error", "first").await?;
        assert!(error["message"].as_str().is_some_and(|m| m.contains("gallery")), "{error}");

        // The host's address and history were never touched.
        let page: Value = driver
            .execute(
                "return { path: location.pathname, length: history.length, was: window.probe.historyLength }",
                vec![],
            )
            .await?
            .convert()?;
        assert_eq!(page["path"], "/");
        assert_eq!(page["length"], page["was"], "{page}");

        // Removed, the widgets leave no timer, stream or window listener behind.
        driver
            .execute("document.getElementById('first').remove(); document.getElementById('second').remove();", vec![])
            .await?;
        // a timeout already due may still run once (and clear itself): wait until nothing is left, however late
        // the browser runs its timers
        let nothing = json!({ "intervals": 0, "timeouts": 0, "streams": 0, "listeners": 0 });
        let deadline = tokio::time::Instant::now() + FINISH;
        loop {
            let left: Value = driver
                .execute(
                    r#"return { intervals: window.probe.intervals.size, timeouts: window.probe.timeouts.size,
                                streams: window.probe.sources.size, listeners: window.probe.listeners };"#,
                    vec![],
                )
                .await?
                .convert()?;
            if left == nothing {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "left behind: {left}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        // The host's own link still works as the host made it.
        driver.find(By::Id("host-link")).await?.click().await?;
        driver.query(By::Tag("h1")).with_text("Elsewhere on the host").first().await?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn uploads_and_the_mask_editor_work_on_a_host_of_another_origin() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    // Cy's token runs out before the upload (one already past its time is put in then, so no clock is raced); the
    // host gives another while the upload waits.
    let cy = secret.mint("agent-cy", Duration::from_secs(3600), Some(&host_origin));
    let cy_expired = expired_token(&secret, "agent-cy", &host_origin);
    let cy_renewed = secret.mint("agent-cy", Duration::from_secs(3599), Some(&host_origin));
    let dee = secret.mint("agent-dee", Duration::from_secs(3600), Some(&host_origin));
    let folder = tempfile::tempdir().unwrap();
    let photo = folder.path().join("my-living-room.jpg");
    image::RgbImage::from_fn(320, 200, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 150]))
        .save(&photo)
        .unwrap();
    let _host = start_host(host_listener, host_page(&server.url, &cy, &dee)).await;

    with_browser(|driver| async move {
        driver.goto(&host_origin).await?;
        heard(&driver, "vstage-ready", "first").await?;
        let first = widget(&driver, "first").await?;

        // A sample chosen, then the listing gives its photo: the picker shows it as the address it is.
        set_attribute(&driver, "first", "view", "new-render").await?;
        choose_sample(&first, "living-empty.jpg").await?;
        let listing_photo = "https://photos.example/14-alder-lane/living.jpg";
        set_attribute(&driver, "first", "photo-url", listing_photo).await?;
        let field = first.query(By::Css("input[type=url]")).first().await?;
        assert_eq!(field.prop("value").await?.as_deref(), Some(listing_photo));
        let chosen = first.find(By::Css(".vstage-tab--chosen")).await?.text().await?;
        assert_eq!(chosen, "Web address");

        // The upload meets an expired token, waits for the host's new one, and finishes without a second try.
        driver.execute("document.getElementById('first').token = arguments[0]", vec![json!(cy_expired)]).await?;
        click_text(&first, "label", StringMatch::new("From this device").partial()).await?;
        first.query(By::Css("input[type=file]")).first().await?.send_keys(photo.display().to_string()).await?;
        heard(&driver, "vstage-token-expired", "first").await?;
        driver.execute("document.getElementById('first').token = arguments[0]", vec![json!(cy_renewed)]).await?;
        shows(&driver, "first", "my-living-room.jpg is uploaded.").await?;

        // The mask editor's chunk is loaded only when the editor opens.
        let editor_loaded = r#"return performance.getEntriesByType("resource")
                                   .some((entry) => entry.name.includes("split_mask_editor-"))"#;
        assert!(!driver.execute(editor_loaded, vec![]).await?.convert::<bool>()?, "not loaded at start");
        // It draws the service's photo and analysis on its canvas across origins, and its mask is uploaded: a
        // canvas tainted by a cross-origin image could not be exported at all.
        set_attribute(&driver, "first", "view", "remove-furniture").await?;
        choose_sample(&first, "living-furnished.jpg").await?;
        submit(&first, "Find the furniture").await?;
        submit(&first, "Edit mask").await?;
        with_text(&first, ".vstage-mask-coverage", StringMatch::new("%").partial()).first().await?;
        assert!(driver.execute(editor_loaded, vec![]).await?.convert::<bool>()?, "loaded once opened");
        submit(&first, "Use this mask").await?;
        let mask_url = first.query(By::LinkText("See the mask")).first().await?.attr("href").await?.unwrap();
        assert!(mask_url.starts_with(&format!("{}/api/uploads/", server.url)), "{mask_url}");
        let mask = reqwest::get(&mask_url).await.unwrap().bytes().await.unwrap();
        assert!(image::load_from_memory(&mask).is_ok(), "the mask is a picture");
        Ok(())
    })
    .await;
}
