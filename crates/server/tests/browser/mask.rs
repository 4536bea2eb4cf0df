//! The mask editor end to end: analyse a furnished sample, correct its mask with pointer strokes (one undone with
//! Ctrl+Z), export it, and check that the removal the sandbox ran used exactly that mask.

use std::time::Duration;

use thirtyfour::prelude::*;

use crate::browser::{dist, focus_moves_to, picture_for_the_docs, screenshot, studio, with_browser, with_text};
use crate::studio::{choose_sample, submit, wait_for_all_done};
use crate::support::Server;

async fn luma(url: &str) -> (Vec<u8>, image::GrayImage) {
    let bytes = reqwest::get(url).await.unwrap().bytes().await.unwrap().to_vec();
    let image = image::load_from_memory(&bytes).unwrap().to_luma8();
    (bytes, image)
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
        let (_, analysis) = luma(&analysis_url).await;
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
        let (exported_bytes, exported) = luma(&mask_url).await;
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
        let (kept, _) = luma(&format!("{}/sandbox/files/{variation_id}-mask.png", server.url)).await;
        assert_eq!(kept, exported_bytes, "the removal used the exported mask");
        screenshot(&driver, "mask-removal").await?;
        Ok(())
    })
    .await;
}
