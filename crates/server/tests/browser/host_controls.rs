//! What a listing site decides for its agents, on its own page: `hide` takes screens and the usage bars away,
//! `show="classic"` brings the classic (v1) screens (hidden otherwise), a view that is not shown is refused with a
//! sentence for the developer and not found for the agent; and a page whose origin the server does not allow tells the agent its administrator
//! must add it, and the developer, in the console and `vstage-error`, the setting's name.

use std::time::Duration;

use serde_json::json;
use thirtyfour::prelude::*;

use crate::browser::{click_text, with_browser};
use crate::embed::{heard_at_least, recording_host_page, server_for_a_host, set_attribute, shows, start_host, widget};

/// A listing's page with one widget (`attributes` as written).
fn host_page(vstage: &str, attributes: &str) -> String {
    recording_host_page(
        vstage,
        &["vstage-ready", "vstage-error"],
        &format!(r#"<vstage-widget id="agent" {attributes}></vstage-widget>"#),
    )
}

/// The navigation's links on screen, by their words, and whether the usage bars are on screen.
async fn navigation(driver: &WebDriver) -> WebDriverResult<(Vec<String>, bool)> {
    let script = r#"const root = document.getElementById("agent").shadowRoot;
        const seen = (element) => element !== null && element.getClientRects().length > 0;
        return [[...root.querySelectorAll(".vstage-nav a")].filter(seen).map((link) => link.textContent.trim()),
                seen(root.querySelector(".vstage-usage"))];"#;
    driver.execute(script, vec![]).await?.convert()
}

#[tokio::test]
async fn the_host_chooses_the_parts_its_agents_see() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let token = secret.mint("agent-ana", Duration::from_secs(3600), Some(&host_origin));
    let page = host_page(&server.url, &format!(r#"token="{token}" view="classic" hide="account usage board""#));
    let _host = start_host(host_listener, page).await;

    with_browser(|driver| async move {
        driver.goto(&host_origin).await?;
        heard_at_least(&driver, "vstage-ready", 1).await?;
        let refused = heard_at_least(&driver, "vstage-error", 1).await?;
        let sentence = refused[0]["message"].as_str().unwrap_or_default();
        assert_eq!(sentence, "the classic screens are hidden on this page by its hide and show attributes");
        shows(&driver, "agent", "This page does not exist").await?;
        let (links, usage) = navigation(&driver).await?;
        assert_eq!(links, ["Renders", "New render", "Remove furniture"], "board, classic and account hidden");
        assert!(!usage, "no usage bars");

        let root = widget(&driver, "agent").await?;
        click_text(&root, "a", "Go to the studio's home").await?;
        shows(&driver, "agent", "Your renders").await?;
        set_attribute(&driver, "agent", "show", "classic").await?;
        set_attribute(&driver, "agent", "hide", "usage").await?;
        click_text(&root, "a", "Older studio").await?;
        shows(&driver, "agent", "Classic renders").await?;
        let (links, usage) = navigation(&driver).await?;
        assert_eq!(links, ["Renders", "New render", "Listing board", "Remove furniture", "Older studio", "Account"]);
        assert!(!usage, "usage still hidden");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_page_the_server_does_not_allow_is_told_so_and_its_developer_the_setting() {
    // The server allows one listing site; this page is on another origin.
    let (_allowed, _allowed_origin, server, secret) = server_for_a_host().await;
    let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other_origin = format!("http://{}", other.local_addr().unwrap());
    let token = secret.mint("agent-ana", Duration::from_secs(3600), Some(&other_origin));
    let _host = start_host(other, host_page(&server.url, &format!(r#"token="{token}""#))).await;

    with_browser(|driver| async move {
        driver.goto(&other_origin).await?;
        let refused = heard_at_least(&driver, "vstage-error", 1).await?;
        let setting = format!("vstage serve --allow-origin {other_origin}");
        let sentence = refused[0]["message"].as_str().unwrap_or_default();
        assert!(sentence.contains(&setting), "the developer hears the setting: {sentence}");
        shows(&driver, "agent", "This page is not allowed to use the studio; its administrator must add it.").await?;
        let logged: Vec<String> = driver.execute("return window.logged", vec![]).await?.convert()?;
        assert!(logged.iter().any(|line| line.contains(&setting)), "and the console says it: {logged:?}");
        let shown: String = driver
            .execute("return document.getElementById('agent').shadowRoot.textContent", vec![json!(null)])
            .await?
            .convert()?;
        assert!(!shown.contains("Failed to fetch"), "no browser words for the agent: {shown}");
        Ok(())
    })
    .await;
}
