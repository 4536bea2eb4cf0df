//! The classic (v1) studio end to end: each mode of use from the form, followed by polling to its images; a photo
//! sent as a file; a form without a photo refused where the eye is; a variation offered only once the render is done; the 51st render in progress refused with the
//! limit's sentence; a v1 render's `legacy_staging` variation shown on the v2 render page; the list of a listing's
//! page, read again when its `listing-id` changes.

use std::time::Duration;

use serde_json::{Value, json};
use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;

use crate::board::wait_for_text;
use crate::browser::{click_text, dist, focus_moves_to, screenshot, studio, with_browser, with_text};
use crate::studio::submit;
use crate::support::Server;

async fn sample(server: &Server, name: &str) -> String {
    let samples: Value = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    samples.as_array().unwrap().iter().find(|s| s["name"] == name).unwrap()["url"].as_str().unwrap().to_string()
}

/// Chooses a mode of use by its label.
async fn choose_mode(root: &WebElement, label: &str) -> WebDriverResult<()> {
    click_text(root, ".vstage-kind", StringMatch::new(label).partial()).await
}

/// The captions of the render page's images, once there are `count`.
async fn captions(root: &WebElement, count: usize) -> WebDriverResult<Vec<String>> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let outputs = root.find_all(By::Css(".vstage-classic__output p")).await?;
        if outputs.len() >= count {
            let mut texts = Vec::new();
            for output in outputs {
                texts.push(output.text().await?);
            }
            return Ok(texts);
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("{} of {count} images", outputs.len())));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn each_mode_of_use_is_created_and_followed_to_its_images() {
    let server = Server::start(&dist()).await;
    let photo = sample(&server, "living-furnished.jpg").await;
    with_browser(|driver| async move {
        for (mode, expected) in [
            ("Staging only", vec!["Bedroom, Scandinavian"]),
            ("Remove furniture only", vec!["Empty room"]),
            ("Remove furniture, then stage", vec!["Empty room", "Bedroom, Scandinavian"]),
        ] {
            driver.goto(format!("{}/classic/new", server.url)).await?;
            let root = studio(&driver).await?;
            root.query(By::Css("#vstage-classic-address")).first().await?.send_keys(&photo).await?;
            choose_mode(&root, mode).await?;
            if mode != "Remove furniture only" {
                root.query(By::Css("#vstage-classic-room option[value=bed]")).first().await?.click().await?;
                root.query(By::Css("#vstage-classic-style option[value=scandinavian]")).first().await?.click().await?;
            }
            submit(&root, "Create classic render").await?;
            root.query(By::Css(".vstage-classic__status")).first().await?;
            assert!(driver.current_url().await?.path().starts_with("/classic/renders/"));
            wait_for_text(&root, ".vstage-classic__status strong", "Done").await?;
            let mut shown = captions(&root, expected.len()).await?;
            shown.sort();
            let mut expected = expected.clone();
            expected.sort();
            assert_eq!(shown, expected, "{mode}");
        }
        screenshot(&driver, "classic-render").await?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_file_is_sent_and_a_variation_waits_until_the_render_is_done() {
    let server = Server::start(&dist()).await;
    let bytes = reqwest::get(sample(&server, "bedroom-furnished.jpg").await).await.unwrap().bytes().await.unwrap();
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("Bedroom.jpg");
    std::fs::write(&file, &bytes).unwrap();
    with_browser(|driver| async move {
        driver.goto(format!("{}/classic/new", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-classic-file")).first().await?.send_keys(file.display().to_string()).await?;
        with_text(&root, ".vstage-upload", "Bedroom.jpg will be sent with the render.").first().await?;
        submit(&root, "Create classic render").await?;
        // Still working: the variation is offered with the reason it cannot be added yet.
        let why = root.query(By::Css("#vstage-classic-vary-why")).first().await?.text().await?;
        assert!(why.starts_with("A variation can be added once the render is done"), "{why}");
        let button = with_text(&root, "button[type=submit]", "Add a variation").first().await?;
        assert!(!button.is_enabled().await?);
        wait_for_text(&root, ".vstage-classic__status strong", "Done").await?;
        captions(&root, 1).await?;
        // Done: a variation in another style, newest last.
        root.query(By::Css("#vstage-classic-vary-style option[value=coastal]")).first().await?.click().await?;
        submit(&root, "Add a variation").await?;
        let shown = captions(&root, 2).await?;
        assert_eq!(shown.last().map(String::as_str), Some("Living room, Coastal"));
        Ok(())
    })
    .await;
}

/// A v1 render created through the server for `listing` (as the element's `listing-id` sends it), not waited for:
/// its id.
async fn create_for_listing(server: &Server, photo: &str, listing: &str) -> String {
    let reference = json!({ "listing_id": listing }).to_string();
    let body = json!({"image_url": photo, "room_type": "living", "style": "modern", "wait_for_completion": false});
    let created = server.post_with("/v1/render/create", &[("vstage-reference", &reference)], body).await;
    created["render_id"].as_str().unwrap().to_string()
}

/// Waits until the classic list's cards link to `expected` renders, in that order. The links are read in one
/// script, so a list drawn again meanwhile is read whole, never half.
async fn cards_come_to(driver: &WebDriver, expected: &[&str]) -> WebDriverResult<()> {
    let expected: Vec<String> = expected.iter().map(|id| format!("/classic/renders/{id}")).collect();
    let links = "return Array.from(document.querySelector('vstage-widget').shadowRoot
        .querySelectorAll('.vstage-card__link'), (link) => link.getAttribute('href'))";
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let shown: Vec<String> = driver.execute(links, vec![]).await?.convert()?;
        if shown == expected {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("the list shows {shown:?}, not {expected:?}")));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_listings_classic_list_holds_its_renders_and_follows_the_listing() {
    let server = Server::start(&dist()).await;
    let photo = sample(&server, "living-furnished.jpg").await;
    let seven = create_for_listing(&server, &photo, "L-7").await;
    let eight = create_for_listing(&server, &photo, "L-8").await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/classic", server.url)).await?;
        let root = studio(&driver).await?;
        cards_come_to(&driver, &[&eight, &seven]).await?;
        let set_listing = "document.querySelector('vstage-widget').setAttribute('listing-id', arguments[0])";
        driver.execute(set_listing, vec![json!("L-7")]).await?;
        cards_come_to(&driver, &[&seven]).await?;
        with_text(&root, "p.vstage-muted", "Only classic renders made for listing L-7 are shown here.").first().await?;
        driver.execute(set_listing, vec![json!("L-8")]).await?;
        cards_come_to(&driver, &[&eight]).await?;
        driver.execute(set_listing, vec![json!("L-9")]).await?;
        root.query(By::Css(".vstage-empty")).first().await?;
        cards_come_to(&driver, &[]).await?;
        Ok(())
    })
    .await;
}

/// Creates v1 renders through the server, not waited for, until it answers 429 (50 in progress).
async fn fill_to_the_limit(server: &Server, photo: &str) {
    let http = reqwest::Client::new();
    for _ in 0..200 {
        let created = http
            .post(server.api("/v1/render/create"))
            .json(&json!({"image_url": photo, "room_type": "living", "style": "modern", "wait_for_completion": false}))
            .send()
            .await
            .unwrap();
        if created.status() == 429 {
            return;
        }
        assert_eq!(created.status(), 200);
    }
    panic!("the limit of renders in progress was never reached");
}

#[tokio::test]
async fn a_form_sent_without_a_photo_says_so_where_the_eye_is() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/classic/new", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-classic-room")).first().await?;
        submit(&root, "Create classic render").await?;
        let refused = root.query(By::Css(".vstage-error[role=alert]")).first().await?.text().await?;
        assert_eq!(refused, "Choose a photo first.");
        // the message takes the focus, and so comes into view
        focus_moves_to(&driver, ".vstage-error[role=alert]").await?;
        let listed: Value = reqwest::get(server.api("/v1/renders")).await.unwrap().json().await.unwrap();
        assert_eq!(listed["items"], json!([]), "nothing was sent");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_fifty_first_render_in_progress_is_refused_with_the_limits_sentence() {
    let server = Server::start(&dist()).await;
    let photo = sample(&server, "living-empty.jpg").await;
    with_browser(|driver| async move {
        // Renders finish while others start: the form is filled first, the account brought to the limit, and the
        // form sent at once; should a render finish in between, it is tried again.
        let mut refused = None;
        for _ in 0..5 {
            driver.goto(format!("{}/classic/new", server.url)).await?;
            let root = studio(&driver).await?;
            root.query(By::Css("#vstage-classic-address")).first().await?.send_keys(&photo).await?;
            root.query(By::Css("#vstage-classic-room")).first().await?;
            fill_to_the_limit(&server, &photo).await;
            submit(&root, "Create classic render").await?;
            if let Ok(error) = root
                .query(By::Css(".vstage-error"))
                .wait(Duration::from_secs(5), Duration::from_millis(100))
                .first()
                .await
            {
                refused = Some(error.text().await?);
                break;
            }
        }
        let refused = refused.expect("the form was refused at the limit");
        assert!(refused.starts_with("The account has 50 renders in progress"), "{refused}");

        // A v1 render seen through v2 shows its room type and style like any other.
        let listed: Value = reqwest::get(server.api("/v1/renders?limit=1")).await.unwrap().json().await.unwrap();
        let v1_id = listed["items"][0]["render_id"].as_str().unwrap().to_string();
        driver.goto(format!("{}/renders/{v1_id}", server.url)).await?;
        let root = studio(&driver).await?;
        let config = root.query(By::Css(".vstage-variation__config")).first().await?.text().await?;
        assert_eq!(config, "Living room · Modern (v1)");
        Ok(())
    })
    .await;
}
