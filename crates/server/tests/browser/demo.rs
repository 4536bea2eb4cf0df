//! The sandbox's demo listing page (`/demo/listing.html`) in Chromium: a listing site whose two agents' studios each
//! start with a token the page minted from the server, as a host site's backend would, and whose gallery shows a
//! chosen result with its disclosure: in place of the photo it was made from, as the studio's card says (right
//! after it under rules that show the original first), every picture whole so its marks stay in view, and the
//! originals page in a tab of its own, the listing and the studio as they were on coming back.

use thirtyfour::prelude::*;

use crate::browser::{
    all_by_role, by_role, click_text, dist, picture_for_the_docs, shadow_root, status_saying, with_browser, with_text,
};
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

/// The listing's photos shown, in order: each one's picture address and whether it is a chosen result (what a
/// buyer sees: hidden ones are not counted).
async fn gallery(driver: &WebDriver) -> WebDriverResult<Vec<(String, bool)>> {
    let script = "return [...document.querySelectorAll('#photos > li')].filter((item) => !item.hidden)
        .map((item) => [item.querySelector('img').getAttribute('src'), item.classList.contains('chosen')])";
    driver.execute(script, vec![]).await?.convert()
}

/// The listing's pictures that do not show their whole photo (so a mark burned into a corner could be cut off),
/// as sentences: each picture's drawn size is worked out from its photo's and its box's by its `object-fit`.
async fn cropped_pictures(driver: &WebDriver) -> WebDriverResult<Vec<String>> {
    let script = r##"
        const cropped = [];
        for (const image of document.querySelectorAll("#photos > li:not([hidden]) figure > img")) {
            const [w, h] = [image.naturalWidth, image.naturalHeight];
            const box = image.getBoundingClientRect();
            const fit = getComputedStyle(image).objectFit;
            if (!w || !h || !box.width) { cropped.push(`${image.alt}: not drawn`); continue; }
            const scale = fit === "cover" ? Math.max(box.width / w, box.height / h)
                : fit === "none" ? 1
                : fit === "fill" ? null
                : Math.min(box.width / w, box.height / h, fit === "scale-down" ? 1 : Infinity);
            if (scale !== null && (w * scale > box.width + 0.5 || h * scale > box.height + 0.5)) {
                cropped.push(`${image.alt}: a ${w}x${h} photo drawn at ${Math.round(w * scale)}x${Math.round(h * scale)} in a ${Math.round(box.width)}x${Math.round(box.height)} box (${fit})`);
            }
        }
        return cropped;"##;
    driver.execute(script, vec![]).await?.convert()
}

#[tokio::test]
async fn a_chosen_result_takes_its_photos_place_marks_in_view_and_its_disclosure_opens_beside_the_listing() {
    let server = Server::start(&dist()).await;
    let samples: Vec<serde_json::Value> = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let (first, first_name) = (samples[0]["url"].as_str().unwrap().to_string(), samples[0]["name"].clone());
    let first_name = first_name.as_str().unwrap().to_string();
    let page = format!("{}/demo/listing.html", server.url);
    let ana = "document.querySelector('#agent-ana vstage-widget').shadowRoot.querySelector('.vstage')";
    with_browser(|driver| async move {
        // on a phone, by touch
        driver.set_window_rect(0, 0, 390, 844).await?;
        let touch = serde_json::json!({"enabled": true, "maxTouchPoints": 1});
        driver.cdp().send_raw("Emulation.setTouchEmulationEnabled", touch).await?;
        driver.goto(&page).await?;
        let root = shadow_root(&driver.find(By::Css("#agent-ana vstage-widget")).await?).await?;
        let listing = driver.find(By::Css("body")).await?;
        driver.query(By::Css("#photos img")).first().await?;
        let before = gallery(&driver).await?;
        assert_eq!(before.len(), samples.len(), "the listing's own photos");

        // two results of the listing's first photo
        let count = by_role(&driver, &root, ana, "spinbutton", "Variations").await?;
        count.clear().await?;
        count.send_keys("2").await?;
        submit(&root, "Create render").await?;
        wait_for_all_done(&root, 2).await?;
        all_by_role(&driver, &root, ana, "button", "Use in listing").await?[0].click().await?;
        status_saying(&driver, &root, ana, &format!("In the listing ✓, in place of {first_name}")).await?;
        // as the card says: in the original's place, the listing no longer
        let shown = wait_for_gallery(&driver, |shown| shown.iter().any(|(_, chosen)| *chosen)).await?;
        assert_eq!(shown.len(), before.len(), "in place of the photo, not beside it: {shown:?}");
        assert!(shown[0].1 && !shown.iter().any(|(src, _)| *src == first), "the first photo's place: {shown:?}");
        let first_choice = shown[0].0.clone();
        // the other result instead: it takes the first one's place
        let other = by_role(&driver, &root, ana, "button", "Use in listing").await?;
        other.click().await?;
        let shown = wait_for_gallery(&driver, |shown| shown[0].1 && shown[0].0 != first_choice).await?;
        assert_eq!(shown.len(), before.len(), "one result a photo: {shown:?}");
        assert_eq!(shown.iter().filter(|(_, chosen)| *chosen).count(), 1);

        // under CRMLS the original goes first, the result right after it, and the card says so
        let rules = driver.find(By::Css("#agent-ana select.rules")).await?;
        thirtyfour::components::SelectElement::new(&rules).await?.select_by_value("crmls").await?;
        all_by_role(&driver, &root, ana, "button", "Use in listing").await?[0].click().await?;
        let after = format!("In the listing ✓, right after {first_name}, which its rules show first");
        status_saying(&driver, &root, ana, &after).await?;
        let shown = wait_for_gallery(&driver, |shown| shown.len() == samples.len() + 1).await?;
        assert_eq!((shown[0].0.as_str(), shown[0].1, shown[1].1), (first.as_str(), false, true), "{shown:?}");

        // every picture of the listing whole, its marks in view, at a phone's width and a desk's
        for (width, height) in [(390, 844), (1280, 800)] {
            driver.set_window_rect(0, 0, width, height).await?;
            let cropped = cropped_pictures(&driver).await?;
            assert!(cropped.is_empty(), "at {width}x{height}: {cropped:#?}");
        }

        // the originals page opens in a tab of its own, and back in the listing all is as it was
        driver.set_window_rect(0, 0, 390, 844).await?;
        let link = by_role(
            &driver,
            &listing,
            "document.querySelector('#photos li.chosen')",
            "link",
            "Unaltered original photo",
        )
        .await?;
        assert_eq!(link.attr("target").await?.as_deref(), Some("_blank"));
        assert!(link.attr("rel").await?.is_some_and(|rel| rel.contains("noopener")));
        let listing_tab = driver.window().await?;
        link.click().await?;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
        let opened = loop {
            let tabs = driver.windows().await?;
            if let Some(tab) = tabs.into_iter().find(|tab| *tab != listing_tab) {
                break tab;
            }
            assert!(tokio::time::Instant::now() < deadline, "no tab was opened");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        driver.switch_to_window(opened).await?;
        let heading = driver.query(By::Tag("h1")).first().await?.text().await?;
        assert_eq!(heading, "This listing photo was digitally altered", "the originals page");
        let original = driver.find(By::Css("img[alt='The original, unaltered photo, as taken']")).await?;
        assert!(original.is_displayed().await?, "with the original");
        driver.close_window().await?;
        driver.switch_to_window(listing_tab).await?;
        status_saying(&driver, &root, ana, &after).await?;
        assert_eq!(gallery(&driver).await?, shown, "the listing is as it was");
        Ok(())
    })
    .await;
}

/// The listing's photos once `ready` says they are as expected, waited for.
async fn wait_for_gallery(
    driver: &WebDriver,
    ready: impl Fn(&[(String, bool)]) -> bool,
) -> WebDriverResult<Vec<(String, bool)>> {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let shown = gallery(driver).await?;
        if ready(&shown) {
            return Ok(shown);
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("the listing shows {shown:?}")));
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
