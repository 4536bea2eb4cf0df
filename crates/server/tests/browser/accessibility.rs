//! axe-core (from npm, installed by `cargo xtask setup`) on every screen of the studio, at a desktop and a phone
//! size, in English and German: no serious or critical violation, and no page wider than the phone (German's
//! longer words wrap); each German screen is saved as a screenshot at the phone size. Each screen is checked with
//! something on it (a render, a board row, a classic render), so that its full form is what is measured.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use thirtyfour::prelude::*;

use crate::browser::{dist, main_screens_with_a_render, navigate_within, studio, with_browser};
use crate::support::Server;

/// axe-core's script: `VSTAGE_AXE`, else where `cargo xtask setup` puts it.
pub fn axe_script() -> String {
    let path = std::env::var_os("VSTAGE_AXE").map(PathBuf::from).unwrap_or_else(|| {
        // CARGO_TARGET_TMPDIR is `<target>/tmp`.
        let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().map(PathBuf::from).unwrap_or_default();
        target.join("tools/axe/node_modules/axe-core/axe.min.js")
    });
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("no axe-core at {} ({error}); run `cargo xtask setup`", path.display()))
}

/// The serious and critical violations axe finds on the page as it is, each as `rule: help (where)`.
pub async fn serious_violations(driver: &WebDriver, script: &str) -> WebDriverResult<Vec<String>> {
    driver
        .execute(
            "if (!window.axe) { const s = document.createElement('script'); s.textContent = arguments[0]; \
             document.head.appendChild(s); }",
            vec![json!(script)],
        )
        .await?;
    let found: Vec<Value> = driver
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
               axe.run(document, { resultTypes: ["violations"] })
                 .then(r => done(r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
                   .map(v => ({ id: v.id, help: v.help, where: v.nodes.slice(0, 4).map(n => JSON.stringify(n.target)) }))))
                 .catch(e => done([{ id: "axe-failed", help: String(e), where: [] }]));"#,
            vec![],
        )
        .await?
        .convert()?;
    Ok(found.iter().map(|v| format!("{}: {} ({})", v["id"], v["help"], v["where"])).collect())
}

/// A screen's path as a file name: `/classic/renders/rnd_1` is `classic-render`.
fn screen_name(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').filter(|part| !part.is_empty() && !part.starts_with("rnd_")).collect();
    match parts.as_slice() {
        [] => "renders".to_string(),
        ["renders"] => "render".to_string(),
        ["classic", "renders"] => "classic-render".to_string(),
        parts => parts.join("-"),
    }
}

/// What keeps the screen shown from fitting a `width` × `height` window: on a phone (390 px) a header over a quarter
/// of the height, and actions a finger cannot hit (under 44 px tall); anywhere, targets under WCAG 2.2's 24 px.
async fn fit_for(driver: &WebDriver, width: u32, height: u32) -> WebDriverResult<Vec<String>> {
    let phone = width < 600;
    let least = if phone { 44 } else { 24 };
    let measured: Value = driver
        .execute(
            r#"const root = document.querySelector("vstage-widget").shadowRoot;
               const seen = (e) => e.getClientRects().length > 0;
               const small = [...root.querySelectorAll(".vstage-main .vstage-button, .vstage-nav a")]
                 .filter(seen).map((e) => [e.textContent.trim(), e.getBoundingClientRect().height])
                 .filter(([, tall]) => tall < arguments[0]);
               return { header: root.querySelector(".vstage-header").getBoundingClientRect().height, small };"#,
            vec![json!(least)],
        )
        .await?
        .convert()?;
    let mut unfit = Vec::new();
    let header = measured["header"].as_f64().unwrap_or_default();
    if phone && header > f64::from(height) / 4.0 {
        unfit.push(format!("the header takes {header} px of {height}"));
    }
    for target in measured["small"].as_array().into_iter().flatten() {
        unfit.push(format!("{} is {} px tall, under {least}", target[0], target[1]));
    }
    Ok(unfit)
}

/// Saves the page as it is now as `<target>/e2e/{name}-390x844.png`.
async fn save_screenshot(driver: &WebDriver, name: &str) -> WebDriverResult<()> {
    let folder =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().map(|target| target.join("e2e")).unwrap_or_default();
    std::fs::create_dir_all(&folder).ok();
    driver.screenshot(&folder.join(format!("{name}-390x844.png"))).await
}

#[tokio::test]
async fn axe_finds_nothing_serious_on_any_screen_at_either_size_in_two_languages() {
    let server = Server::start(&dist()).await;
    let (photo, mut screens) = main_screens_with_a_render(&server).await;
    let classic =
        server.post("/v1/render/create", json!({"image_url": photo, "room_type": "living", "style": "modern"})).await;
    let classic_id = classic["render_id"].as_str().unwrap().to_string();
    // Each screen, and what shows it is loaded.
    screens.extend([
        ("/account".to_string(), "h1"),
        ("/classic".to_string(), ".vstage-card"),
        ("/classic/new".to_string(), "#vstage-classic-room"),
        (format!("/classic/renders/{classic_id}"), ".vstage-classic__output"),
    ]);
    let script = axe_script();
    with_browser(|driver| async move {
        driver.set_script_timeout(Duration::from_secs(60)).await?;
        let mut found = Vec::new();
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        for lang in ["en", "de"] {
            driver
                .execute(
                    "document.querySelector('vstage-widget').setAttribute('lang', arguments[0])",
                    vec![json!(lang)],
                )
                .await?;
            for (width, height) in [(1280u32, 800u32), (390, 844)] {
                driver.set_window_rect(0, 0, width, height).await?;
                for (path, loaded) in &screens {
                    navigate_within(&driver, path).await?;
                    root.query(By::Css(*loaded)).first().await?;
                    let place = format!("{path} in {lang} at {width}x{height}");
                    for violation in serious_violations(&driver, &script).await? {
                        found.push(format!("{place}: {violation}"));
                    }
                    // Longer words must wrap, not push the page sideways.
                    let overflow: i64 = driver
                        .execute(
                            "return document.scrollingElement.scrollWidth - document.documentElement.clientWidth",
                            vec![],
                        )
                        .await?
                        .convert()?;
                    if overflow > 0 {
                        found.push(format!("{place}: the page is {overflow} px wider than the window"));
                    }
                    found.extend(
                        fit_for(&driver, width, height).await?.into_iter().map(|why| format!("{place}: {why}")),
                    );
                    if lang == "de" && width == 390 {
                        save_screenshot(&driver, &format!("de-{}", screen_name(path))).await?;
                    }
                }
            }
        }
        assert!(found.is_empty(), "axe found serious or critical violations:\n{}", found.join("\n"));
        Ok(())
    })
    .await;
}
