//! An agent's allowance in the studio, on a listing site's page: the header shows the agent's own photos this month
//! and when they renew (never the account's), the form says what a render costs before it is sent, the host hears
//! `vstage-allowance-low` and `vstage-allowance-spent`, and a render the allowance cannot cover is refused in the
//! form, with nothing sent.

use std::time::Duration;

use serde_json::{Value, json};

use crate::browser::{click_text, dist, screenshot, with_browser};
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
        shows(&driver, "agent", "Uses 1 photo: Staging.").await?;
        click_text(&root, "button", "Create render").await?;
        heard_at_least(&driver, "vstage-render-created", 1).await?;
        let spent = heard_at_least(&driver, "vstage-allowance-spent", 1).await?;
        assert_eq!((&spent[0]["used"], &spent[0]["limit"]), (&json!(5), &json!(5)));
        shows(&driver, "agent", "5 of 5").await?;

        // With nothing left, the form says so before the click, and the click sends nothing.
        let root = widget(&driver, "agent").await?;
        click_text(&root, "a", "New render").await?;
        choose_sample(&root, "living-empty.jpg").await?;
        shows(&driver, "agent", "Only 0 left (Staging) until it renews on ").await?;
        screenshot(&driver, "allowance-spent").await?;
        click_text(&root, "button", "Create render").await?;
        assert_eq!(renders(&server, &token, &origin).await, 5, "the refused render was not sent");
        Ok(())
    })
    .await;
}
