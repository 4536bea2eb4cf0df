//! The studio at a phone's width and in a narrow column, measured: the demo listing page and the standalone studio
//! on each main screen at 390x844 (and 1280x800) scroll nowhere sideways, each studio is no wider than its
//! container and nothing in it reaches past its edges, every navigation link (found by role and name in the
//! accessibility tree) is seen whole, the before/after handle is on its image, and renders just created on the board
//! are shown with their progress. A 320 px column of a desktop page gets the narrow studio a phone gets: the layout
//! follows the studio's own width (container queries), not the window's.

use serde_json::{Value, json};
use thirtyfour::prelude::*;

use crate::board::sample_addresses;
use crate::browser::{
    dist, focus_moves_to, main_screens_with_a_render, navigate_within, shadow_root, studio, with_browser, with_text,
};
use crate::embed::{recording_host_page, server_for_a_host, start_host};
use crate::studio::submit;
use crate::support::Server;

const PHONE: (u32, u32) = (390, 844);
const DESKTOP: (u32, u32) = (1280, 800);
/// The navigation an embedded studio shows, and the standalone page's (which shows the classic screens too).
const EMBEDDED_NAV: [&str; 5] = ["Renders", "New render", "Listing board", "Remove furniture", "Account"];
const STANDALONE_NAV: [&str; 6] =
    ["Renders", "New render", "Listing board", "Remove furniture", "Older studio", "Account"];

/// What does not fit the window, as sentences (none when all fits): the page scrolling sideways, an image of the
/// page past the window's edges, a studio wider than its container's content or anything in a studio past its
/// edges.
async fn unfit(driver: &WebDriver) -> WebDriverResult<Vec<String>> {
    let script = r#"
        const found = [];
        const page = document.documentElement;
        const wide = page.clientWidth;
        if (page.scrollWidth > wide) found.push(`the page is ${page.scrollWidth} px wide in a ${wide} px window`);
        const past = (r, left, right) => r.width > 0 && (r.left < left - 0.5 || r.right > right + 0.5);
        const name = (e) => e.tagName.toLowerCase() + (e.className ? "." + String(e.className).split(" ")[0] : "");
        for (const image of document.querySelectorAll("body img")) {
            const r = image.getBoundingClientRect();
            if (past(r, 0, wide)) found.push(`the page's image "${image.alt}" spans ${r.left} to ${r.right}`);
        }
        for (const widget of document.querySelectorAll("vstage-widget")) {
            const box = widget.getBoundingClientRect();
            const column = widget.parentElement;
            const style = getComputedStyle(column);
            const room = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            if (box.width > room + 0.5) found.push(`a studio is ${box.width} px wide in a ${room} px container`);
            for (const e of widget.shadowRoot.querySelectorAll("*")) {
                const r = e.getBoundingClientRect();
                if (past(r, box.left, box.right)) {
                    found.push(`${name(e)} spans ${Math.round(r.left)} to ${Math.round(r.right)} in a studio from ${Math.round(box.left)} to ${Math.round(box.right)}`);
                }
            }
        }
        return found.slice(0, 12);"#;
    driver.execute(script, vec![]).await?.convert()
}

/// The links named `names` in the navigation of the studio `widget` selects, found by role and name in the
/// accessibility tree, that are not seen whole: each, scrolled to the middle of the window's height (never
/// sideways), must lie within the window and its studio and be what is under its own middle (not clipped, not
/// covered, not scrolled away in its row).
async fn nav_links_unseen(driver: &WebDriver, widget: &str, names: &[&str]) -> WebDriverResult<Vec<String>> {
    let cdp = driver.cdp();
    let expression = format!("document.querySelector({widget:?}).shadowRoot.querySelector('nav')");
    let nav = cdp.send_raw("Runtime.evaluate", json!({"expression": expression})).await?;
    let measure = r#"function () {
        const before = this.getBoundingClientRect();
        window.scrollBy(0, before.top - innerHeight / 2);
        const r = this.getBoundingClientRect();
        const studio = this.getRootNode().host.getBoundingClientRect();
        const wide = document.documentElement.clientWidth;
        const hit = this.getRootNode().elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        const within = r.width > 0 && r.left >= Math.max(0, studio.left) - 0.5
            && r.right <= Math.min(wide, studio.right) + 0.5;
        return within && (hit === this || this.contains(hit)) ? ""
            : `spans ${Math.round(r.left)} to ${Math.round(r.right)}, the studio ${Math.round(studio.left)} to ${Math.round(studio.right)}, the window 0 to ${wide}`;
    }"#;
    let mut unseen = Vec::new();
    for name in names {
        let found = cdp
            .send_raw(
                "Accessibility.queryAXTree",
                json!({"objectId": nav["result"]["objectId"], "accessibleName": name, "role": "link"}),
            )
            .await?;
        let mut nodes = found["nodes"].as_array().into_iter().flatten();
        let Some(node) = nodes.find(|node| node["ignored"] == false) else {
            unseen.push(format!("no link named {name:?} in the navigation"));
            continue;
        };
        let link = cdp.send_raw("DOM.resolveNode", json!({"backendNodeId": node["backendDOMNodeId"]})).await?;
        let seen = cdp
            .send_raw(
                "Runtime.callFunctionOn",
                json!({"objectId": link["object"]["objectId"], "functionDeclaration": measure, "returnByValue": true}),
            )
            .await?;
        let why = seen["result"]["value"].as_str().unwrap_or("could not be measured");
        if !why.is_empty() {
            unseen.push(format!("{name:?} {why}"));
        }
    }
    Ok(unseen)
}

/// How the header of the studio `widget` selects lays out its navigation: on a row of its own under the brand
/// (the narrow form) or beside it, and its shortest link's height.
async fn nav_layout(driver: &WebDriver, widget: &str) -> WebDriverResult<(bool, f64)> {
    let script = r#"
        const root = document.querySelector(arguments[0]).shadowRoot;
        const brand = root.querySelector(".vstage-brand").getBoundingClientRect();
        const nav = root.querySelector(".vstage-nav").getBoundingClientRect();
        const links = [...root.querySelectorAll(".vstage-nav a")].filter((a) => a.getClientRects().length > 0);
        return [nav.top >= brand.bottom, Math.min(...links.map((a) => a.getBoundingClientRect().height))];"#;
    driver.execute(script, vec![json!(widget)]).await?.convert()
}

/// Whether the before/after handle's middle is on the after image, and that image within the window.
async fn handle_on_its_image(driver: &WebDriver) -> WebDriverResult<Value> {
    let script = r#"
        const root = document.querySelector("vstage-widget").shadowRoot;
        const handle = root.querySelector(".vstage-compare__handle").getBoundingClientRect();
        const image = root.querySelector(".vstage-compare__after").getBoundingClientRect();
        const middle = handle.left + handle.width / 2;
        const on = middle > image.left && middle < image.right && image.left >= 0
            && image.right <= document.documentElement.clientWidth;
        return { on, middle, image: [image.left, image.right] };"#;
    driver.execute(script, vec![]).await?.convert()
}

#[tokio::test]
async fn the_demo_listing_page_fits_a_phone_with_both_studios_whole() {
    let server = Server::start(&dist()).await;
    let page = format!("{}/demo/listing.html", server.url);
    with_browser(|driver| async move {
        for (width, height) in [PHONE, DESKTOP] {
            driver.set_window_rect(0, 0, width, height).await?;
            driver.goto(&page).await?;
            for agent in ["ana", "ben"] {
                let root = shadow_root(&driver.find(By::Css(format!("#agent-{agent} vstage-widget"))).await?).await?;
                // each studio's first screen, with the styles its chunk brings
                root.query(By::Css(".vstage-main h1")).first().await?;
                with_text(&root, ".vstage-status__label", "Online").first().await?;
            }
            driver.query(By::Css("#photos img")).first().await?;
            let place = format!("at {width}x{height}");
            let unfit = unfit(&driver).await?;
            assert!(unfit.is_empty(), "the demo page {place}: {unfit:#?}");
            for agent in ["ana", "ben"] {
                let widget = format!("#agent-{agent} vstage-widget");
                let unseen = nav_links_unseen(&driver, &widget, &EMBEDDED_NAV).await?;
                assert!(unseen.is_empty(), "{agent}'s navigation {place}: {unseen:#?}");
                let (own_row, shortest) = nav_layout(&driver, &widget).await?;
                if width == PHONE.0 {
                    assert!(own_row && shortest >= 44.0, "{agent}'s studio is narrow {place}: {own_row}, {shortest}");
                }
            }
        }
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_standalone_studio_fits_a_phone_on_each_main_screen() {
    let server = Server::start(&dist()).await;
    // Each main screen, and what shows it is loaded.
    let (_, mut screens) = main_screens_with_a_render(&server).await;
    screens.push(("/account".to_string(), ".vstage-facts"));
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        for (width, height) in [PHONE, DESKTOP] {
            driver.set_window_rect(0, 0, width, height).await?;
            for (path, loaded) in &screens {
                navigate_within(&driver, path).await?;
                root.query(By::Css(*loaded)).first().await?;
                let place = format!("{path} at {width}x{height}");
                let unfit = unfit(&driver).await?;
                assert!(unfit.is_empty(), "{place}: {unfit:#?}");
                let unseen = nav_links_unseen(&driver, "vstage-widget", &STANDALONE_NAV).await?;
                assert!(unseen.is_empty(), "the navigation on {place}: {unseen:#?}");
                if path.starts_with("/renders/rnd") {
                    let handle = handle_on_its_image(&driver).await?;
                    assert_eq!(handle["on"], true, "the slider's handle on {place}: {handle}");
                }
            }
        }
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_narrow_column_of_a_desktop_page_gets_the_narrow_studio() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let token = |sub: &str| secret.mint(sub, std::time::Duration::from_secs(3600), Some(&host_origin));
    // A listing whose agent's studio sits in a 320 px column beside the text, and another across the page below.
    let widgets = format!(
        r#"<main style="display: grid; grid-template-columns: 1fr 320px; gap: 2rem; margin: 1rem">
             <article><h1>14 Alder Lane</h1><p>A light-filled craftsman on a quiet street.</p></article>
             <aside><vstage-widget id="narrow" token="{}" view="new-render"></vstage-widget></aside>
           </main>
           <section style="margin: 1rem"><vstage-widget id="wide" token="{}"></vstage-widget></section>"#,
        token("agent-ana"),
        token("agent-ben"),
    );
    let _host = start_host(host_listener, recording_host_page(&server.url, &["vstage-ready"], &widgets)).await;
    with_browser(|driver| async move {
        driver.set_window_rect(0, 0, DESKTOP.0, DESKTOP.1).await?;
        driver.goto(&host_origin).await?;
        for id in ["narrow", "wide"] {
            let root = shadow_root(&driver.find(By::Id(id)).await?).await?;
            root.query(By::Css(".vstage-main h1")).first().await?;
        }
        let narrow: f64 =
            driver.execute("return document.getElementById('narrow').offsetWidth", vec![]).await?.convert()?;
        assert!(narrow <= 320.0, "the studio keeps to its column: {narrow} px");
        let unfit = unfit(&driver).await?;
        assert!(unfit.is_empty(), "{unfit:#?}");
        // the column's studio is laid out as on a phone, in a desktop window; the one across the page is not
        let (own_row, shortest) = nav_layout(&driver, "#narrow").await?;
        assert!(own_row && shortest >= 44.0, "the column's studio is narrow: {own_row}, {shortest}");
        let (own_row, _) = nav_layout(&driver, "#wide").await?;
        assert!(!own_row, "the studio across the page has its navigation beside the brand");
        for id in ["#narrow", "#wide"] {
            let unseen = nav_links_unseen(&driver, id, &EMBEDDED_NAV).await?;
            assert!(unseen.is_empty(), "the navigation of {id}: {unseen:#?}");
        }
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn renders_created_on_a_phone_are_shown_with_their_progress() {
    let server = Server::start(&dist()).await;
    let names = ["living-empty.jpg", "bedroom-furnished.jpg", "exterior-day.jpg", "living-furnished.jpg"];
    let photos = sample_addresses(&server, None, &names).await;
    with_browser(|driver| async move {
        driver.set_window_rect(0, 0, PHONE.0, PHONE.1).await?;
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        // the button is at the end of four cards, a column of them on a phone
        submit(&root, "Create 4 renders").await?;
        focus_moves_to(&driver, "#vstage-board-renders").await?;
        let script = r#"
            const root = document.querySelector("vstage-widget").shadowRoot;
            const bar = root.querySelector(".vstage-board__overall").getBoundingClientRect();
            return { seen: bar.top >= 0 && bar.bottom <= innerHeight, top: bar.top, bottom: bar.bottom,
                     rows: root.querySelectorAll(".vstage-board__row").length };"#;
        let shown: Value = driver.execute(script, vec![]).await?.convert()?;
        assert_eq!(shown["seen"], true, "the overall progress is in view: {shown}");
        assert_eq!(shown["rows"], 4, "{shown}");
        let unfit = unfit(&driver).await?;
        assert!(unfit.is_empty(), "{unfit:#?}");
        Ok(())
    })
    .await;
}
