//! The studio's languages in a real browser: each widget takes its element's `lang`, else the host page's, and
//! follows a change; the host's `<html lang>` and cookies stay untouched; the standalone page's chooser.

use std::time::Duration;

use serde_json::json;
use thirtyfour::prelude::*;

use crate::browser::{dist, studio, with_browser};
use crate::embed::{server_for_a_host, set_attribute, shows, start_host, widget};
use crate::support::Server;

/// A French listing page with two widgets: one asks for German, the other follows the page.
fn french_host_page(vstage: &str, first_token: &str, second_token: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Une annonce</title>
<script type="module" src="{vstage}/embed.js"></script>
</head><body>
<h1>14 rue des Aulnes</h1>
<vstage-widget id="first" lang="de" token="{first_token}"></vstage-widget>
<vstage-widget id="second" token="{second_token}"></vstage-widget>
</body></html>"#
    )
}

/// The page's `<html lang>` and its cookies.
async fn host_state(driver: &WebDriver) -> WebDriverResult<(String, String)> {
    driver.execute("return [document.documentElement.lang, document.cookie]", vec![]).await?.convert()
}

#[tokio::test]
async fn each_widget_speaks_its_element_s_language_else_the_page_s() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let ana = secret.mint("agent-ana", Duration::from_secs(3600), Some(&host_origin));
    let ben = secret.mint("agent-ben", Duration::from_secs(3600), Some(&host_origin));
    let _host = start_host(host_listener, french_host_page(&server.url, &ana, &ben)).await;
    with_browser(|driver| async move {
        driver.goto(&host_origin).await?;
        widget(&driver, "first").await?;
        widget(&driver, "second").await?;
        shows(&driver, "first", "Neues Rendering").await?;
        shows(&driver, "second", "Nouveau rendu").await?;
        // the studio marks its own language for screen readers
        let marked: Vec<String> = driver
            .execute(
                "return ['first', 'second'].map(id => \
                 document.getElementById(id).shadowRoot.querySelector('.vstage').getAttribute('lang'))",
                vec![],
            )
            .await?
            .convert()?;
        assert_eq!(marked, ["de", "fr"]);
        // a change of the attribute is followed at once
        set_attribute(&driver, "first", "lang", "es-MX").await?;
        shows(&driver, "first", "Nuevo render").await?;
        assert_eq!(host_state(&driver).await?, ("fr".to_string(), String::new()), "the host's lang and cookies");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_standalone_page_offers_a_language_and_keeps_it_without_a_cookie() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        root.query(By::LinkText("New render")).first().await?;
        let chooser = root.query(By::Css(".vstage-locale select")).first().await?;
        driver
            .execute(
                "arguments[0].value = 'de'; arguments[0].dispatchEvent(new Event('change'));",
                vec![chooser.to_json()?],
            )
            .await?;
        root.query(By::LinkText("Neues Rendering")).first().await?;
        assert_eq!(host_state(&driver).await?, ("en".to_string(), String::new()), "the page's lang and cookies");
        // the next visit starts in German
        driver.refresh().await?;
        studio(&driver).await?.query(By::LinkText("Neues Rendering")).first().await?;
        let kept: Option<String> =
            driver.execute("return localStorage.getItem('vstage-locale')", vec![]).await?.convert()?;
        assert_eq!(kept.as_deref(), Some("de"));
        driver.execute("localStorage.clear()", vec![json!(null)]).await?;
        Ok(())
    })
    .await;
}
