//! The studio by keyboard alone, embedded in a listing page: a render from a sample photo to a finished variation, the before-and-after
//! slider, "Use in listing", then the mask editor's tools and a stroke painted with the arrow keys and space. Each
//! control is reached with Tab from where the focus is, and each new screen takes the focus to its heading.

use std::time::Duration;

use serde_json::Value;
use thirtyfour::TypingData;
use thirtyfour::prelude::*;

use crate::browser::{status_saying, studio, with_browser, with_text};
use crate::embed::{server_for_a_host, start_host};
use crate::mask::changed_text;
use crate::studio::wait_for_all_done;

/// The element that has the focus, looking into shadow roots: its tag, classes, text and label.
const FOCUSED: &str = r#"let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el ? { tag: el.tagName, class: String(el.className), text: (el.textContent || "").trim().slice(0, 80),
                  label: el.getAttribute("aria-label") || "", now: el.getAttribute("aria-valuenow") } : null;"#;

async fn focused(driver: &WebDriver) -> WebDriverResult<Value> {
    Ok(driver.execute(FOCUSED, vec![]).await?.json().clone())
}

async fn press(driver: &WebDriver, keys: impl Into<TypingData>) -> WebDriverResult<()> {
    driver.action_chain().send_keys(keys).perform().await
}

/// Presses Tab until the focused element matches `wanted`, at most 80 times; the path taken when it never does.
async fn tab_to(driver: &WebDriver, what: &str, wanted: impl Fn(&Value) -> bool) -> WebDriverResult<Value> {
    let mut path = Vec::new();
    for _ in 0..80 {
        press(driver, Key::Tab).await?;
        let now = focused(driver).await?;
        if wanted(&now) {
            return Ok(now);
        }
        path.push(format!("{} {:?}", now["tag"], now["text"].as_str().unwrap_or_default()));
    }
    Err(WebDriverError::ParseError(format!("Tab never reached {what}; it went through {path:?}")))
}

fn text_is(text: &'static str) -> impl Fn(&Value) -> bool {
    move |element| element["text"] == text
}

fn class_has(class: &'static str) -> impl Fn(&Value) -> bool {
    move |element| element["class"].as_str().is_some_and(|classes| classes.split(' ').any(|c| c == class))
}

/// Waits until the focused element matches `wanted` (it may change in place, or the focus move).
async fn focus_becomes(driver: &WebDriver, what: &str, wanted: impl Fn(&Value) -> bool) -> WebDriverResult<Value> {
    for _ in 0..100 {
        let now = focused(driver).await?;
        if wanted(&now) {
            return Ok(now);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(WebDriverError::ParseError(format!("never {what}: the focus is on {}", focused(driver).await?)))
}

/// Waits until the focus is on a heading (the new screen's).
async fn focus_on_heading(driver: &WebDriver) -> WebDriverResult<Value> {
    focus_becomes(driver, "on a heading", |element| element["tag"] == "H1").await
}

#[tokio::test]
async fn a_whole_flow_by_keyboard_alone() {
    // On a listing page, where "Use in listing" is offered.
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let token = secret.mint("agent-kim", Duration::from_secs(3600), Some(&host_origin));
    let page = format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A listing</title>
        <script type="module" src="{}/embed.js"></script></head>
        <body><h1>14 Alder Lane</h1><vstage-widget token="{token}"></vstage-widget></body></html>"#,
        server.url
    );
    let _host = start_host(host_listener, page).await;
    with_browser(|driver| async move {
        driver.goto(&host_origin).await?;
        let root = studio(&driver).await?;
        with_text(&root, ".vstage-status__label", "Online").first().await?;
        driver
            .execute(
                "document.querySelector('vstage-widget').addEventListener('vstage-result-chosen', \
                 (event) => { window.chosen = event.detail; })",
                vec![],
            )
            .await?;

        // a new render from a sample photo
        tab_to(&driver, "the New render link", text_is("New render")).await?;
        press(&driver, Key::Enter).await?;
        assert_eq!(focus_on_heading(&driver).await?["text"], "New render");
        root.query(By::Css(".vstage-sample")).first().await?;
        tab_to(&driver, "a sample photo", class_has("vstage-sample")).await?;
        press(&driver, " ").await?;
        root.query(By::Css(".vstage-sample--chosen")).first().await?;
        // "Create render" waits for the photo's furniture analysis, which the form says when it is in
        let scope = "document.querySelector('vstage-widget').shadowRoot.querySelector('.vstage')";
        let analysed = "No furniture found in this photo: the room is staged as it is.";
        status_saying(&driver, &root, scope, analysed).await?;
        tab_to(&driver, "Create render", text_is("Create render")).await?;
        press(&driver, Key::Enter).await?;
        focus_on_heading(&driver).await?;
        wait_for_all_done(&root, 1).await?;

        // the before-and-after slider
        let slider = tab_to(&driver, "the comparison slider", class_has("vstage-compare__handle")).await?;
        for _ in 0..3 {
            press(&driver, Key::Left).await?;
        }
        let moved = focused(&driver).await?;
        let value = |element: &Value| element["now"].as_str().and_then(|n| n.parse::<f64>().ok()).unwrap_or(-1.0);
        assert!(value(&moved) < value(&slider), "the arrows moved the slider: {slider} then {moved}");

        // "Use in listing"
        tab_to(&driver, "Use in listing", text_is("Use in listing")).await?;
        press(&driver, Key::Enter).await?;
        let mut chosen = Value::Null;
        // the choice is recorded with its disclosure first: up to a minute on a busy machine
        for _ in 0..600 {
            chosen = driver.execute("return window.chosen || null", vec![]).await?.json().clone();
            if !chosen.is_null() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(chosen["url"].as_str().is_some_and(|url| !url.is_empty()), "the host heard the choice: {chosen}");

        // the mask editor: its tools and a stroke by keyboard
        tab_to(&driver, "the Remove furniture link", text_is("Remove furniture")).await?;
        press(&driver, Key::Enter).await?;
        focus_on_heading(&driver).await?;
        root.query(By::Css(".vstage-sample")).first().await?;
        tab_to(&driver, "a sample photo", class_has("vstage-sample")).await?;
        press(&driver, Key::Enter).await?;
        tab_to(&driver, "Find the furniture", text_is("Find the furniture")).await?;
        press(&driver, Key::Enter).await?;
        root.query(By::Css(".vstage-analysis-share")).first().await?;
        tab_to(&driver, "Edit mask", text_is("Edit mask")).await?;
        press(&driver, Key::Enter).await?;
        let coverage = root.query(By::Css(".vstage-mask-coverage")).first().await?;
        tab_to(&driver, "the eraser", text_is("Eraser")).await?;
        press(&driver, Key::Enter).await?;
        focus_becomes(&driver, "the eraser chosen", class_has("vstage-tool--chosen")).await?;
        // back one control, to the brush
        driver.action_chain().key_down(Key::Shift).send_keys(Key::Tab).key_up(Key::Shift).perform().await?;
        assert_eq!(focused(&driver).await?["text"], "Brush");
        press(&driver, " ").await?;
        focus_becomes(&driver, "the brush chosen", class_has("vstage-tool--chosen")).await?;
        tab_to(&driver, "the canvas", |element| element["tag"] == "CANVAS").await?;
        let before = coverage.text().await?;
        // The first arrow shows the keyboard brush in the middle; Shift+arrows take it to the top-left corner (the
        // wall, which the analysis did not mark), where space held with the arrows paints a stroke.
        press(&driver, Key::Right).await?;
        for _ in 0..20 {
            driver
                .action_chain()
                .key_down(Key::Shift)
                .send_keys(Key::Left + Key::Up)
                .key_up(Key::Shift)
                .perform()
                .await?;
        }
        driver
            .action_chain()
            .key_down(' ')
            .send_keys(Key::Right + Key::Right + Key::Right + Key::Right)
            .key_up(' ')
            .perform()
            .await?;
        let painted = changed_text(&coverage, &before).await?;
        // one undo takes the whole stroke back
        driver.action_chain().key_down(Key::Control).send_keys("z").key_up(Key::Control).perform().await?;
        let undone = changed_text(&coverage, &painted).await?;
        assert_eq!(undone, before, "the stroke ({before} to {painted}) was one undo step");
        Ok(())
    })
    .await;
}
