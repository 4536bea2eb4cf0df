//! The studio over a stand-in that answers as the real service does beyond the contract
//! (`support/real_service.rs`): an unlimited plan, a deleted, a failed, an idle and an unknown variation, a
//! multi-view result, a numeric output resolution and a day-to-dusk config, each shown for what it is.

use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;

use crate::browser::{dist, screenshot, studio, with_browser, with_text};
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
