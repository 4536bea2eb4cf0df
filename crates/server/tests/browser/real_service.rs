//! The studio over a stand-in that answers as the real service does beyond the contract
//! (`src/testing/real_service.rs`): an unlimited plan, a deleted, a failed, an idle and an unknown variation, a
//! multi-view result, a numeric output resolution and a day-to-dusk config, each shown for what it is; and the
//! service's multi-view beta made from the new render form, on the sandbox.

use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;

use crate::browser::{click_text, dist, screenshot, studio, with_browser, with_text};
use crate::studio::{choose_sample, submit, wait_for_all_done};
use crate::support::Server;
use crate::support::real_service::{RENDER, RealService};

/// The text of the card of variation `id`, once it shows `expected`.
async fn card_showing(root: &WebElement, id: &str, expected: &str) -> WebDriverResult<WebElement> {
    let css = format!("[data-variation-id={id}]");
    with_text(root, &css, StringMatch::new(expected).partial()).first().await
}

#[tokio::test]
async fn the_studio_shows_what_the_real_service_sends() {
    let service = RealService::start().await;
    let server =
        Server::start_with(&dist(), &["--upstream", &service.url], &[("VSTAGE_API_KEY", "sk-real-shapes")]).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/renders/{RENDER}", server.url)).await?;
        let root = studio(&driver).await?;
        with_text(&root, ".vstage-meter", StringMatch::new("no limit").partial()).first().await?;
        with_text(&root, ".vstage-meter", StringMatch::new("4 of 100").partial()).first().await?;

        let multi = card_showing(&root, "var_multi_view", "Living room · Modern").await?;
        assert_eq!(multi.find_all(By::Css(".vstage-variation__views img")).await?.len(), 3, "every view is shown");
        for number in 1..=3 {
            multi.find(By::LinkText(format!("Download view {number}"))).await?;
        }
        card_showing(&root, "var_dusk", "Golden").await?;
        card_showing(&root, "var_failed", "Failed to process image").await?;
        card_showing(&root, "var_idle", "Idle").await?;
        for (id, words) in
            [("var_deleted", "The service deleted this variation"), ("var_unknown", "In state “upscaling”")]
        {
            let card = card_showing(&root, id, words).await?;
            let working = card.find_all(By::Css(".vstage-skeleton")).await?;
            assert!(working.is_empty(), "{id} is settled: no loading picture");
        }
        screenshot(&driver, "real-service-shapes").await?;
        Ok(())
    })
    .await;
}

/// Multi-view staging from the new render form: a sample and another photo of the room, checked to fit, staged
/// together; the result shows, downloads and zips one image per photo.
#[tokio::test]
async fn two_photos_of_a_room_are_staged_together_and_shown_side_by_side() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/renders/new", server.url)).await?;
        let root = studio(&driver).await?;
        choose_sample(&root, "living-empty.jpg").await?;
        click_text(&root, "summary", StringMatch::new("More photos of this room").partial()).await?;
        let views = root.query(By::Css("#vstage-views")).first().await?;
        views.send_keys(format!("{}/sandbox/samples/living-furnished.jpg", server.url)).await?;
        click_text(&root, "button", "Check they fit").await?;
        with_text(&root, "[role=status]", "These photos can be staged together.").first().await?;
        submit(&root, "Create render").await?;
        wait_for_all_done(&root, 1).await?;
        let card = root.query(By::Css(".vstage-variation")).first().await?;
        assert_eq!(card.find_all(By::Css(".vstage-variation__views img")).await?.len(), 2, "one image per photo");
        card.find(By::LinkText("Download view 2")).await?;
        let link = root.find(By::LinkText("Download all (ZIP)")).await?.attr("href").await?.unwrap_or_default();
        let zip = reqwest::get(&link).await.unwrap().bytes().await.unwrap();
        let archive = zip::ZipArchive::new(std::io::Cursor::new(zip.to_vec())).unwrap();
        assert_eq!(archive.len(), 2, "both views in the ZIP");
        screenshot(&driver, "multi-view").await?;
        Ok(())
    })
    .await;
}
