//! The listing board end to end: six photos created in one bulk request fill the board live, the failed one says
//! why while the others finish; variations added to selected rows, one refused for having no room left; the
//! board found as it was after leaving it; its ZIP; the same bulk variations from the renders list; several files
//! chosen at once; the waiting photos as a grid whose cards guess and choose each room and style, on a desktop, a
//! phone and a phone-wide host page; an allowance short of the board's photos offering those that fit, the others
//! waiting without a "Try again"; the best result of each photo used in the listing from the board itself, and a
//! render opened from the board leading back to it, at a desk and on a phone.

use std::time::Duration;

use serde_json::{Value, json};
use thirtyfour::prelude::*;

use crate::browser::{
    by_role, click_role, click_text, dist, focus_moves_to, no_role, picture_for_the_docs, screenshot, status_saying,
    statuses_saying, studio, with_browser, with_text,
};
use crate::embed::{heard_at_least, recording_host_page, server_for_a_host, start_host, widget};
use crate::studio::submit;
use crate::support::Server;

/// Long enough for the sandbox to process a listing on a busy machine.
const FINISH: Duration = Duration::from_secs(90);

/// Waits until the board's overall line says `expected`.
async fn wait_for_overall(root: &WebElement, expected: &str) -> WebDriverResult<()> {
    wait_for_text(root, ".vstage-board__overall-words", expected).await
}

/// Waits until the element at `selector` says `expected`.
pub async fn wait_for_text(root: &WebElement, selector: &str, expected: &str) -> WebDriverResult<()> {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let now = match root.find(By::Css(selector)).await {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if now == expected {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("{selector} says \"{now}\", not \"{expected}\"")));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn rows(root: &WebElement) -> WebDriverResult<Vec<WebElement>> {
    root.find_all(By::Css(".vstage-board__row")).await
}

#[tokio::test]
async fn a_listing_fills_the_board_live_and_a_failed_photo_says_why() {
    let server = Server::start(&dist()).await;
    let http = reqwest::Client::new();
    let samples: Value = http.get(server.api("/samples")).send().await.unwrap().json().await.unwrap();
    let sample = |name: &str| {
        samples.as_array().unwrap().iter().find(|s| s["name"] == name).unwrap()["url"].as_str().unwrap().to_string()
    };
    // A render with no room left, already on the board.
    let full: Value = http
        .post(server.api("/v2/renders"))
        .json(
            &json!({"image_url": sample("living-empty.jpg"), "variation_count": 20, "config": {"type": "enhancement"}}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let full_id = full["id"].as_str().unwrap();
    let added = http
        .post(server.api("/board/renders"))
        .json(&json!({"renders": [{"render_id": full_id, "label": "Full.jpg"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(added.status(), 200);
    let photos = [
        sample("living-empty.jpg"),
        format!("{}?copy=2", sample("living-empty.jpg")),
        sample("living-furnished.jpg"),
        sample("bedroom-furnished.jpg"),
        sample("exterior-day.jpg"),
        format!("{}?sandbox-fail", sample("living-empty.jpg")),
    ];

    with_browser(|driver| async move {
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css(".vstage-board__row")).first().await?;
        // A reload would lose this.
        driver.execute("window.vstageNoReload = true", vec![]).await?;

        let addresses = root.find(By::Css("#vstage-board-addresses")).await?;
        addresses.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        root.query(By::Css(".vstage-board__photo")).all_from_selector_required().await?;
        assert_eq!(root.find_all(By::Css(".vstage-board__photo")).await?.len(), 6);
        // each waiting photo is shown, not only named
        let thumbs = root.find_all(By::Css(".vstage-board__photo .vstage-board__thumb")).await?;
        let mut shown = Vec::new();
        for thumb in &thumbs {
            shown.push(thumb.attr("src").await?.unwrap_or_default());
        }
        assert_eq!(shown, photos, "every waiting photo, in order");
        let first_drawn = "return document.querySelector('vstage-widget').shadowRoot.querySelector('.vstage-board__thumb').naturalWidth";
        let deadline = tokio::time::Instant::now() + FINISH;
        while driver.execute(first_drawn, vec![]).await?.convert::<u64>()? == 0 {
            assert!(tokio::time::Instant::now() < deadline, "the first waiting photo was never drawn");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        submit(&root, "Create 6 renders").await?;
        let deadline = tokio::time::Instant::now() + FINISH;
        while rows(&root).await?.len() < 7 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(rows(&root).await?.len(), 7, "the six renders join the board");
        assert!(root.find_all(By::Css(".vstage-board__photo")).await?.is_empty(), "no photo is left waiting");
        screenshot(&driver, "board-working").await?;

        // the two furnished rooms have theirs removed first: an empty room each besides
        wait_for_overall(&root, "27 of 28 variations done, 1 failed").await?;
        let reloaded: bool = driver.execute("return window.vstageNoReload === true", vec![]).await?.convert()?;
        assert!(reloaded, "the board filled in without a reload");
        let failed = root.find(By::Css(".vstage-board__row:nth-child(7)")).await?;
        let text = failed.text().await?;
        assert!(text.contains("failed this photo on purpose"), "the failed row says why: {text}");
        failed.find(By::Css(".vstage-board__failure button")).await?;
        screenshot(&driver, "board-done").await?;
        picture_for_the_docs(&driver, "board", Some(".vstage-board__renders")).await?;

        // Three selected; the full one is named and left out, the two others get one more variation each.
        for row in rows(&root).await?.iter().take(3) {
            row.find(By::Css("input[type=checkbox]")).await?.click().await?;
        }
        submit(&root, "Add variations to selected (3)").await?;
        let left_out = root.query(By::Css(".vstage-bulk__left-out li")).first().await?.text().await?;
        assert_eq!(left_out, "Full.jpg has no room left: it has 20 variations.");
        submit(&root, "Add to 2 renders").await?;
        with_text(&root, ".vstage-dialog p[role=status]", "2 variation(s) added to 2 render(s).").first().await?;
        submit(&root, "Close").await?;
        wait_for_overall(&root, "29 of 30 variations done, 1 failed").await?;

        // Away and back: the board is as it was.
        root.find(By::LinkText("Renders")).await?.click().await?;
        root.query(By::Css(".vstage-card")).first().await?;
        root.find(By::LinkText("Listing board")).await?.click().await?;
        wait_for_overall(&root, "29 of 30 variations done, 1 failed").await?;
        assert_eq!(rows(&root).await?.len(), 7);

        let link = root.find(By::LinkText("Download all (ZIP)")).await?.attr("href").await?.unwrap_or_default();
        let zip = reqwest::get(&link).await.unwrap().bytes().await.unwrap();
        let archive = zip::ZipArchive::new(std::io::Cursor::new(zip.to_vec())).unwrap();
        let names: Vec<String> = archive.file_names().map(|name| name.unwrap().into_owned()).collect();
        // 29 pictures, and the record of results chosen for the listing (none yet: only its header)
        assert_eq!(names.len(), 30);
        assert!(names.iter().any(|name| name == "disclosures.csv"), "{names:?}");
        for expected in [
            "full_enhanced_20.jpg",
            "living-empty_living-room-modern_02.jpg",
            "living-empty-2_living-room-modern_02.jpg",
        ] {
            assert!(names.iter().any(|name| name == expected), "{expected} in {names:?}");
        }

        // The renders list selects too: every render chosen, the full one named and left out.
        root.find(By::LinkText("Renders")).await?.click().await?;
        let cards = root.query(By::Css(".vstage-card:not(.vstage-skeleton)")).all_from_selector_required().await?;
        assert_eq!(cards.len(), 7);
        for card in &cards {
            card.find(By::Css("input[type=checkbox]")).await?.click().await?;
        }
        submit(&root, "Add variations to selected (7)").await?;
        let left_out = root.query(By::Css(".vstage-bulk__left-out li")).all_from_selector_required().await?;
        assert_eq!(left_out.len(), 1);
        let named = left_out[0].text().await?;
        assert!(named.starts_with("living-empty.jpg (") && named.ends_with("has no room left: it has 20 variations."));
        submit(&root, "Add to 6 renders").await?;
        with_text(&root, ".vstage-dialog p[role=status]", "6 variation(s) added to 6 render(s).").first().await?;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn several_files_chosen_at_once_upload_side_by_side_and_become_renders() {
    let server = Server::start(&dist()).await;
    let samples: Value = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let folder = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (index, name) in ["Kitchen.jpg", "Master bedroom.jpg"].iter().enumerate() {
        let url = samples[index]["url"].as_str().unwrap();
        let bytes = reqwest::get(url).await.unwrap().bytes().await.unwrap();
        let path = folder.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        files.push(path.display().to_string());
    }
    with_browser(|driver| async move {
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        // One choice of two files (chromedriver takes them a line each).
        root.query(By::Css("#vstage-board-files")).first().await?.send_keys(files.join("\n")).await?;
        with_text(&root, "button", "Create 2 renders").first().await?;
        let labels = root.find_all(By::Css(".vstage-board__photo .vstage-board__label")).await?;
        let mut names = Vec::new();
        for label in labels {
            names.push(label.text().await?);
        }
        assert_eq!(names, ["Kitchen.jpg", "Master bedroom.jpg"]);
        submit(&root, "Create 2 renders").await?;
        let deadline = tokio::time::Instant::now() + FINISH;
        while rows(&root).await?.len() < 2 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let first = rows(&root).await?[0].text().await?;
        assert!(first.contains("Kitchen.jpg"), "the row keeps the file's name: {first}");
        Ok(())
    })
    .await;
}

/// The sandbox's sample photos' addresses, by name.
pub async fn sample_addresses(server: &Server, token: Option<&str>, names: &[&str]) -> Vec<String> {
    let mut asked = reqwest::Client::new().get(server.api("/samples"));
    if let Some(token) = token {
        asked = asked.bearer_auth(token);
    }
    let samples: Value = asked.send().await.unwrap().json().await.unwrap();
    let url = |name: &&str| samples.as_array().unwrap().iter().find(|s| s["name"] == *name).unwrap()["url"].clone();
    names.iter().map(|name| url(name).as_str().unwrap().to_string()).collect()
}

/// The waiting photos' tops on screen, in order.
async fn card_tops(driver: &WebDriver) -> WebDriverResult<Vec<f64>> {
    let script =
        "return [...document.querySelector('vstage-widget').shadowRoot.querySelectorAll('.vstage-board__photo')]
        .map((card) => Math.round(card.getBoundingClientRect().top))";
    driver.execute(script, vec![]).await?.convert()
}

/// How many pixels the page scrolls sideways.
async fn sideways(driver: &WebDriver) -> WebDriverResult<i64> {
    let script = "return document.scrollingElement.scrollWidth - document.documentElement.clientWidth";
    driver.execute(script, vec![]).await?.convert()
}

#[tokio::test]
async fn waiting_photos_are_a_grid_whose_cards_guess_and_choose_each_room() {
    let server = Server::start(&dist()).await;
    let names = ["living-empty.jpg", "bedroom-furnished.jpg", "exterior-day.jpg", "living-furnished.jpg"];
    let photos = sample_addresses(&server, None, &names).await;
    let api = server.api("");
    with_browser(|driver| async move {
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        // nothing pasted, then something that is not an address: said by the field, which takes the focus; the
        // sentence goes as soon as the text changes
        submit(&root, "Add these addresses").await?;
        with_text(&root, ".vstage-error", "Paste one or more photo addresses first, one a line.").first().await?;
        focus_moves_to(&driver, "#vstage-board-addresses").await?;
        let field = root.find(By::Css("#vstage-board-addresses")).await?;
        field.send_keys("kitchen.jpg").await?;
        root.query(By::Css(".vstage-board__add .vstage-error")).not_exists().await?;
        submit(&root, "Add these addresses").await?;
        with_text(&root, ".vstage-error", thirtyfour::stringmatch::StringMatch::new("is not a web address").partial())
            .first()
            .await?;
        field.clear().await?;
        field.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        with_text(&root, "button", "Create 4 renders").first().await?;

        // each card guesses its room from the photo's name and says so
        let rooms = root.find_all(By::Css("select[id^='vstage-board-room-']")).await?;
        let mut guessed = Vec::new();
        for room in &rooms {
            guessed.push(room.prop("value").await?.unwrap_or_default());
        }
        assert_eq!(guessed, ["living", "bed", "outdoor", "living"]);
        // and its furniture from the service's analysis: the furnished rooms' removed first, said on the card
        let furniture = "return [...document.querySelector('vstage-widget').shadowRoot
            .querySelectorAll(\"select[id^='vstage-board-removal-']\")].map((select) => select.value)";
        let deadline = tokio::time::Instant::now() + FINISH;
        loop {
            let removal: Vec<String> = driver.execute(furniture, vec![]).await?.convert()?;
            if removal == ["off", "on", "off", "on"] {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "the cards' furniture: {removal:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let said = root.find_all(By::Css(".vstage-board__furniture")).await?;
        assert_eq!(said.len(), 3, "said on each interior's card");
        assert!(said[1].text().await?.starts_with("Furniture found in this photo ("));
        let hints = root.find_all(By::Css(".vstage-board__room .vstage-hint")).await?;
        assert_eq!(hints.len(), 4, "every guess is said");
        // a grid on a desktop: the first cards side by side; one column on a phone, within its width
        let tops = card_tops(&driver).await?;
        assert_eq!(tops[0], tops[1], "cards share a row on a desktop: {tops:?}");
        driver.set_window_rect(0, 0, 390, 844).await?;
        let tops = card_tops(&driver).await?;
        assert!(tops.windows(2).all(|pair| pair[0] < pair[1]), "one card a row on a phone: {tops:?}");
        assert_eq!(sideways(&driver).await?, 0, "nothing is wider than a phone");
        screenshot(&driver, "board-waiting").await?;
        driver.set_window_rect(0, 0, 1280, 800).await?;

        // the agent picks a style for the bedroom and a room for the last photo, on the cards themselves
        let pick = |id: String, value: &'static str| {
            let root = root.clone();
            async move {
                let select = root.find(By::Css(format!("select[id^='vstage-board-{id}']"))).await?;
                thirtyfour::components::SelectElement::new(&select).await?.select_by_value(value).await
            }
        };
        let keys: Vec<String> = {
            let mut keys = Vec::new();
            for room in &rooms {
                keys.push(room.id().await?.unwrap_or_default().trim_start_matches("vstage-board-room-").to_string());
            }
            keys
        };
        pick(format!("style-{}", keys[1]), "coastal").await?;
        pick(format!("room-{}", keys[3]), "dining").await?;
        assert_eq!(
            root.find_all(By::Css(".vstage-board__room .vstage-hint")).await?.len(),
            3,
            "a chosen room is no guess"
        );
        picture_for_the_docs(&driver, "board-photos", Some(".vstage-board__photos")).await?;
        submit(&root, "Create 4 renders").await?;
        let deadline = tokio::time::Instant::now() + FINISH;
        while rows(&root).await?.len() < 4 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(rows(&root).await?.len(), 4);

        // each render was asked for with its card's room and style
        let http = reqwest::Client::new();
        let board: Value = http.get(format!("{api}/board")).send().await.unwrap().json().await.unwrap();
        let mut asked = Vec::new();
        for entry in board["renders"].as_array().unwrap() {
            let id = entry["render_id"].as_str().unwrap();
            let render: Value = http
                .get(format!("{api}/v2/renders/{id}?include_variations=true"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let items = render["variations"]["items"].as_array().unwrap();
            let staged = &items.iter().find(|item| item["type"] == "staging").unwrap()["config"];
            asked.push((
                entry["label"].as_str().unwrap().to_string(),
                staged["add_furniture"]["room_type"].clone(),
                staged["add_furniture"]["style"].clone(),
                staged["remove_furniture"]["mode"].clone(),
            ));
        }
        // the furnished rooms' furniture removed first, as their cards said; the empty room and the outside as
        // they are
        let expected: Vec<(String, Value, Value, Value)> = [
            ("living-empty.jpg", "living", "modern", Value::Null),
            ("bedroom-furnished.jpg", "bed", "coastal", json!("on")),
            ("exterior-day.jpg", "outdoor", "modern", Value::Null),
            ("living-furnished.jpg", "dining", "modern", json!("on")),
        ]
        .into_iter()
        .map(|(label, room, style, removal)| (label.to_string(), json!(room), json!(style), removal))
        .collect();
        assert_eq!(asked, expected);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_board_fits_a_phone_wide_host_page_and_takes_a_photo_with_the_camera() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let token = secret.mint("agent-ana", Duration::from_secs(3600), Some(&host_origin));
    let photos = sample_addresses(&server, Some(&token), &["living-empty.jpg", "bedroom-furnished.jpg"]).await;
    let widget_tag = format!(r#"<vstage-widget id="agent" token="{token}" view="board"></vstage-widget>"#);
    let _host = start_host(host_listener, recording_host_page(&server.url, &["vstage-ready"], &widget_tag)).await;
    // a photo the phone's camera takes: a file as far as the page can tell
    let folder = tempfile::tempdir().unwrap();
    let taken = folder.path().join("Kitchen.jpg");
    std::fs::write(&taken, reqwest::get(&photos[0]).await.unwrap().bytes().await.unwrap()).unwrap();
    with_browser(|driver| async move {
        driver.set_window_rect(0, 0, 390, 844).await?;
        driver.goto(&host_origin).await?;
        let root = widget(&driver, "agent").await?;
        let camera = root.query(By::Css("label.vstage-drop__camera")).first().await?;
        assert!(!camera.is_displayed().await?, "no camera button for a mouse");
        // a touch screen is offered the camera
        driver
            .cdp()
            .send_raw("Emulation.setTouchEmulationEnabled", json!({"enabled": true, "maxTouchPoints": 1}))
            .await?;
        assert!(camera.is_displayed().await?, "the camera is offered on a touch screen");
        assert_eq!(
            root.find(By::Css("#vstage-board-files-camera")).await?.attr("capture").await?.as_deref(),
            Some("environment")
        );
        root.find(By::Css("#vstage-board-files-camera")).await?.send_keys(taken.display().to_string()).await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        with_text(&root, "button", "Create 3 renders").first().await?;
        let kitchen = root.find(By::Css(".vstage-board__photo select[id^='vstage-board-room-']")).await?;
        assert_eq!(kitchen.prop("value").await?.as_deref(), Some("kitchen"), "the photo taken is the first, a kitchen");
        assert_eq!(sideways(&driver).await?, 0, "the board does not push the host page sideways");
        submit(&root, "Create 3 renders").await?;
        with_text(&root, ".vstage-board__row", thirtyfour::stringmatch::StringMatch::new("bedroom").partial())
            .first()
            .await?;
        assert_eq!(sideways(&driver).await?, 0, "nor do its rows");
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn ten_photos_at_once_are_asked_about_before_anything_is_spent() {
    let server = Server::start(&dist()).await;
    let living = sample_addresses(&server, None, &["living-empty.jpg"]).await.remove(0);
    let photos: Vec<String> = (0..10).map(|n| format!("{living}?photo={n}")).collect();
    let api = server.api("");
    with_browser(|driver| async move {
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        let cost = root.query(By::Css(".vstage-cost")).first().await?.text().await?;
        assert_eq!(cost, "Costs 10 photos of your Staging allowance. 90 will be left after this.");
        submit(&root, "Create 10 renders").await?;
        // the question takes the eye; "Not now" spends nothing
        focus_moves_to(&driver, "#vstage-board-ask").await?;
        let question = root.find(By::Css("#vstage-board-ask")).await?.text().await?;
        assert_eq!(question, "Costs 10 photos of your Staging allowance. 90 will be left after this. Create them?");
        submit(&root, "Not now").await?;
        root.query(By::Css(".vstage-ask")).not_exists().await?;
        let used = |user: Value| user["photosUsedThisPeriod"]["staging"].as_u64();
        let user: Value = reqwest::get(format!("{api}/v2/user")).await.unwrap().json().await.unwrap();
        assert_eq!(used(user), Some(0), "nothing was spent");
        let board: Value = reqwest::get(format!("{api}/board")).await.unwrap().json().await.unwrap();
        assert!(board["renders"].as_array().is_none_or(Vec::is_empty), "nothing was created: {board}");
        // asked again, and answered: the ten are created
        submit(&root, "Create 10 renders").await?;
        click_text(&root.find(By::Css(".vstage-ask")).await?, "button", "Create 10 renders").await?;
        let deadline = tokio::time::Instant::now() + FINISH;
        while rows(&root).await?.len() < 10 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(rows(&root).await?.len(), 10);
        let user: Value = reqwest::get(format!("{api}/v2/user")).await.unwrap().json().await.unwrap();
        assert_eq!(used(user), Some(10), "the ten were charged once created");
        Ok(())
    })
    .await;
}

/// The renders the server's board holds.
async fn on_the_board(api: &str) -> usize {
    let board: Value = reqwest::get(format!("{api}/board")).await.unwrap().json().await.unwrap();
    board["renders"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn an_allowance_short_of_the_board_creates_the_photos_that_fit_and_the_others_wait() {
    let server = Server::start_with(&dist(), &["--allowance", "staging=3"], &[]).await;
    let names = ["living-empty.jpg", "bedroom-furnished.jpg", "living-furnished.jpg", "exterior-day.jpg"];
    let photos = sample_addresses(&server, None, &names).await;
    let api = server.api("");
    with_browser(|driver| async move {
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        // said before anything is charged: why, and where more comes from on the operator's own page
        let partial = |text: &str| thirtyfour::stringmatch::StringMatch::new(text.to_string()).partial();
        let why =
            with_text(&root, "[role=alert]", partial("Only 3 left of your Staging allowance until it renews on "))
                .first()
                .await?;
        let why = why.text().await?;
        assert!(why.starts_with("Costs 4 photos of your Staging allowance."), "{why}");
        assert!(
            why.contains("Whoever runs this studio's server can raise it") && !why.contains("listing site"),
            "{why}"
        );
        // which photos fit and which wait, by name, and what creating those uses
        let offer = root.query(By::Css("[role=group][aria-labelledby=vstage-board-split]")).first().await?;
        let offer_words = offer.find(By::Css("#vstage-board-split")).await?.text().await?;
        assert_eq!(
            offer_words,
            "Can be created now: living-empty.jpg, bedroom-furnished.jpg, living-furnished.jpg. Waiting for the \
             allowance: exterior-day.jpg. Costs 3 photos of your Staging allowance. 0 will be left after this."
        );
        let all = with_text(&root, "button", "Create 4 renders").first().await?;
        assert!(!all.is_enabled().await?, "the whole board cannot be created");
        let waits = root.query(By::Css(".vstage-board__photo:nth-child(4) .vstage-board__waits")).first().await?;
        assert!(waits.text().await?.starts_with("Waits for the allowance, which renews on "));
        assert_eq!(root.find_all(By::Css(".vstage-board__waits")).await?.len(), 1, "only exterior-day.jpg waits");
        driver.set_window_rect(0, 0, 390, 844).await?;
        assert_eq!(sideways(&driver).await?, 0, "the offer fits a phone");
        screenshot(&driver, "board-allowance-short").await?;
        driver.set_window_rect(0, 0, 1280, 800).await?;
        assert_eq!(on_the_board(&api).await, 0, "nothing was charged");

        click_text(&offer, "button", "Create the 3 that fit").await?;
        let deadline = tokio::time::Instant::now() + FINISH;
        while rows(&root).await?.len() < 3 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(rows(&root).await?.len(), 3, "the three that fit join the board");
        // exterior-day.jpg waits, marked, with nothing to click that could only be refused
        let left = with_text(&root, ".vstage-board__photo", partial("Waits for the allowance")).first().await?;
        assert!(left.text().await?.contains("exterior-day.jpg"));
        assert!(left.find_all(By::Css(".vstage-board__failure button")).await?.is_empty(), "no Try again");
        with_text(&root, "[role=alert]", partial("Only 0 left of your Staging allowance")).first().await?;
        root.query(By::Css("#vstage-board-split")).not_exists().await?;
        assert!(!with_text(&root, "button", "Create 1 render").first().await?.is_enabled().await?);
        with_text(&root, ".vstage-header .vstage-meter__value", "3 of 3").first().await?;
        let header = root.query(By::Css(".vstage-header [role=meter][aria-label=Staging]")).first().await?;
        assert_eq!(
            header.attr("aria-valuetext").await?.as_deref(),
            Some("3 of 3 photos used; the limit is reached for this period")
        );
        assert_eq!(on_the_board(&api).await, 3);
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn photos_the_server_refused_for_a_spent_allowance_wait_for_it_without_a_try_again() {
    let server = Server::start_with(&dist(), &["--allowance", "staging=2"], &[]).await;
    let photos = sample_addresses(&server, None, &["living-empty.jpg", "bedroom-furnished.jpg"]).await;
    with_browser(|driver| async move {
        driver.goto(format!("{}/board", server.url)).await?;
        let root = studio(&driver).await?;
        root.query(By::Css("#vstage-board-addresses")).first().await?.send_keys(photos.join("\n")).await?;
        submit(&root, "Add these addresses").await?;
        with_text(&root, ".vstage-cost", "Costs 2 photos of your Staging allowance. 0 will be left after this.")
            .first()
            .await?;
        // the allowance is spent elsewhere (another tab) while the board still shows it
        let body = json!({"image_url": photos[0], "variation_count": 1,
            "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}}});
        for _ in 0..2 {
            let created = reqwest::Client::new().post(server.api("/v2/renders")).json(&body).send().await.unwrap();
            assert_eq!(created.status(), 200);
        }
        submit(&root, "Create 2 renders").await?;
        click_text(&root.query(By::Css(".vstage-ask")).first().await?, "button", "Create 2 renders").await?;
        // refused by the server: each photo says why, then waits for the allowance, with no "Try again"
        let partial = |text: &str| thirtyfour::stringmatch::StringMatch::new(text.to_string()).partial();
        let refused =
            with_text(&root, ".vstage-board__failure", partial("allowance cannot cover this")).first().await?;
        assert!(refused.text().await?.contains("`vstage allowance set` raises it"), "the operator's advice");
        with_text(&root, "[role=alert]", partial("Only 0 left of your Staging allowance")).first().await?;
        let waiting = root.query(By::Css(".vstage-board__waits")).all_from_selector_required().await?;
        assert_eq!(waiting.len(), 2, "both photos wait");
        assert!(root.find_all(By::Css(".vstage-board__failure button")).await?.is_empty(), "no Try again");
        assert!(rows(&root).await?.is_empty(), "nothing was created");
        Ok(())
    })
    .await;
}

/// The script that finds the studio of the page's element `id`, where roles and names are looked for.
fn studio_of(id: &str) -> String {
    format!("document.getElementById({id:?}).shadowRoot.querySelector('.vstage')")
}

/// The desk and the phone (a touch screen) the agent's walks are made at.
const SIZES: [(u32, u32, bool); 2] = [(1280, 800, false), (390, 844, true)];

async fn at_size(driver: &WebDriver, (width, height, touch): (u32, u32, bool)) -> WebDriverResult<()> {
    driver.set_window_rect(0, 0, width, height).await?;
    let touch = json!({"enabled": touch, "maxTouchPoints": 1});
    driver.cdp().send_raw("Emulation.setTouchEmulationEnabled", touch).await?;
    Ok(())
}

/// Renders of `photos` (two results each, finished) made by the agent of `token` and put on its board, by id.
async fn agents_board(server: &Server, token: &str, origin: &str, photos: &[(String, &str)]) -> Vec<String> {
    let http = reqwest::Client::new();
    let mut ids = Vec::new();
    for (photo, _) in photos {
        let body = json!({"image_url": photo, "variation_count": 2, "wait_for_completion": true,
            "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}}});
        let created = http.post(server.api("/v2/renders")).bearer_auth(token).header("Origin", origin).json(&body);
        let render: Value = created.send().await.unwrap().json().await.unwrap();
        ids.push(render["id"].as_str().unwrap().to_string());
    }
    let entries: Vec<Value> =
        ids.iter().zip(photos).map(|(id, (_, label))| json!({"render_id": id, "label": label})).collect();
    let board = http.post(server.api("/board/renders")).bearer_auth(token).header("Origin", origin);
    assert_eq!(board.json(&json!({"renders": entries})).send().await.unwrap().status(), 200);
    ids
}

#[tokio::test]
async fn the_best_result_of_each_photo_is_used_in_the_listing_from_the_board_itself() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let token = secret.mint("agent-ana", Duration::from_secs(3600), Some(&host_origin));
    let names = ["living-empty.jpg", "bedroom-furnished.jpg"];
    let addresses = sample_addresses(&server, Some(&token), &names).await;
    let photos: Vec<(String, &str)> = addresses.iter().cloned().zip(names).collect();
    let ids = agents_board(&server, &token, &host_origin, &photos).await;
    let tag = format!(r#"<vstage-widget id="agent" token="{token}" view="board" disclosure="ab723"></vstage-widget>"#);
    let _host = start_host(host_listener, recording_host_page(&server.url, &["vstage-result-chosen"], &tag)).await;
    let studio = studio_of("agent");
    with_browser(|driver| async move {
        for size in SIZES {
            at_size(&driver, size).await?;
            driver.goto(&host_origin).await?;
            let root = widget(&driver, "agent").await?;
            by_role(&driver, &root, &studio, "group", "Choose the best of living-empty.jpg for the listing").await?;
            by_role(&driver, &root, &studio, "group", "Choose the best of bedroom-furnished.jpg for the listing")
                .await?;
            // the living room's second result, chosen on the board: handed over with its record, in the photo's place
            let second = "Use in listing: Living room · Modern 2 of living-empty.jpg";
            click_role(&driver, &root, &studio, "button", second).await?;
            let heard = heard_at_least(&driver, "vstage-result-chosen", 1).await?;
            assert_eq!(heard[0]["render_id"], json!(ids[0]));
            assert_eq!(heard[0]["replaces"], json!(addresses[0]), "it names the photo it replaces");
            assert_eq!(heard[0]["profile"], "ab723", "recorded as on the render page: {}", heard[0]);
            assert!(heard[0]["disclosure_url"].as_str().is_some_and(|url| url.contains("/disclosures/dsc_")));
            let placed = "In the listing ✓, in place of living-empty.jpg";
            status_saying(&driver, &root, &studio, placed).await?;
            assert!(no_role(&driver, &root, &studio, "button", second).await?, "chosen once");
            // the first instead: it takes the second's place, which may be chosen again
            click_role(&driver, &root, &studio, "button", "Use in listing: Living room · Modern 1 of living-empty.jpg")
                .await?;
            let heard = heard_at_least(&driver, "vstage-result-chosen", 2).await?;
            assert_eq!(heard[1]["replaces"], json!(addresses[0]));
            assert_ne!(heard[1]["variation_id"], heard[0]["variation_id"]);
            by_role(&driver, &root, &studio, "button", second).await?;
            statuses_saying(&driver, &root, &studio, placed, 1).await?; // one a photo
            // the bedroom's, on the same board
            click_role(
                &driver,
                &root,
                &studio,
                "button",
                "Use in listing: Living room · Modern 1 of bedroom-furnished.jpg",
            )
            .await?;
            let heard = heard_at_least(&driver, "vstage-result-chosen", 3).await?;
            assert_eq!(heard[2]["replaces"], json!(addresses[1]));
            status_saying(&driver, &root, &studio, "In the listing ✓, in place of bedroom-furnished.jpg").await?;
            assert_eq!(sideways(&driver).await?, 0, "the choices fit the width");

            // its render, opened from the board, leads back to it, where the choice still shows
            click_role(&driver, &root, &studio, "link", "living-empty.jpg").await?;
            status_saying(&driver, &root, &studio, placed).await?;
            click_role(&driver, &root, &studio, "link", "← Back to the listing board").await?;
            by_role(&driver, &root, &studio, "heading", "Listing board").await?;
            status_saying(&driver, &root, &studio, placed).await?;
        }
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn a_render_opened_from_the_board_leads_back_to_the_board_and_keeps_the_way_on_a_reload() {
    let server = Server::start(&dist()).await;
    let (_, screens) = crate::browser::main_screens_with_a_render(&server).await;
    let render_path = screens.iter().find(|(path, _)| path.starts_with("/renders/rnd")).unwrap().0.clone();
    let studio = "document.querySelector('vstage-widget').shadowRoot.querySelector('.vstage')";
    with_browser(|driver| async move {
        for size in SIZES {
            at_size(&driver, size).await?;
            driver.goto(format!("{}/board", server.url)).await?;
            let root = crate::browser::studio(&driver).await?;
            click_role(&driver, &root, studio, "link", "Living.jpg").await?;
            by_role(&driver, &root, studio, "link", "← Back to the listing board").await?;
            let path = driver.current_url().await?.path().to_string();
            assert_eq!(path, format!("/board{render_path}"), "the address says where it was opened from");
            // the standalone studio has no listing to hand results to
            assert!(no_role(&driver, &root, studio, "group", "Choose the best of Living.jpg for the listing").await?);
            driver.refresh().await?;
            let root = crate::browser::studio(&driver).await?;
            click_role(&driver, &root, studio, "link", "← Back to the listing board").await?;
            by_role(&driver, &root, studio, "heading", "Listing board").await?;
            assert_eq!(driver.current_url().await?.path(), "/board");
            // the browser's own back returns to the render, and its back link still leads to the board
            driver.back().await?;
            by_role(&driver, &root, studio, "link", "← Back to the listing board").await?;
            // opened from the renders, the same render leads back to them
            crate::browser::navigate_within(&driver, &render_path).await?;
            click_role(&driver, &root, studio, "link", "← All renders").await?;
            by_role(&driver, &root, studio, "heading", "Your renders").await?;
        }
        Ok(())
    })
    .await;
}
