//! The first page: the header reads the service's status and usage through the proxy from the sandbox.

use thirtyfour::prelude::*;

use crate::browser::{dist, screenshot, studio, with_browser, with_text};
use crate::support::Server;

#[tokio::test]
async fn the_page_shows_the_service_status_and_usage() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        with_text(&root, ".vstage-status__label", "Online").first().await?;
        with_text(&root, ".vstage-mode--sandbox", "Sandbox").first().await?;

        let meters = root.query(By::Css(".vstage-meter")).all_from_selector_required().await?;
        assert_eq!(meters.len(), 2);
        let staging = meters[0].text().await?;
        let editing = meters[1].text().await?;
        assert!(staging.contains("Staging") && staging.contains("0 of 100"), "{staging}");
        assert!(editing.contains("Image editing") && editing.contains("0 of 100"), "{editing}");
        let bar = meters[0].find(By::Css("[role=meter]")).await?;
        assert_eq!(bar.attr("aria-valuenow").await?.as_deref(), Some("0"));

        root.find(By::LinkText("Account")).await?.click().await?;
        let account = root.query(By::Css(".vstage-facts")).first().await?.text().await?;
        assert!(account.contains("@sandbox.vstage.invalid"), "{account}");
        screenshot(&driver, "account").await?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_deep_link_loads_the_page_and_an_unknown_route_says_so() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/no/such/screen", server.url)).await?;
        let root = studio(&driver).await?;
        with_text(&root, "h1", "This page does not exist").first().await?;
        screenshot(&driver, "not-found").await?;
        // the header still works on a deep link
        with_text(&root, ".vstage-status__label", "Online").first().await?;
        root.find(By::LinkText("Go to the studio's home")).await?.click().await?;
        with_text(&root, "h1", "Your renders").first().await?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_widget_files_hold_no_key() {
    let server = Server::start(&dist()).await;
    let key = std::fs::read_to_string(server.data_dir().join("sandbox-api-key")).unwrap();
    let mut scanned = 0;
    let mut folders = vec![dist()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            assert!(!bytes.windows(key.len()).any(|w| w == key.as_bytes()), "the key is in {}", path.display());
            scanned += 1;
        }
    }
    assert!(scanned >= 3, "the widget's files were scanned ({scanned})");
    // and the page the browser gets holds none either
    let page = reqwest::get(&server.url).await.unwrap().text().await.unwrap();
    assert!(!page.contains(&key));
}
