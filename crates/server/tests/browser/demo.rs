//! The sandbox's demo listing page (`/demo/listing.html`) in Chromium: a listing site whose two agents' studios each
//! start with a token the page minted from the server, as a host site's backend would, and whose gallery shows a
//! chosen result with its disclosure.

use thirtyfour::prelude::*;

use crate::browser::{click_text, dist, picture_for_the_docs, shadow_root, with_browser, with_text};
use crate::studio::{submit, wait_for_all_done};
use crate::support::Server;

#[tokio::test]
async fn the_demo_listing_page_starts_each_agents_studio_with_its_own_token() {
    let server = Server::start(&dist()).await;
    let page = format!("{}/demo/listing.html", server.url);
    with_browser(|driver| async move {
        driver.goto(&page).await?;
        for agent in ["ana", "ben"] {
            let widget = driver.query(By::Css(format!("#agent-{agent} vstage-widget"))).first().await?;
            let studio = shadow_root(&widget).await?;
            with_text(&studio, ".vstage-status__label", "Online").first().await?;
            // the studio answers with what the minted token allows: this agent's own (empty) list of renders
            let token: Option<String> =
                driver.execute("return arguments[0].token", vec![widget.to_json()?]).await?.convert()?;
            assert!(token.is_some_and(|token| !token.is_empty()), "{agent}'s widget has no token");
        }
        // The listing's first photo starts Ana's new render.
        let ana = shadow_root(&driver.find(By::Css("#agent-ana vstage-widget")).await?).await?;
        let preview = ana.query(By::Css(".vstage-preview img")).first().await?;
        assert!(preview.attr("src").await?.is_some_and(|src| src.contains("/sandbox/")), "no sample photo");
        let gallery = driver.find_all(By::Css("#photos figure")).await?;
        assert!(!gallery.is_empty(), "the listing shows its photos");
        // the page heard each studio start
        let events = driver.find(By::Id("events")).await?.text().await?;
        for agent in ["ana", "ben"] {
            assert!(events.contains(&format!("{agent}: vstage-ready")), "{events}");
        }
        picture_for_the_docs(&driver, "listing", Some("#agents")).await?;

        // Ana stages the listing's photo and uses it: the page shows it with its statement, QR code and link
        // (her studio follows California's AB 723).
        submit(&ana, "Create render").await?;
        wait_for_all_done(&ana, 1).await?;
        click_text(&ana, "button", "Use in listing").await?;
        let chosen = driver.query(By::Css("#photos li.chosen")).first().await?;
        let caption = chosen.find(By::Css("figcaption")).await?.text().await?;
        // the statement's words, and its link as a link rather than a written address
        assert!(
            caption.starts_with("Virtually staged: this image was digitally altered.") && !caption.contains("http")
        );
        let link = chosen.find(By::LinkText("Unaltered original photo")).await?.attr("href").await?.unwrap_or_default();
        assert!(link.contains("/disclosures/dsc_"), "{link}");
        // the images were just put in: wait until each has loaded (or failed), then ask
        driver.set_script_timeout(std::time::Duration::from_secs(60)).await?;
        let images_loaded: bool = driver
            .execute_async(
                "const done = arguments[1]; \
                 Promise.all([...arguments[0].querySelectorAll('img')].map((i) => i.decode())) \
                 .then(() => done(true), () => done(false));",
                vec![chosen.to_json()?],
            )
            .await?
            .convert()?;
        assert!(images_loaded, "the photo and its QR code load");
        assert_eq!(chosen.find_all(By::Css("img")).await?.len(), 2, "the photo and its QR code");
        picture_for_the_docs(&driver, "listing-disclosure", Some("#gallery")).await?;
        Ok(())
    })
    .await;
}
