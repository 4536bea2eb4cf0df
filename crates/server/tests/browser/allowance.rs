//! An agent's allowance in the studio, on a listing site's page: the header shows the agent's own photos this month
//! and when they renew (never the account's), the form says what a render costs before it is sent, the host hears
//! `vstage-allowance-low` and `vstage-allowance-spent`, and a render the allowance cannot cover is refused in the
//! form, with nothing sent. On the standalone page (open access) every count is the studio's own allowance too,
//! the account's beside it on the account screen; on a listing site's board the photos that fit are offered on
//! their own, and the advice is the listing site's.

use std::time::Duration;

use serde_json::{Value, json};

use thirtyfour::prelude::*;

use crate::browser::{click_text, dist, screenshot, studio, with_browser, with_text};
use crate::embed::{heard_at_least, recording_host_page, set_attribute, shows, start_host, widget};
use crate::studio::choose_sample;
use crate::support::Server;

const SECRET: &str = "allowance-test-secret-0123456789abcdef";
fn host_page(vstage: &str, token: &str) -> String {
    let events = ["vstage-ready", "vstage-allowance-low", "vstage-allowance-spent", "vstage-render-created"];
    recording_host_page(
        vstage,
        &events,
        &format!(r#"<vstage-widget id="agent" view="account" token="{token}"></vstage-widget>"#),
    )
}

/// The renders `token`'s agent has made, as the server lists them.
async fn renders(server: &Server, token: &str, origin: &str) -> usize {
    let http = reqwest::Client::new();
    let page: Value = http
        .get(server.api("/v2/renders"))
        .bearer_auth(token)
        .header("Origin", origin)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    page["items"].as_array().unwrap().len()
}

#[tokio::test]
async fn an_agent_sees_their_allowance_the_cost_before_the_click_and_the_host_hears_it_run_out() {
    let host_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", host_listener.local_addr().unwrap());
    let server = Server::start_with(
        &dist(),
        &["--access", "token", "--allow-origin", &origin, "--allowance", "staging=5"],
        &[("VSTAGE_WIDGET_SECRET", SECRET)],
    )
    .await;
    let token = vstage_server::token::WidgetSecret::new(SECRET).unwrap().mint(
        "agent-ana",
        Duration::from_secs(3600),
        Some(&origin),
    );
    // Four of her five photos spent before she opens the studio.
    let http = reqwest::Client::new();
    let samples: Value = http.get(server.api("/samples")).send().await.unwrap().json().await.unwrap();
    let photo = samples[0]["url"].as_str().unwrap().to_string();
    for _ in 0..4 {
        let body = json!({"image_url": photo, "variation_count": 1, "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}}});
        let created = http.post(server.api("/v2/renders")).bearer_auth(&token).header("Origin", &origin).json(&body);
        assert_eq!(created.send().await.unwrap().status(), 200);
    }
    let _host = start_host(host_listener, host_page(&server.url, &token)).await;

    with_browser(|driver| async move {
        driver.goto(&origin).await?;
        heard_at_least(&driver, "vstage-ready", 1).await?;
        // The agent's own figures (the sandbox's account has 100), and on the account screen when they renew.
        shows(&driver, "agent", "4 of 5").await?;
        shows(&driver, "agent", "Renews ").await?;
        let low = heard_at_least(&driver, "vstage-allowance-low", 1).await?;
        assert_eq!((&low[0]["kind"], &low[0]["used"], &low[0]["limit"]), (&json!("staging"), &json!(4), &json!(5)));

        set_attribute(&driver, "agent", "view", "new-render").await?;
        let root = widget(&driver, "agent").await?;
        choose_sample(&root, "living-empty.jpg").await?;
        shows(&driver, "agent", "Costs 1 photo of your Staging allowance.").await?;
        click_text(&root, "button", "Create render").await?;
        heard_at_least(&driver, "vstage-render-created", 1).await?;
        let spent = heard_at_least(&driver, "vstage-allowance-spent", 1).await?;
        assert_eq!((&spent[0]["used"], &spent[0]["limit"]), (&json!(5), &json!(5)));
        shows(&driver, "agent", "5 of 5").await?;

        // With nothing left, the form says so before the click, and the click sends nothing.
        let root = widget(&driver, "agent").await?;
        click_text(&root, "a", "New render").await?;
        choose_sample(&root, "living-empty.jpg").await?;
        shows(&driver, "agent", "Only 0 left of your Staging allowance until it renews on ").await?;
        screenshot(&driver, "allowance-spent").await?;
        click_text(&root, "button", "Create render").await?;
        assert_eq!(renders(&server, &token, &origin).await, 5, "the refused render was not sent");
        Ok(())
    })
    .await;
}

/// What the meter named `name` in the part of the page `within` selects says, as a screen reader reads it.
async fn meter_says(root: &WebElement, within: &str, name: &str) -> WebDriverResult<String> {
    let meter = root.query(By::Css(format!("{within} [role=meter][aria-label='{name}']"))).first().await?;
    Ok(meter.attr("aria-valuetext").await?.unwrap_or_default())
}

/// The text of the usage group of the account screen named `name`, once it says `expected`.
async fn group_says(root: &WebElement, name: &str, expected: &str) -> WebDriverResult<String> {
    let css = format!("section.vstage-usage[aria-label=\"{name}\"]");
    let partial = thirtyfour::stringmatch::StringMatch::new(expected.to_string()).partial();
    with_text(root, &css, partial).first().await?.text().await
}

#[tokio::test]
async fn the_standalone_studio_counts_its_own_allowance_everywhere_the_account_beside_it() {
    let server = Server::start_with(&dist(), &["--allowance", "staging=3"], &[]).await;
    let samples: Value = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let body = json!({"image_url": samples[0]["url"], "variation_count": 1,
        "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}}});
    let created = reqwest::Client::new().post(server.api("/v2/renders")).json(&body).send().await.unwrap();
    assert_eq!(created.status(), 200);

    with_browser(|driver| async move {
        for (width, height) in [(1280, 800), (390, 844)] {
            driver.set_window_rect(0, 0, width, height).await?;
            driver.goto(format!("{}/account", server.url)).await?;
            let root = studio(&driver).await?;
            // the header counts the studio's own 3, never the account's 100
            let header = meter_says(&root, ".vstage-header", "Staging").await?;
            assert_eq!(header, "1 of 3 photos used; 2 left this period", "at {width}");
            group_says(&root, "This studio's allowance", "1 of 3").await?;
            let own = meter_says(&root, "section[aria-label=\"This studio's allowance\"]", "Staging").await?;
            assert_eq!(own, "1 of 3 photos used; 2 left this period", "at {width}");
            with_text(&root, ".vstage-usage__renews", thirtyfour::stringmatch::StringMatch::new("Renews ").partial())
                .first()
                .await?;
            // the operator may see the account: beside it, not instead of it
            group_says(&root, "The whole account", "1 of 100").await?;
            let whole = meter_says(&root, "section[aria-label=\"The whole account\"]", "Staging").await?;
            assert_eq!(whole, "1 of 100 photos used; 99 left this period", "at {width}");
            screenshot(&driver, &format!("allowance-standalone-account-{width}")).await?;

            // the cost line predicts what the server will do
            click_text(&root, "a", "New render").await?;
            choose_sample(&root, "living-empty.jpg").await?;
            let cost = root.query(By::Css(".vstage-cost")).first().await?.text().await?;
            assert_eq!(cost, "Costs 1 photo of your Staging allowance. 1 will be left after this.", "at {width}");
        }
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn on_a_listing_sites_board_at_a_phones_width_the_photo_that_fits_is_offered_and_the_site_asked() {
    let host_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", host_listener.local_addr().unwrap());
    let server = Server::start_with(
        &dist(),
        &["--access", "token", "--allow-origin", &origin, "--allowance", "staging=1"],
        &[("VSTAGE_WIDGET_SECRET", SECRET)],
    )
    .await;
    let secret = vstage_server::token::WidgetSecret::new(SECRET).unwrap();
    let token = secret.mint("agent-ana", Duration::from_secs(3600), Some(&origin));
    let samples: Value = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let url = |name: &str| {
        let sample = samples.as_array().unwrap().iter().find(|sample| sample["name"] == name).unwrap();
        sample["url"].as_str().unwrap().to_string()
    };
    let photos = [url("living-empty.jpg"), url("bedroom-furnished.jpg")];
    let tag = format!(r#"<vstage-widget id="agent" view="board" token="{token}"></vstage-widget>"#);
    let _host = start_host(host_listener, recording_host_page(&server.url, &["vstage-ready"], &tag)).await;

    with_browser(|driver| async move {
        driver.set_window_rect(0, 0, 390, 844).await?;
        driver.goto(&origin).await?;
        let root = widget(&driver, "agent").await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(photos.join("\n")).await?;
        click_text(&root, "button", "Add these addresses").await?;
        let partial = |text: &str| thirtyfour::stringmatch::StringMatch::new(text.to_string()).partial();
        let why = with_text(&root, "[role=alert]", partial("Only 1 left of your Staging allowance"))
            .first()
            .await?
            .text()
            .await?;
        assert!(why.ends_with("Ask the listing site for more."), "the agent's advice on a listing site: {why}");
        let offer = root.query(By::Css("[role=group][aria-labelledby=vstage-board-split]")).first().await?;
        let words = offer.text().await?;
        assert!(
            words.contains("Can be created now: living-empty.jpg. Waiting for the allowance: bedroom-furnished.jpg."),
            "{words}"
        );
        screenshot(&driver, "board-allowance-embedded").await?;
        click_text(&offer, "button", "Create the 1 that fits").await?;
        with_text(&root, ".vstage-board__row", partial("living-empty")).first().await?;
        let waiting = with_text(&root, ".vstage-board__photo", partial("Waits for the allowance")).first().await?;
        assert!(waiting.text().await?.contains("bedroom-furnished.jpg"));
        assert_eq!(renders(&server, &token, &origin).await, 1, "only the photo that fit was sent");
        Ok(())
    })
    .await;
}
