//! The v2 studio end to end: a render made from a sample photo whose variations finish on screen without a
//! reload, removal plus staging with lineage, staging on a removal base, paging, failures and the form's bounds; the
//! defaults that follow what the studio knows (a furnished room's furniture removed first, the "Virtually staged"
//! mark where the listing's rules ask for one), at a desk and on a phone.

use std::time::Duration;

use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;

use crate::browser::{
    again_if_stale, by_role, click_text, dist, focus_moves_to, picture_for_the_docs, screenshot, status_saying, studio,
    with_browser, with_text,
};
use crate::support::Server;

/// Long enough for the sandbox to process a few variations on a busy machine.
const FINISH: Duration = Duration::from_secs(60);

pub async fn choose_sample(root: &WebElement, name: &str) -> WebDriverResult<()> {
    again_if_stale(|| async {
        root.query(By::Css(".vstage-sample")).first().await?;
        let samples = root.find_all(By::Css(".vstage-sample")).await?;
        for sample in samples {
            let image = sample.find(By::Tag("img")).await?;
            if image.attr("src").await?.unwrap_or_default().ends_with(name) {
                sample.click().await?;
                return Ok(());
            }
        }
        Err(WebDriverError::ParseError(format!("no sample {name}")))
    })
    .await
}

pub async fn submit(root: &WebElement, label: &str) -> WebDriverResult<()> {
    click_text(root, "button", label.to_string()).await
}

pub async fn wait_for_all_done(root: &WebElement, expected: usize) -> WebDriverResult<()> {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let done = root.find_all(By::Css(".vstage-badge--done")).await?.len();
        if done >= expected {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("{done} of {expected} variations finished")));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test]
async fn a_staging_render_from_a_sample_finishes_on_screen_without_a_reload() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        root.query(By::Css(".vstage-empty")).first().await?;
        screenshot(&driver, "renders-empty").await?;
        root.find(By::LinkText("Create your first render")).await?.click().await?;
        choose_sample(&root, "living-empty.jpg").await?;
        root.query(By::Css(".vstage-preview img")).first().await?;
        screenshot(&driver, "new-render").await?;
        submit(&root, "Create render").await?;
        root.query(By::Css(".vstage-variation")).first().await?;
        assert!(driver.current_url().await?.path().starts_with("/renders/rnd_"));
        screenshot(&driver, "render-working").await?;
        wait_for_all_done(&root, 1).await?;
        let card = root.find(By::Css(".vstage-variation")).await?.text().await?;
        assert!(card.contains("Living room · Modern 1"), "a result is named by its room and style: {card}");
        let heading = root.find(By::Css("#vstage-render-title")).await?.text().await?;
        assert_eq!(heading, "Living room · Modern", "the render is named by its results");
        root.query(By::Css(".vstage-compare__handle")).first().await?;
        screenshot(&driver, "render-done").await?;
        picture_for_the_docs(&driver, "studio", None).await?;
        // "Download all" links to the server's ZIP of the render's results.
        let link = root.find(By::LinkText("Download all (ZIP)")).await?.attr("href").await?.unwrap_or_default();
        let zip = reqwest::get(&link).await.unwrap().bytes().await.unwrap();
        let archive = zip::ZipArchive::new(std::io::Cursor::new(zip.to_vec())).unwrap();
        let names: Vec<String> = archive.file_names().map(|name| name.unwrap().into_owned()).collect();
        assert_eq!(names, ["living-empty_living-room-modern_01.jpg"]);
        // and one result is saved by its room, style and number, whichever origin the page has
        let download = root.find(By::LinkText("Download")).await?;
        assert_eq!(download.attr("download").await?.as_deref(), Some("living-room-modern-1.jpg"));
        let address = download.attr("href").await?.unwrap_or_default();
        if address.contains("/api/results/") {
            let saved = reqwest::get(&address).await.unwrap();
            let disposition = saved.headers()["content-disposition"].to_str().unwrap().to_string();
            assert_eq!(disposition, "attachment; filename=\"living-room-modern-1.jpg\"", "{address}");
        }

        root.find(By::LinkText("Renders")).await?.click().await?;
        let cards = root.query(By::Css(".vstage-card:not(.vstage-skeleton)")).all_from_selector_required().await?;
        assert_eq!(cards.len(), 1);
        let text = cards[0].text().await?;
        assert!(text.contains("1 done"), "{text}");
        screenshot(&driver, "renders").await?;
        Ok(())
    })
    .await;
}

async fn select(root: &WebElement, id_suffix: &str, value: &str) -> WebDriverResult<()> {
    let element = root.query(By::Css(format!("select[id$='{id_suffix}']"))).first().await?;
    thirtyfour::components::SelectElement::new(&element).await?.select_by_value(value).await
}

/// Picks style `value` among the swatches of the first configuration.
async fn pick_style(root: &WebElement, value: &str) -> WebDriverResult<()> {
    root.query(By::Css(format!("input[name$='-style'][value='{value}']"))).first().await?.click().await
}

#[tokio::test]
async fn removal_plus_staging_gives_pairs_with_lineage_and_a_removal_can_be_staged_again() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/renders/new", server.url)).await?;
        let root = studio(&driver).await?;
        choose_sample(&root, "living-furnished.jpg").await?;
        select(&root, "-removal", "on").await?;
        pick_style(&root, "scandinavian").await?;
        let total = root.find(By::Css(".vstage-total")).await?.text().await?;
        assert!(total.contains("2 of the 20"), "one staged and one empty room: {total}");
        submit(&root, "Create render").await?;
        wait_for_all_done(&root, 2).await?;
        let staged = "article[aria-label*='Living room · Scandinavian 1']";
        let staged = root.query(By::Css(staged)).first().await?.text().await?;
        assert!(staged.contains("Staged on empty room 1"), "{staged}");
        root.query(By::Css("article[aria-label='Empty room 1']")).first().await?;
        // the comparison can show the empty room the staging was made on
        click_text(&root, "label", StringMatch::new("Compare with the empty room").partial()).await?;
        let before = root.find(By::Css(".vstage-compare__before")).await?.attr("alt").await?.unwrap_or_default();
        assert!(before.contains("empty room"), "{before}");
        let after = root.find(By::Css(".vstage-compare__after")).await?.attr("alt").await?.unwrap_or_default();
        assert_eq!(after, "Living room · Scandinavian 1", "the slider names the card it shows");

        // a card's "Compare" brings the comparison, of that card, to the eye
        let removal = root.query(By::Css("article[aria-label='Empty room 1']")).first().await?;
        click_text(&removal, "button", "Compare").await?;
        focus_moves_to(&driver, "#vstage-compare-title").await?;
        let after = root.find(By::Css(".vstage-compare__after")).await?.attr("alt").await?.unwrap_or_default();
        assert_eq!(after, "Empty room 1");

        // stage the empty room again, in another style: the form opens where the eye is
        click_text(&root, "button", "Stage this empty room").await?;
        focus_moves_to(&driver, "#vstage-add-title").await?;
        let hint = root.query(By::Css(".vstage-configs")).first().await?.text().await?;
        assert!(hint.contains("Staged on the empty room"), "{hint}");
        pick_style(&root, "industrial").await?;
        screenshot(&driver, "render-add-variations").await?;
        submit(&root, "Add").await?;
        wait_for_all_done(&root, 3).await?;
        let again = "article[aria-label*='Living room · Industrial 1']";
        let again = root.query(By::Css(again)).first().await?.text().await?;
        assert!(again.contains("Staged on empty room 1"), "{again}");
        assert_eq!(root.find_all(By::Css("article[aria-label^='Empty room']")).await?.len(), 1);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_list_pages_past_twenty_renders() {
    let server = Server::start(&dist()).await;
    let http = reqwest::Client::new();
    let photo = format!("{}/sandbox/samples/living-empty.jpg", server.url);
    for _ in 0..23 {
        let created = http
            .post(format!("{}/api/v2/renders", server.url))
            .json(&serde_json::json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}}))
            .send()
            .await
            .unwrap();
        assert!(created.status().is_success());
    }
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        root.query(By::Css(".vstage-card .vstage-card__link")).first().await?;
        assert_eq!(root.find_all(By::Css(".vstage-card")).await?.len(), 20);
        assert!(root.find(By::Css(".vstage-page")).await?.text().await?.contains("23 renders"));
        click_text(&root, "button", "Load more").await?;
        with_text(&root, "p", "All 23 shown.").first().await?;
        assert_eq!(root.find_all(By::Css(".vstage-card")).await?.len(), 23);
        // oldest first
        select(&root, "vstage-order", "asc").await?;
        with_text(&root, "button", "Load more").first().await?;
        assert_eq!(root.find_all(By::Css(".vstage-card")).await?.len(), 20);
        Ok(())
    })
    .await;
}

/// The new render form on `server`'s standalone page with its photo `path` (on that server) typed as the web
/// address: the studio's root and the address field.
async fn new_render_from(driver: &WebDriver, server: &Server, path: &str) -> WebDriverResult<(WebElement, WebElement)> {
    driver.goto(format!("{}/renders/new", server.url)).await?;
    let root = studio(driver).await?;
    click_text(&root, "label", StringMatch::new("Web address").partial()).await?;
    let address = root.find(By::Id("vstage-image-url")).await?;
    address.send_keys(format!("{}{path}", server.url)).await?;
    Ok((root, address))
}

/// A render of a photo whose address does not answer fails, and its page says so in words: the original is not
/// shown as a broken image beside the way forward.
#[tokio::test]
async fn a_photo_that_cannot_be_reached_is_said_in_words_not_shown_broken() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        // made elsewhere (the form checks an address first): the photo's address is gone, as an upload's is after
        // its retention
        let photo = format!("{}/sandbox/samples/no-such-photo.jpg", server.url);
        let body = serde_json::json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}});
        let created = reqwest::Client::new().post(format!("{}/api/v2/renders", server.url)).json(&body).send().await;
        let render: serde_json::Value = created.unwrap().json().await.unwrap();
        let id = render["id"].as_str().unwrap_or_else(|| panic!("a render: {render}"));
        driver.goto(format!("{}/renders/{id}", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css(".vstage-badge--error")).wait(FINISH, Duration::from_millis(250)).first().await?;
        let unreachable = root.query(By::Css(".vstage-source__unreachable"));
        let said = unreachable.wait(FINISH, Duration::from_millis(100)).first().await?.text().await?;
        assert!(said.contains("The original photo cannot be shown") && said.contains("no-such-photo.jpg"), "{said}");
        let broken: i64 = driver
            .execute(
                "const root = document.querySelector('vstage-widget')?.shadowRoot ?? document;
                 return [...root.querySelectorAll('img')].filter(i => i.complete && i.naturalWidth === 0).length;",
                vec![],
            )
            .await?
            .convert()?;
        assert_eq!(broken, 0, "no broken image on the page");
        with_text(&root, ".vstage-panel--error", StringMatch::new("This render did not work").partial())
            .first()
            .await?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_failing_photo_shows_why() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        let (root, _) = new_render_from(&driver, &server, "/sandbox/samples/living-empty.jpg?sandbox-fail").await?;
        submit(&root, "Create render").await?;
        let failed =
            root.query(By::Css(".vstage-badge--error")).wait(FINISH, Duration::from_millis(250)).first().await?;
        assert_eq!(failed.text().await?, "Failed");
        let card = root.find(By::Css(".vstage-variation")).await?.text().await?;
        assert!(card.to_lowercase().contains("fail"), "the reason is shown: {card}");
        let panel = with_text(&root, ".vstage-panel--error", StringMatch::new("This render did not work").partial())
            .first()
            .await?
            .text()
            .await?;
        assert!(panel.contains("The staging service could not finish it: "), "why, in the agent's words: {panel}");
        assert!(
            panel.contains("Costs 1 photo of your Staging allowance."),
            "its photo was given back: trying again uses one: {panel}"
        );
        screenshot(&driver, "render-failed").await?;

        // trying again adds the same variation to this render, which fails again here
        let render_page = driver.current_url().await?.path().to_string();
        click_text(&root, "button", "Try again").await?;
        let deadline = tokio::time::Instant::now() + FINISH;
        while root.find_all(By::Css(".vstage-badge--error")).await?.len() < 2 {
            assert!(tokio::time::Instant::now() < deadline, "the second try never showed its failure");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(driver.current_url().await?.path(), render_page, "the same render, no new one");
        click_text(&root, "a", "Choose another photo").await?;
        root.query(By::Id("vstage-new-title")).first().await?;
        assert_eq!(driver.current_url().await?.path(), "/renders/new");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_photo_the_form_cannot_show_is_not_sent() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        let (root, address) = new_render_from(&driver, &server, "/sandbox/samples/no-such-photo.jpg").await?;
        with_text(&root, ".vstage-preview .vstage-error", StringMatch::new("does not show a photo").partial())
            .first()
            .await?;
        submit(&root, "Create render").await?;
        with_text(&root, ".vstage-picker > .vstage-error", StringMatch::new("does not show a photo").partial())
            .first()
            .await?;
        assert_eq!(address.attr("aria-invalid").await?.as_deref(), Some("true"));
        assert_eq!(driver.current_url().await?.path(), "/renders/new");
        let listed: serde_json::Value = reqwest::get(server.api("/v2/renders")).await.unwrap().json().await.unwrap();
        assert_eq!(listed["items"], serde_json::json!([]), "nothing was sent: {listed}");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_form_says_a_count_over_twenty_at_once_and_sends_nothing_wrong() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/renders/new", server.url)).await?;
        let root = studio(&driver).await?;
        choose_sample(&root, "living-empty.jpg").await?;
        let count = root.query(By::Css("input.vstage-count")).first().await?;
        count.clear().await?;
        count.send_keys("500").await?;
        assert_eq!(count.prop("value").await?.as_deref(), Some("500"), "never clamped");
        let note = root.find(By::Css(".vstage-config .vstage-hint[aria-live]")).await?.text().await?;
        assert!(note.contains("at most 20 here"), "{note}");
        submit(&root, "Create render").await?;
        let error = root.query(By::Css(".vstage-config .vstage-error")).first().await?.text().await?;
        assert!(error.contains("between 1 and 20"), "refused in the form: {error}");
        // the field it is about takes the focus
        focus_moves_to(&driver, ".vstage-count").await?;
        assert_eq!(driver.current_url().await?.path(), "/renders/new");
        count.clear().await?;
        count.send_keys("12").await?;
        root.query(By::Css(".vstage-config .vstage-error")).not_exists().await?;
        // a new configuration copies the one before it, with as many variations as still fit
        pick_style(&root, "scandinavian").await?;
        let add = with_text(&root, "button", "Add another set").first().await?;
        add.click().await?;
        let counts = root.find_all(By::Css("input.vstage-count")).await?;
        assert_eq!(counts.len(), 2);
        assert_eq!(counts[1].prop("value").await?.as_deref(), Some("8"), "20 less the first's 12");
        let chosen = root.find_all(By::Css("input[name$='-style']:checked")).await?;
        assert_eq!(chosen.len(), 2);
        assert_eq!(chosen[1].attr("value").await?.as_deref(), Some("scandinavian"));
        counts[1].clear().await?;
        counts[1].send_keys("8").await?;
        screenshot(&driver, "new-render-multi").await?;

        // nothing is sent while a field is wrong; the message sits by the field
        counts[1].send_keys(Key::Backspace + Key::Backspace).await?;
        submit(&root, "Create render").await?;
        let error = root.query(By::Css(".vstage-config .vstage-error")).first().await?.text().await?;
        assert!(error.contains("between 1 and 20"), "{error}");
        assert_eq!(driver.current_url().await?.path(), "/renders/new");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_photo_from_this_device_is_uploaded_and_rendered() {
    let server = Server::start(&dist()).await;
    let folder = tempfile::tempdir().unwrap();
    let photo = folder.path().join("my-living-room.jpg");
    let image = image::RgbImage::from_fn(320, 200, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 150]));
    image.save(&photo).unwrap();
    with_browser(|driver| async move {
        driver.goto(format!("{}/renders/new", server.url)).await?;
        let root = studio(&driver).await?;
        click_text(&root, "label", StringMatch::new("From this device").partial()).await?;
        let input = root.query(By::Css("input[type=file]")).first().await?;
        input.send_keys(photo.display().to_string()).await?;
        let status = with_text(&root, "p", StringMatch::new("my-living-room.jpg is uploaded.").partial())
            .wait(Duration::from_secs(20), Duration::from_millis(100))
            .first()
            .await?;
        assert!(status.is_displayed().await?);
        root.query(By::Css(".vstage-preview img")).first().await?;
        screenshot(&driver, "new-render-upload").await?;
        submit(&root, "Create render").await?;
        wait_for_all_done(&root, 1).await?;
        let source = root.find(By::Css(".vstage-source img")).await?.attr("src").await?.unwrap_or_default();
        assert!(source.contains("/api/uploads/"), "the render's photo is the upload: {source}");
        Ok(())
    })
    .await;
}

/// A staging configuration, for renders made through the API.
fn staging() -> serde_json::Value {
    serde_json::json!({"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}})
}

/// Chromium keeps the pages left behind in its back-forward cache. Each page used to keep its event stream open
/// there, holding one of the six connections Chromium opens to a host, until the seventh page could not load.
/// A page back from the cache opens its stream again from the last event it saw.
#[tokio::test]
async fn pages_left_behind_hold_no_event_stream_and_resume_when_back() {
    let server = Server::start(&dist()).await;
    let samples: serde_json::Value = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let photo = samples[0]["url"].as_str().unwrap();
    let render = server
        .post(
            "/v2/renders",
            serde_json::json!({"image_url": photo, "variation_count": 1, "wait_for_completion": true,
                "config": staging()}),
        )
        .await;
    let render_id = render["id"].as_str().unwrap().to_string();
    let variations = server.api(&format!("/v2/renders/{render_id}/variations"));
    let add_variation = || async {
        let body = serde_json::json!({"variation_count": 1, "config": staging()});
        let answer = reqwest::Client::new().post(&variations).json(&body).send().await.unwrap();
        assert!(answer.status().is_success(), "adding a variation: {}", answer.status());
    };
    let (server, render_id, add_variation) = (&server, &render_id, &add_variation);
    with_browser(|driver| async move {
        // Ten full page loads in a row, each of which must show its screen.
        for load in 0..10 {
            let path = if load % 2 == 0 { "/account" } else { "/" };
            tokio::time::timeout(Duration::from_secs(20), driver.goto(format!("{}{path}", server.url)))
                .await
                .map_err(|_| WebDriverError::ParseError(format!("page load {} ({path}) never finished", load + 1)))??;
            studio(&driver).await?.query(By::Css("h1")).first().await?;
        }
        // The render's page hears a variation added elsewhere, through its event stream (nothing is pending,
        // so nothing polls).
        driver.goto(format!("{}/renders/{render_id}", server.url)).await?;
        let root = studio(&driver).await?;
        wait_for_all_done(&root, 1).await?;
        add_variation().await;
        wait_for_all_done(&root, 2).await?;
        // Away and back: the page comes back from the cache, and hears what happened meanwhile and after.
        driver.goto(format!("{}/account", server.url)).await?;
        add_variation().await;
        driver.back().await?;
        let root = studio(&driver).await?;
        add_variation().await;
        wait_for_all_done(&root, 4).await?;
        Ok(())
    })
    .await;
}

/// The script that finds the standalone studio, where roles and names are looked for.
const STANDALONE: &str = "document.querySelector('vstage-widget').shadowRoot.querySelector('.vstage')";

/// The value of the one field of `role` named `name` in the studio `scope` finds.
async fn field_value(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    role: &str,
    name: &str,
) -> WebDriverResult<String> {
    let field = by_role(driver, root, scope, role, name).await?;
    Ok(field.prop("value").await?.unwrap_or_default())
}

/// Waits until the field of `role` named `name` has `value`.
async fn field_becomes(
    driver: &WebDriver,
    root: &WebElement,
    scope: &str,
    role: &str,
    name: &str,
    value: &str,
) -> WebDriverResult<()> {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let now = again_if_stale(|| field_value(driver, root, scope, role, name)).await?;
        if now == value {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("{name} is {now:?}, not {value:?}")));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_furnished_room_starts_with_its_furniture_removed_first_at_a_desk_and_on_a_phone() {
    let server = Server::start(&dist()).await;
    let api = server.api("");
    with_browser(|driver| async move {
        let furniture = "Existing furniture";
        for (width, height, touch) in [(1280, 800, false), (390, 844, true)] {
            driver.set_window_rect(0, 0, width, height).await?;
            let touch = serde_json::json!({"enabled": touch, "maxTouchPoints": 1});
            driver.cdp().send_raw("Emulation.setTouchEmulationEnabled", touch).await?;
            driver.goto(format!("{}/renders/new", server.url)).await?;
            let root = studio(&driver).await?;
            // the service's analysis says the room is furnished: staging removes the furniture first, and says so
            choose_sample(&root, "living-furnished.jpg").await?;
            let found = "Furniture found in this photo (11 % of it): staging removes it first. Choose “Keep the \
                         furniture” to add to what is there.";
            status_saying(&driver, &root, STANDALONE, found).await?;
            field_becomes(&driver, &root, STANDALONE, "combobox", furniture, "on").await?;
            // an empty room is staged as it is
            choose_sample(&root, "living-empty.jpg").await?;
            status_saying(&driver, &root, STANDALONE, "No furniture found in this photo: the room is staged as it is.")
                .await?;
            field_becomes(&driver, &root, STANDALONE, "combobox", furniture, "off").await?;
            // the agent keeps the furniture of the furnished room: said, and kept when another photo is analysed
            choose_sample(&root, "living-furnished.jpg").await?;
            field_becomes(&driver, &root, STANDALONE, "combobox", furniture, "on").await?;
            let field = by_role(&driver, &root, STANDALONE, "combobox", furniture).await?;
            thirtyfour::components::SelectElement::new(&field).await?.select_by_value("off").await?;
            let kept = "Furniture found in this photo (11 % of it): “Keep the furniture” adds more to what is there.";
            status_saying(&driver, &root, STANDALONE, kept).await?;
            // no listing's rules here: no mark asked for
            let mark =
                by_role(&driver, &root, STANDALONE, "checkbox", "Add the “Virtually staged” mark in the lower right")
                    .await?;
            assert!(!mark.is_selected().await?, "the mark is off without a listing's rules");
            thirtyfour::components::SelectElement::new(&field).await?.select_by_value("on").await?;
        }
        // created as the form said: an empty room and its staging
        let root = studio(&driver).await?;
        submit(&root, "Create render").await?;
        wait_for_all_done(&root, 2).await?;
        let id = driver.current_url().await?.path().trim_start_matches("/renders/").to_string();
        let render: serde_json::Value =
            reqwest::get(format!("{api}/v2/renders/{id}?include_variations=true")).await.unwrap().json().await.unwrap();
        let kinds: Vec<&str> =
            render["variations"]["items"].as_array().unwrap().iter().map(|v| v["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["removal", "staging"], "{render}");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_mark_starts_on_where_the_listings_rules_ask_for_one_on_the_photo() {
    let (host_listener, host_origin, server, secret) = crate::embed::server_for_a_host().await;
    let token = secret.mint("agent-ana", Duration::from_secs(3600), Some(&host_origin));
    let tag = format!(
        r#"<vstage-widget id="agent" token="{token}" view="new-render" disclosure="smart-mls"></vstage-widget>"#
    );
    let page = crate::embed::recording_host_page(&server.url, &["vstage-ready"], &tag);
    let _host = crate::embed::start_host(host_listener, page).await;
    let scope = "document.getElementById('agent').shadowRoot.querySelector('.vstage')";
    let mark = "Add the “Virtually staged” mark in the lower right";
    with_browser(|driver| async move {
        for (width, height) in [(1280, 800), (390, 844)] {
            driver.set_window_rect(0, 0, width, height).await?;
            driver.goto(&host_origin).await?;
            let root = crate::embed::widget(&driver, "agent").await?;
            // Smart MLS asks for a stamp on the photo; MLS Now forbids anything on it; RMLS asks for its watermark
            for (rules, on) in [("smart-mls", true), ("mls-now", false), ("rmls", true), ("ab723", false)] {
                crate::embed::set_attribute(&driver, "agent", "disclosure", rules).await?;
                let deadline = tokio::time::Instant::now() + FINISH;
                while by_role(&driver, &root, scope, "checkbox", mark).await?.is_selected().await? != on {
                    assert!(tokio::time::Instant::now() < deadline, "the mark under {rules} is not {on}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
            // the board's settings follow the same rules
            crate::embed::set_attribute(&driver, "agent", "disclosure", "rmls").await?;
            crate::embed::set_attribute(&driver, "agent", "view", "board").await?;
            let photos = crate::board::sample_addresses(&server, Some(&token), &["living-empty.jpg"]).await;
            let field = root.query(By::Css("#vstage-board-addresses")).first().await?;
            field.send_keys(&photos[0]).await?;
            submit(&root, "Add these addresses").await?;
            assert!(by_role(&driver, &root, scope, "checkbox", mark).await?.is_selected().await?, "on the board too");
            crate::embed::set_attribute(&driver, "agent", "view", "new-render").await?;
        }
        Ok(())
    })
    .await;
}

/// The elements in the page's first studio with `role` and accessible `name` in the accessibility tree (as
/// Chromium names roles: `radiogroup`, `image`, `button`, `figure`), as remote objects for `call_on`.
pub async fn remote_by_role(driver: &WebDriver, role: &str, name: &str) -> WebDriverResult<Vec<String>> {
    let cdp = driver.cdp();
    let host = cdp
        .send_raw("Runtime.evaluate", serde_json::json!({"expression": "document.querySelector('vstage-widget')"}))
        .await?;
    let found = cdp
        .send_raw(
            "Accessibility.queryAXTree",
            serde_json::json!({"objectId": host["result"]["objectId"], "accessibleName": name, "role": role}),
        )
        .await?;
    let mut objects = Vec::new();
    for node in found["nodes"].as_array().into_iter().flatten().filter(|node| node["ignored"] == false) {
        let object =
            cdp.send_raw("DOM.resolveNode", serde_json::json!({"backendNodeId": node["backendDOMNodeId"]})).await?;
        objects.extend(object["object"]["objectId"].as_str().map(str::to_string));
    }
    Ok(objects)
}

/// `function` called with `this` the remote object `object`, its promise awaited and its value returned.
pub async fn call_on(driver: &WebDriver, object: &str, function: &str) -> WebDriverResult<serde_json::Value> {
    let answer = driver
        .cdp()
        .send_raw(
            "Runtime.callFunctionOn",
            serde_json::json!({"objectId": object, "functionDeclaration": function,
                "returnByValue": true, "awaitPromise": true}),
        )
        .await?;
    Ok(answer["result"]["value"].clone())
}

/// The pictures in the radio group named `group`, each brought into view (they load lazily) and waited for: its
/// alt text, its natural width (0: it did not load) and the name of the radio its card holds.
async fn pictures_of(driver: &WebDriver, group: &str) -> WebDriverResult<Vec<(String, u64, String)>> {
    let groups = remote_by_role(driver, "radiogroup", group).await?;
    let Some(group) = groups.first() else {
        return Err(WebDriverError::ParseError(format!("no radio group named {group:?}")));
    };
    let measure = r#"async function () {
        const cards = [...this.querySelectorAll("label")];
        const seen = [];
        for (const card of cards) {
            const picture = card.querySelector("img");
            const radio = card.querySelector("input[type=radio]");
            if (!picture || !radio) { seen.push(["", 0, ""]); continue; }
            picture.scrollIntoView({ block: "center" });
            await picture.decode().catch(() => {});
            const name = radio.getAttribute("aria-labelledby");
            const named = name ? this.getRootNode().getElementById(name)?.textContent ?? "" : "";
            seen.push([picture.alt, picture.naturalWidth, named]);
        }
        return seen;
    }"#;
    let seen = call_on(driver, group, measure).await?;
    serde_json::from_value(seen).map_err(|error| WebDriverError::ParseError(error.to_string()))
}

/// Each style and each sky is a picture of a room staged in it (or the house under it), made by the server from the
/// sandbox's samples: an image with an alt text naming it, that loaded, at a desk and on a phone; the radio keeps
/// the style's name, and a click on the picture chooses it.
#[tokio::test]
async fn styles_and_skies_are_chosen_by_pictures_that_load() {
    let server = Server::start(&dist()).await;
    with_browser(|driver| async move {
        for (width, height) in [(1280u32, 800u32), (390, 844)] {
            driver.set_window_rect(0, 0, width, height).await?;
            driver.goto(format!("{}/renders/new", server.url)).await?;
            let root = studio(&driver).await?;
            root.query(By::Css("input[name$='-style']")).first().await?;
            let styles = pictures_of(&driver, "Style").await?;
            assert_eq!(styles.len(), 8, "at {width}: {styles:?}");
            for (alt, natural_width, name) in &styles {
                assert_eq!(alt, &format!("A room staged in the {name} style"), "at {width}");
                assert_eq!(*natural_width, 160, "at {width}: the picture of {name} loaded");
            }
            assert!(styles.iter().any(|(_, _, name)| name == "Luxury"), "{styles:?}");
            let luxury = remote_by_role(&driver, "image", "A room staged in the Luxury style").await?;
            assert_eq!(luxury.len(), 1, "the picture is an image named by its style");
            call_on(&driver, &luxury[0], "function () { this.click(); }").await?;
            let chosen = root.find(By::Css("input[name$='-style']:checked")).await?.attr("value").await?;
            assert_eq!(chosen.as_deref(), Some("luxury"), "a click on the picture chooses its style");
            assert_eq!(
                remote_by_role(&driver, "radio", "Luxury").await?.len(),
                1,
                "the radio is named by the style alone"
            );

            click_text(&root, "label", StringMatch::new("Day to dusk").partial()).await?;
            root.query(By::Css(".vstage-sky")).first().await?;
            let skies = pictures_of(&driver, "Sky").await?;
            let names: Vec<&str> = skies.iter().map(|(_, _, name)| name.as_str()).collect();
            assert_eq!(names, ["Dusk", "Golden", "Blue sky"], "at {width}");
            for (alt, natural_width, name) in &skies {
                assert_eq!(alt, &format!("{name}, shown on a house"), "at {width}");
                assert_eq!(*natural_width, 160, "at {width}: the picture of {name} loaded");
            }
        }
        screenshot(&driver, "new-render-skies").await?;
        Ok(())
    })
    .await;
}

/// On the board at a desk, a photo's own settings open in the row's width beside the photo, not down a narrow
/// card that makes the page far taller.
#[tokio::test]
async fn a_photos_own_settings_on_the_board_take_the_rows_width() {
    let server = Server::start(&dist()).await;
    let photos = crate::board::sample_addresses(&server, None, &["living-empty.jpg", "bedroom-furnished.jpg"]).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        with_text(&root, "button", "Create 2 renders").first().await?;
        let page_height = "return document.documentElement.scrollHeight";
        let before: f64 = driver.execute(page_height, vec![]).await?.convert()?;
        let customise = remote_by_role(&driver, "button", "Change settings for this photo").await?;
        assert_eq!(customise.len(), 2, "one for each photo");
        call_on(&driver, &customise[0], "function () { this.click(); }").await?;
        let own = root.query(By::Css(".vstage-board__own")).first().await?;
        let after: f64 = driver.execute(page_height, vec![]).await?.convert()?;
        let (settings, photos) = (own.rect().await?, root.find(By::Css(".vstage-board__photos")).await?.rect().await?);
        assert!(
            settings.width > photos.width * 0.55,
            "the settings are {:.0} px wide in a {:.0} px row",
            settings.width,
            photos.width
        );
        assert!(after - before < 900.0, "the page grew by {:.0} px", after - before);
        screenshot(&driver, "board-own-settings").await?;
        Ok(())
    })
    .await;
}
