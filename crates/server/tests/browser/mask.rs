//! The mask editor end to end: analyse a furnished sample, correct its mask with pointer strokes (one undone with
//! Ctrl+Z), export it, and check that the removal the sandbox ran used exactly that mask; what was found in view and
//! tinted at both sizes, and the editor on a phone (two rows of tools, Undo in reach while painting).

use std::time::Duration;

use thirtyfour::prelude::*;

use crate::browser::{dist, focus_moves_to, picture_for_the_docs, screenshot, studio, with_browser, with_text};
use crate::studio::{call_on, choose_sample, remote_by_role, submit, wait_for_all_done};
use crate::support::Server;

/// The image at `url`, as grey levels.
async fn luma(url: &str) -> image::GrayImage {
    let bytes = reqwest::get(url).await.unwrap().bytes().await.unwrap();
    image::load_from_memory(&bytes).unwrap().to_luma8()
}

/// The element's text once it differs from `old`.
pub async fn changed_text(element: &WebElement, old: &str) -> WebDriverResult<String> {
    for _ in 0..100 {
        let text = element.text().await?;
        if text != old {
            return Ok(text);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(WebDriverError::ParseError(format!("the text stayed {old:?}")))
}

/// Drags across the canvas from one offset to another (CSS pixels from its centre) in a few big jumps.
async fn stroke(driver: &WebDriver, canvas: &WebElement, from: (i64, i64), to: (i64, i64)) -> WebDriverResult<()> {
    let steps = 3;
    let mut chain = driver.action_chain().move_to_element_with_offset(canvas, from.0, from.1).click_and_hold();
    for _ in 0..steps {
        chain = chain.move_by_offset((to.0 - from.0) / steps, (to.1 - from.1) / steps);
    }
    chain.release().perform().await
}

#[tokio::test]
async fn a_corrected_mask_is_the_one_the_removal_uses() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(&format!("{}/remove-furniture", server.url)).await?;
        let root = studio(&driver).await?;
        // asked with no photo: said where the eye is, and gone once a photo is chosen
        submit(&root, "Find the furniture").await?;
        with_text(&root, ".vstage-error", "Choose a photo first.").first().await?;
        focus_moves_to(&driver, ".vstage-error, [aria-invalid=true]").await?;
        choose_sample(&root, "living-furnished.jpg").await?;
        root.query(By::Css(".vstage-error")).not_exists().await?;
        submit(&root, "Find the furniture").await?;
        let share = root.query(By::Css(".vstage-analysis-share")).first().await?.text().await?;
        assert!(share.starts_with("Furniture covers") && share.contains('%'), "{share}");
        let analysis_url = root.find(By::Css(".vstage-analysis__mask")).await?.attr("src").await?.unwrap();
        let analysis = luma(&analysis_url).await;
        let (width, height) = analysis.dimensions();
        screenshot(&driver, "mask-analysis").await?;

        submit(&root, "Edit mask").await?;
        let canvas = root.query(By::Css(".vstage-mask-canvas")).first().await?;
        let coverage = root.query(By::Css(".vstage-mask-coverage")).first().await?;
        let before = changed_text(&coverage, "").await?;
        // on a phone the stage takes the photo's shape, so the fitted photo fills it
        driver.set_window_rect(0, 0, 390, 844).await?;
        let shape = canvas.rect().await?;
        let photo = f64::from(width) / f64::from(height);
        assert!((shape.width / shape.height - photo).abs() < 0.02, "{shape:?} for a photo of {width}x{height}");
        driver.set_window_rect(0, 0, 1280, 800).await?;
        // the photo is fitted: photo point = centre + offset / scale
        let rect = canvas.rect().await?;
        let scale = ((rect.width - 24.0) / f64::from(width)).min((rect.height - 24.0) / f64::from(height));
        let at = |dx: i64, dy: i64| {
            ((f64::from(width) / 2.0 + dx as f64 / scale), (f64::from(height) / 2.0 + dy as f64 / scale))
        };
        let half_width = (f64::from(width) * 0.35 * scale) as i64;
        let (first_row, second_row) =
            ((-0.40 * f64::from(height) * scale) as i64, (0.40 * f64::from(height) * scale) as i64);

        // a stroke along the top, taken back with Ctrl+Z
        stroke(&driver, &canvas, (-half_width, first_row), (half_width, first_row)).await?;
        let stroked = changed_text(&coverage, &before).await?;
        assert!(stroked.contains('%'), "the stroke is counted: {stroked}");
        driver.action_chain().key_down(Key::Control).send_keys("z").key_up(Key::Control).perform().await?;
        assert_eq!(changed_text(&coverage, &stroked).await?, before, "Ctrl+Z took the stroke back");
        // and one along the bottom, kept
        stroke(&driver, &canvas, (-half_width, second_row), (half_width, second_row)).await?;
        screenshot(&driver, "mask-editor").await?;
        picture_for_the_docs(&driver, "mask-editor", None).await?;

        submit(&root, "Use this mask").await?;
        let mask_link = root.query(By::LinkText("See the mask")).first().await?;
        let mask_url = mask_link.attr("href").await?.unwrap();
        let exported = luma(&mask_url).await;
        assert_eq!(exported.dimensions(), (width, height), "the mask has the photo's size");
        assert!(exported.pixels().all(|p| p.0[0] == 0 || p.0[0] == 255), "strictly black and white");
        for step in 1..20 {
            let dx = -half_width + (2 * half_width) * step / 20;
            let (x, y) = at(dx, second_row);
            assert_eq!(exported.get_pixel(x as u32, y as u32).0[0], 255, "the kept stroke at ({x:.0}, {y:.0})");
            let (x, y) = at(dx, first_row);
            let (x, y) = (x as u32, y as u32);
            assert_eq!(
                exported.get_pixel(x, y),
                analysis.get_pixel(x, y),
                "the undone stroke left no trace at ({x}, {y})"
            );
        }
        // away from the strokes the mask is the analysis's
        let middle = (height * 2 / 5)..(height * 3 / 5);
        assert!(
            middle.clone().all(|y| (0..width).all(|x| exported.get_pixel(x, y) == analysis.get_pixel(x, y))),
            "the middle of the photo, untouched, keeps the analysis's mask"
        );

        submit(&root, "Remove furniture with this mask").await?;
        root.query(By::Css(".vstage-variation")).first().await?;
        wait_for_all_done(&root, 1).await?;
        let variation_id = root.find(By::Css(".vstage-variation")).await?.attr("data-variation-id").await?.unwrap();
        // the sandbox keeps the grey levels it used (not the file given): the same pixels as the exported mask
        let kept = luma(&format!("{}/sandbox/files/{variation_id}-mask.png", server.url)).await;
        assert!(kept == exported, "the removal used the exported mask");
        screenshot(&driver, "mask-removal").await?;
        Ok(())
    })
    .await;
}

/// How many of the furniture found's pixels are seen tinted in a picture of the analysis: strongly magenta ones,
/// which neither the photo's wood and fabric nor a lightened photo are.
fn tinted_pixels(png: &[u8]) -> usize {
    let picture = image::load_from_memory(png).unwrap().to_rgb8();
    let tinted = |p: &image::Rgb<u8>| {
        let [r, g, b] = p.0.map(i32::from);
        r - g > 80 && b - g > 30
    };
    picture.pixels().filter(|p| tinted(p)).count()
}

/// The analysis's figure, once it is drawn: whether it is wholly within the window (photo, share and the way on to
/// the editor), and the window's height.
async fn analysis_in_view(driver: &WebDriver) -> WebDriverResult<(bool, f64)> {
    let script = r#"
        const root = document.querySelector("vstage-widget").shadowRoot;
        const figure = root.querySelector(".vstage-analysis");
        await Promise.all([...figure.querySelectorAll("img")].map((image) => image.decode().catch(() => {})));
        const edit = [...root.querySelectorAll("button")].find((b) => b.textContent.trim() === "Edit mask");
        const top = figure.getBoundingClientRect().top, bottom = edit.getBoundingClientRect().bottom;
        return [top >= -1 && bottom <= innerHeight + 1, innerHeight];"#;
    driver.execute(script, vec![]).await?.convert()
}

/// The mask toolbar's rows of controls as seen (controls whose middles are within 20 px share a row), and the
/// canvas's width and the window's.
async fn toolbar_rows(driver: &WebDriver) -> WebDriverResult<(usize, f64, f64)> {
    let script = r#"
        const root = document.querySelector("vstage-widget").shadowRoot;
        const bar = root.querySelector("[role=toolbar]");
        const middles = [...bar.querySelectorAll("button, input, output")]
            .filter((e) => e.getClientRects().length > 0)
            .map((e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; })
            .sort((a, b) => a - b);
        let rows = 0, last = -1e9;
        for (const middle of middles) { if (middle - last > 20) { rows += 1; last = middle; } }
        const canvas = root.querySelector("canvas").getBoundingClientRect();
        return [rows, canvas.width, document.documentElement.clientWidth];"#;
    driver.execute(script, vec![]).await?.convert()
}

/// Whether the element is wholly within the window and is what is under its own middle (not covered).
async fn reachable(driver: &WebDriver, object: &str) -> WebDriverResult<bool> {
    let seen = r#"function () {
        const r = this.getBoundingClientRect();
        const hit = this.getRootNode().elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.top >= 0 && r.bottom <= innerHeight && r.width > 0 && (hit === this || this.contains(hit));
    }"#;
    Ok(call_on(driver, object, seen).await? == serde_json::json!(true))
}

/// After "Find the furniture" what was found is brought into view, tinted so that it is seen before the editor opens,
/// and its cost is said as Staging's, at a desk and on a phone. On a phone the editor's tools fit two rows above a
/// canvas the width of the screen, and Undo stays in view (and works) with the page scrolled to paint.
#[tokio::test]
async fn what_was_found_is_in_view_and_tinted_and_the_editor_fits_a_phone_with_undo_in_reach() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        for (width, height) in [(1280u32, 800u32), (390, 844)] {
            driver.set_window_rect(0, 0, width, height).await?;
            driver.goto(format!("{}/remove-furniture", server.url)).await?;
            found_in_view_and_tinted(&driver, width).await?;
            screenshot(&driver, &format!("mask-found-{width}")).await?;
            driver.set_window_rect(0, 0, width, height).await?;
        }
        the_editor_fits_a_phone_with_undo_in_reach(&driver).await?;
        screenshot(&driver, "mask-editor-phone").await?;
        Ok(())
    })
    .await;
}

/// Finds the furniture of the furnished sample and checks that the analysis is in view, tinted, its cost said.
async fn found_in_view_and_tinted(driver: &WebDriver, width: u32) -> WebDriverResult<()> {
    let root = studio(driver).await?;
    choose_sample(&root, "living-furnished.jpg").await?;
    submit(&root, "Find the furniture").await?;
    focus_moves_to(driver, "#vstage-mask-found").await?;
    let (in_view, window) = analysis_in_view(driver).await?;
    assert!(in_view, "at {width}: the photo, what was found and Edit mask are all within the {window} px window");
    let hint = "Removing furniture counts against your Staging photos, as staging does.";
    with_text(&root, ".vstage-hint", hint).first().await?;
    let share = root.find(By::Css(".vstage-analysis-share")).await?.text().await?;
    let share: f64 = share.trim_start_matches("Furniture covers ").split(' ').next().unwrap().parse().unwrap();
    // the tint's mask loads on its own: looked at until it shows, or the deadline
    let images = root.find(By::Css(".vstage-analysis__images")).await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut seen = 0.0;
    while tokio::time::Instant::now() < deadline {
        let png = images.screenshot_as_png().await?;
        let picture = image::load_from_memory(&png).unwrap();
        seen = tinted_pixels(&png) as f64 * 100.0 / f64::from(picture.width() * picture.height());
        if seen > share * 0.6 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(seen > share * 0.6, "at {width}: {seen:.1} % of the picture is seen tinted, of {share} % found");
    Ok(())
}

/// Opens the editor from the analysis shown, on a phone: two rows of tools, the rest behind "More", a canvas the
/// width of the screen, and Undo in view and working with the page scrolled towards the canvas to paint.
async fn the_editor_fits_a_phone_with_undo_in_reach(driver: &WebDriver) -> WebDriverResult<()> {
    let root = studio(driver).await?;
    submit(&root, "Edit mask").await?;
    let canvas = root.query(By::Css(".vstage-mask-canvas")).first().await?;
    let coverage = root.query(By::Css(".vstage-mask-coverage")).first().await?;
    let before = changed_text(&coverage, "").await?;
    let (rows, canvas_width, window) = toolbar_rows(driver).await?;
    assert!(rows <= 2, "the tools take {rows} rows on a phone");
    assert!(canvas_width >= window * 0.9, "the canvas is {canvas_width} px wide in a {window} px window");
    let more = remote_by_role(driver, "button", "More tools").await?;
    assert_eq!(more.len(), 1, "the other tools are behind one button");
    assert!(remote_by_role(driver, "button", "Invert").await?.is_empty(), "Invert is not seen until More is opened");
    call_on(driver, &more[0], "function () { this.click(); }").await?;
    assert_eq!(remote_by_role(driver, "button", "Invert").await?.len(), 1, "Invert is behind More");
    call_on(driver, &more[0], "function () { this.click(); }").await?;
    // the page scrolled as far as it goes towards the canvas's top: the bar is still there, over it
    driver.execute("arguments[0].scrollIntoView({ block: 'start' })", vec![canvas.to_json()?]).await?;
    stroke(driver, &canvas, (-100, 60), (100, 60)).await?;
    let stroked = changed_text(&coverage, &before).await?;
    let undo = remote_by_role(driver, "button", "Undo").await?;
    assert_eq!(undo.len(), 1, "one Undo, named in words");
    assert!(reachable(driver, &undo[0]).await?, "Undo is in view while painting");
    let middle =
        "function () { const r = this.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }";
    let position = call_on(driver, &undo[0], middle).await?;
    let (x, y) = (position[0].as_f64().unwrap() as i64, position[1].as_f64().unwrap() as i64);
    driver.action_chain().move_to(x, y).click().perform().await?;
    assert_eq!(changed_text(&coverage, &stroked).await?, before, "Undo took the stroke back");
    Ok(())
}
