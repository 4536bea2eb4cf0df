//! Disclosures through the whole app, in-process (over its loopback port, as a listing's visitors reach it): a
//! chosen result recorded with a profile, its public originals page (two languages, no script, no cookie,
//! signed), its QR code read back by an independent decoder, the provenance in the kept copy read back by
//! exiftool, the records per subject, the board's `disclosures.csv`, the page gone with its kept result; and its
//! content credentials read by the C2PA reference crate's reader (not this server's own reading): signed under
//! the authority made at first start, naming the edit by trained algorithmic media, the service (here the
//! embedded sandbox) and the kept original by its hash, and the originals page saying so.

#[cfg(feature = "content-credentials")]
use std::io::Cursor;
use std::io::Read;

use axum::http::Method;
#[cfg(feature = "content-credentials")]
use c2pa::{Context, Reader, Relationship, ValidationState};
use serde_json::{Value, json};
#[cfg(feature = "content-credentials")]
use sha2::{Digest, Sha256};

use crate::testing::TestApp;
use crate::testing::csv::{assert_inert, read_with_python};
use crate::testing::exiftool::assert_drawing_only;
use crate::testing::phone::phone_jpeg;
#[cfg(feature = "content-credentials")]
use crate::testing::text;

#[cfg(feature = "content-credentials")]
const STAGED: &str = "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia";

/// The reference reader's view of `bytes`, trusting `root` when given.
#[cfg(feature = "content-credentials")]
fn read(bytes: &[u8], root: Option<&str>) -> Reader {
    let trust = root.map_or(json!({}), |root| json!({"user_anchors": root}));
    let context = Context::new().with_settings(json!({"trust": trust})).unwrap();
    Reader::from_context(context).with_stream("image/jpeg", Cursor::new(bytes)).expect("credentials in the file")
}

#[cfg(feature = "content-credentials")]
#[tokio::test]
async fn a_chosen_results_credentials_name_its_kept_original_and_its_page_says_they_verify() {
    let server = TestApp::with_tokens(&[]).await;
    let alice = server.token("alice");
    let photo = server.sample_url("living-empty.jpg").await;
    let render = server.staged(&alice, &photo, 1).await;
    let choice = json!({"render_id": render["id"], "variation_id": render["variations"]["items"][0]["id"]});
    let (status, chosen) = server.ask(Method::POST, "/api/disclosures").bearer(&alice).json(&choice).answer().await;
    assert_eq!(status, 200, "{chosen}");
    let on_server = |field: &str| chosen[field].as_str().unwrap().strip_prefix(&server.url).unwrap().to_string();
    let (_, photo) = server.bytes(&on_server("url")).await;
    let (_, original) = server.bytes(&on_server("original_url")).await;

    let root = std::fs::read_to_string(server.data_dir().join("content-credentials/local-authority.pem")).unwrap();
    let reader = read(&photo, Some(&root));
    assert_eq!(reader.validation_state(), ValidationState::Trusted, "{}", reader.json());
    let manifest = reader.active_manifest().unwrap();
    let actions: Value = manifest.find_assertion("c2pa.actions.v2").unwrap();
    let edit = actions["actions"].as_array().unwrap().iter().find(|action| action["action"] == "c2pa.edited");
    let edit = edit.expect("an edit");
    assert_eq!(
        (edit["digitalSourceType"].as_str(), edit["softwareAgent"]["name"].as_str()),
        (Some(STAGED), Some("vstage sandbox"))
    );
    let parent = manifest.ingredients().iter().find(|ingredient| *ingredient.relationship() == Relationship::ParentOf);
    let named =
        parent.and_then(|parent| parent.metadata()).and_then(|metadata| metadata.get_field("vstage.original_sha256"));
    assert_eq!(named.and_then(Value::as_str), Some(hex::encode(Sha256::digest(&original)).as_str()));
    // without this server's authority among its anchors a reader finds them intact but not trusted
    let untrusted = read(&photo, None);
    assert_eq!(untrusted.validation_state(), ValidationState::Valid);

    let (status, page) = text(server.get(&on_server("disclosure_url")).await).await;
    assert_eq!(status, 200);
    assert!(page.contains("Content credentials (C2PA)") && page.contains("content credentials verify"), "{page}");
    assert!(page.contains("They name the original shown here"), "{page}");
}

async fn disclose(server: &TestApp, token: &str, body: Value) -> (u16, Value) {
    server.ask(Method::POST, "/api/disclosures").bearer(token).json(&body).answer().await
}

/// The caller's disclosure records after `query` (`""` or `?limit=..&cursor=..`).
async fn records(server: &TestApp, token: &str, query: &str) -> Value {
    server.ask(Method::GET, &format!("/api/disclosures{query}")).bearer(token).answer().await.1
}

async fn get(address: &str) -> reqwest::Response {
    reqwest::get(address).await.unwrap()
}

/// The board's ZIP's `disclosures.csv` for `token`, as Python's csv module reads it.
async fn board_csv(server: &TestApp, token: &str) -> Vec<Vec<String>> {
    let zip = get(&format!("{}?access_token={token}", server.api("/board/results.zip"))).await;
    assert_eq!(zip.status(), 200);
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip.bytes().await.unwrap().to_vec())).unwrap();
    let mut csv = Vec::new();
    archive.by_name("disclosures.csv").unwrap().read_to_end(&mut csv).unwrap();
    read_with_python(&csv).cells
}

/// What exiftool (an independent reader) finds in `bytes`, as its JSON object.
fn exiftool(bytes: &[u8]) -> Value {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    let output = std::process::Command::new("exiftool")
        .args(["-j", "-G1", "-XMP:all", "-EXIF:all", "-GPS:all"])
        .arg(file.path())
        .output()
        .expect("exiftool (Debian's libimage-exiftool-perl, installed by `cargo xtask setup`)");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice::<Value>(&output.stdout).unwrap()[0].clone()
}

#[tokio::test]
async fn a_chosen_result_is_disclosed_as_its_profile_asks_and_its_page_lives_with_it() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let render = server.staged(&alice, &photo, 1).await;
    let render_id = render["id"].as_str().unwrap();
    let variation_id = render["variations"]["items"][0]["id"].as_str().unwrap();
    let chosen = json!({"render_id": render_id, "variation_id": variation_id, "profile": "ab723", "lang": "de"});

    // Another subject's render looks like none; a body that is not a request is refused with a sentence.
    assert_eq!(disclose(&server, &bob, chosen.clone()).await.0, 404);
    let (status, refused) = disclose(&server, &alice, json!({"render_id": render_id})).await;
    assert_eq!(status, 400, "{refused}");
    let (status, refused) = disclose(
        &server,
        &alice,
        json!({"render_id": render_id, "variation_id": variation_id,
        "image_index": 3}),
    )
    .await;
    assert_eq!(status, 400, "{refused}");

    let (status, record) = disclose(&server, &alice, chosen).await;
    assert_eq!(status, 200, "{record}");
    let page = record["disclosure_url"].as_str().unwrap().to_string();
    assert!(page.starts_with(&format!("{}/disclosures/dsc_", server.url)), "{record}");
    let statement = "Virtuell eingerichtet: Dieses Bild wurde digital verändert. Das unveränderte Original ist über die \
                     verlinkte Seite oder den QR-Code abrufbar";
    assert_eq!(record["statement"], format!("{statement}: {page}"));
    assert_eq!(
        (&record["placement"], &record["watermarked"], &record["exempt"]),
        (&json!("next-to-altered-photo"), &json!(false), &json!(false))
    );
    assert_eq!(record["processing"], "Möbel und Dekoration digital hinzugefügt, im Stil scandinavian");
    let original = record["original_url"].as_str().unwrap();
    assert!(original.starts_with(&server.api(&format!("/results/{render_id}/{variation_id}/original."))), "{record}");

    // The page: plain HTML in the listing's language, nothing but this server's photos, no script, no cookie.
    let answer = get(&page).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "text/html; charset=utf-8");
    assert!(answer.headers().get("set-cookie").is_none());
    let policy = answer.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(policy.contains("default-src 'none'") && policy.contains("img-src 'self'"), "{policy}");
    let html = answer.text().await.unwrap();
    assert!(html.contains("<html lang=\"de\">") && html.contains("Dieses Inseratsfoto wurde digital verändert"));
    assert!(html.contains("Das unveränderte Originalfoto, wie aufgenommen"));
    assert!(!html.contains("<script"), "no script");
    for source in html.split("src=\"").skip(1).map(|rest| rest.split('"').next().unwrap().replace("&amp;", "&")) {
        assert!(source.starts_with("/api/results/"), "only this server's photos: {source}");
        assert_eq!(get(&format!("{}{source}", server.url)).await.status(), 200, "{source} loads");
    }
    let english = get(&format!("{page}&lang=en")).await.text().await.unwrap();
    assert!(english.contains("<html lang=\"en\">") && english.contains("This listing photo was digitally altered"));

    // A forged link, or this record's signature on another id, opens nothing.
    let (unsigned, signature) = page.split_once("?sig=").unwrap();
    assert_eq!(get(&format!("{unsigned}?sig=AAAA{}", &signature[4..])).await.status(), 404);
    assert_eq!(get(unsigned).await.status(), 404);
    let moved = unsigned.replace("/dsc_", "/dsc_0");
    assert_eq!(get(&format!("{moved}?sig={signature}")).await.status(), 404);

    // The QR code holds the page's address (decoded by rqrr, not the encoder).
    let png = get(record["qr_png_url"].as_str().unwrap()).await;
    assert_eq!(png.headers()["content-type"], "image/png");
    let code = image::load_from_memory(&png.bytes().await.unwrap()).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(code);
    let (_, decoded) = prepared.detect_grids()[0].decode().unwrap();
    assert_eq!(decoded, page);
    let svg = get(record["qr_svg_url"].as_str().unwrap()).await;
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");

    // The kept copy says in its XMP that it was made with trained algorithmic media; the original keeps no
    // private metadata.
    let kept = get(record["url"].as_str().unwrap()).await.bytes().await.unwrap();
    let metadata = exiftool(&kept);
    assert_eq!(
        metadata["XMP-iptcExt:DigitalSourceType"],
        "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia",
        "{metadata}"
    );
    assert!(metadata["XMP-dc:Description"].as_str().unwrap().starts_with("Virtually staged"), "{metadata}");
    let original_metadata = exiftool(&get(original).await.bytes().await.unwrap());
    assert!(original_metadata.as_object().unwrap().keys().all(|key| !key.starts_with("GPS")), "{original_metadata}");

    // Smart MLS: the label drawn into a copy of its own, in the listing's language.
    let smart = json!({"render_id": render_id, "variation_id": variation_id, "profile": "smart-mls", "lang": "fr"});
    let (status, labelled) = disclose(&server, &alice, smart).await;
    assert_eq!(status, 200, "{labelled}");
    assert_eq!((&labelled["watermarked"], &labelled["statement"]), (&json!(true), &json!("Meublée virtuellement")));
    assert_eq!((&labelled["disclosure_url"], &labelled["qr_png_url"]), (&Value::Null, &Value::Null));
    let labelled_url = labelled["url"].as_str().unwrap();
    assert!(labelled_url.contains("-labelled-fr.jpg?sig="), "{labelled}");
    let labelled_photo = image::load_from_memory(&get(labelled_url).await.bytes().await.unwrap()).unwrap();
    assert_ne!(labelled_photo.to_rgb8(), image::load_from_memory(&kept).unwrap().to_rgb8(), "the label is drawn");

    // Each subject lists its own records.
    let alices = records(&server, &alice, "").await;
    assert_eq!(alices["items"].as_array().unwrap().len(), 2, "{alices}");
    assert_eq!(alices["items"][0]["profile"], "smart-mls", "newest first");
    assert!(records(&server, &bob, "").await["items"].as_array().unwrap().is_empty());

    // The board's ZIP carries the records as disclosures.csv.
    let board = json!({"renders": [{"render_id": render_id, "label": "Living room"}]});
    let added = server.ask(Method::POST, "/api/board/renders").bearer(&alice).json(&board).answer().await;
    assert_eq!(added.0, 200);
    let csv = board_csv(&server, &alice).await;
    assert_eq!(csv.len(), 3, "a header and two records: {csv:?}");
    assert_eq!(csv[0][..5], ["id", "chosen_at", "subject", "render_id", "variation_id"]);
    assert!(csv[1].contains(&"smart-mls".into()) && csv[2].contains(&"ab723".into()), "{csv:?}");
    assert!(csv[2].contains(&page), "{csv:?}");
    // and RESO's Media fields, as an MLS feed takes them
    assert_eq!(csv[0][17..19], ["MediaAlteration", "LongDescription"]);
    assert_eq!(csv[0][19..], ["listing_id", "photo_id", "metadata"], "then the host's references");
    assert!(csv[1..].iter().all(|row| row[17].contains("VirtualStagingItemAddition")), "{csv:?}");

    // Removed by its owner, the kept result takes its page and QR code with it.
    let removed = server.ask(Method::DELETE, &format!("/api/results/{render_id}/{variation_id}")).bearer(&alice);
    assert_eq!(removed.answer().await.0, 200);
    assert_eq!(get(&page).await.status(), 404);
    assert_eq!(get(record["qr_png_url"].as_str().unwrap()).await.status(), 404);
}

#[tokio::test]
async fn the_original_a_disclosure_page_links_keeps_only_what_draws_the_photo() {
    let server = TestApp::with_tokens(&[]).await;
    let alice = server.token("alice");
    let (status, uploaded) = server.ask(Method::POST, "/api/uploads").bearer(&alice).body(phone_jpeg()).answer().await;
    assert_eq!(status, 200, "{uploaded}");
    // A photo that reaches the kept original as it came (here an upload an older server stored whole; a photo
    // at a public address is read the same way) is stripped there too.
    let as_it_came = format!("{}.jpg", "ab".repeat(16));
    std::fs::write(server.data_dir().join("uploads").join(&as_it_came), phone_jpeg()).unwrap();
    let photo_pixels = image::load_from_memory(&phone_jpeg()).unwrap().to_rgb8();
    for photo in [uploaded["url"].as_str().unwrap().to_string(), server.api(&format!("/uploads/{as_it_came}"))] {
        let render = server.staged(&alice, &photo, 1).await;
        let choice = json!({"render_id": render["id"], "variation_id": render["variations"]["items"][0]["id"]});
        let (status, record) = disclose(&server, &alice, choice).await;
        assert_eq!(status, 200, "{record}");
        let page = get(record["disclosure_url"].as_str().unwrap()).await.text().await.unwrap();
        let original = record["original_url"].as_str().unwrap();
        let (path, _) = original.strip_prefix(&server.url).unwrap().split_once('?').unwrap();
        assert!(page.contains(path), "the page links the original {path}");
        let kept = get(original).await.bytes().await.unwrap();
        assert_drawing_only(&kept, &format!("the original of {photo}"));
        assert_eq!(image::load_from_memory(&kept).unwrap().to_rgb8(), photo_pixels, "the photo's own pixels");
        // and its copy for screens, which the page shows
        let sources = page.split("src=\"").skip(1).map(|rest| rest.split('"').next().unwrap().replace("&amp;", "&"));
        let on_screen = sources.filter(|source| source.contains("/original-")).collect::<Vec<_>>();
        assert_eq!(on_screen.len(), 1, "{page}");
        let shown = get(&format!("{}{}", server.url, on_screen[0])).await.bytes().await.unwrap();
        assert_drawing_only(&shown, &format!("the original of {photo} as the page shows it"));
    }
}

#[tokio::test]
async fn a_v1_output_is_disclosed_and_kept_like_a_variation() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let v1 = json!({"image_url": photo, "room_type": "living", "style": "modern", "wait_for_completion": true});
    let (_, created) = server.ask(Method::POST, "/api/v1/render/create").bearer(&alice).json(&v1).answer().await;
    let render_id = created["render_id"].as_str().unwrap();
    let chosen = json!({"render_id": render_id, "variation_id": "v1-output-0", "profile": "ab723", "lang": "es"});

    assert_eq!(disclose(&server, &bob, chosen.clone()).await.0, 404, "another subject's v1 render");
    let beyond = json!({"render_id": render_id, "variation_id": "v1-output-9"});
    assert_eq!(disclose(&server, &alice, beyond).await.0, 400);
    let (status, record) = disclose(&server, &alice, chosen).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["variation_type"], "staging");
    let page = record["disclosure_url"].as_str().unwrap();
    let statement = "Amueblada virtualmente: esta imagen fue modificada digitalmente. El original sin modificar puede \
                     consultarse en la página enlazada o con el código QR";
    assert_eq!(record["statement"], format!("{statement}: {page}"));
    let kept = record["url"].as_str().unwrap();
    assert!(kept.starts_with(&server.api(&format!("/results/{render_id}/v1-output-0/0-url."))), "{record}");
    let metadata = exiftool(&get(kept).await.bytes().await.unwrap());
    assert!(
        metadata["XMP-iptcExt:DigitalSourceType"]
            .as_str()
            .is_some_and(|t| t.ends_with("compositeWithTrainedAlgorithmicMedia"))
    );
    let html = get(page).await.text().await.unwrap();
    assert!(html.contains("Esta foto del anuncio fue modificada digitalmente") && html.contains("estilo modern"));

    // chosen again under another index: the same choice (a v1 output is one image)
    let again = json!({"render_id": render_id, "variation_id": "v1-output-0", "profile": "ab723", "lang": "es",
                       "image_index": 5});
    let (status, same) = disclose(&server, &alice, again).await;
    assert_eq!((status, &same["id"]), (200, &record["id"]), "{same}");
    // removed by its owner, it is not kept again through another choice
    let path = format!("/api/results/{render_id}/v1-output-0");
    assert_eq!(server.ask(Method::DELETE, &path).bearer(&alice).answer().await.0, 200);
    let other = json!({"render_id": render_id, "variation_id": "v1-output-0", "profile": "smart-mls", "lang": "de"});
    let (status, refused) = disclose(&server, &alice, other).await;
    assert_eq!(status, 409, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("removed from this server"), "{refused}");
    assert_eq!(get(kept).await.status(), 404, "the removed copy stays gone");
}

/// Subjects a host's tokens may name that a spreadsheet would run, or that would break a row: each agent's
/// `disclosures.csv` read back by Python's csv module has its subject inert, and the ZIP's file names, made from a
/// label just as hostile, are letters, digits, `-` and `_`.
#[tokio::test]
async fn a_boards_disclosures_csv_is_inert_whatever_the_subject_and_the_label() {
    let server = TestApp::with_tokens(&[]).await;
    let photo = server.sample_url("living-empty.jpg").await;
    let subjects = ["=HYPERLINK(\"http://x.example\",\"open\")", "+1", "-2", "@SUM(A1:A9)", "\tcmd", "\rcmd"];
    let server = &server;
    let photo = &photo;
    let agents = subjects.iter().map(|subject| async move {
        let token = server.token(subject);
        let render = server.staged(&token, photo, 1).await;
        let choice = json!({"render_id": render["id"], "variation_id": render["variations"]["items"][0]["id"]});
        assert_eq!(disclose(server, &token, choice).await.0, 200, "{subject:?}");
        let label = format!("{subject}, \"q\"\n=cmd|' /C calc'!A0.jpg");
        let board = json!({"renders": [{"render_id": render["id"], "label": label}]});
        assert_eq!(server.ask(Method::POST, "/api/board/renders").bearer(&token).json(&board).answer().await.0, 200);
        (subject, token)
    });
    for (subject, token) in futures_util::future::join_all(agents).await {
        let csv = board_csv(server, &token).await;
        assert_eq!(csv.len(), 2, "a header and the record: {csv:?}");
        assert_inert(&csv[1][2], subject);
        let zip = get(&format!("{}?access_token={token}", server.api("/board/results.zip"))).await;
        for name in crate::testing::photos::pictures_in(&zip.bytes().await.unwrap()) {
            let safe = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(c);
            assert!(name.starts_with(|c: char| c.is_ascii_alphanumeric()) && name.chars().all(safe), "{name:?}");
        }
    }
}

#[tokio::test]
async fn a_choice_made_again_is_one_record_new_ones_are_capped_and_the_list_pages() {
    let server = TestApp::with_tokens(&["--max-disclosures-a-day", "2"]).await;
    let alice = server.token("alice");
    let photo = server.sample_url("living-empty.jpg").await;
    let render = server.staged(&alice, &photo, 1).await;
    let (render_id, variation_id) = (render["id"].as_str().unwrap(), render["variations"]["items"][0]["id"].as_str());
    let choice = |lang: &str| json!({"render_id": render_id, "variation_id": variation_id, "lang": lang});

    let mut ids = Vec::new();
    for _ in 0..5 {
        let (status, record) = disclose(&server, &alice, choice("en")).await;
        assert_eq!(status, 200, "{record}");
        ids.push(record["id"].as_str().unwrap().to_string());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "five clicks on \"Use in listing\" are one record");
    assert_eq!(disclose(&server, &alice, choice("de")).await.0, 200, "another language is another choice");

    let answer = server.ask(Method::POST, "/api/disclosures").bearer(&alice).json(&choice("fr")).send().await;
    assert_eq!(answer.status(), 429);
    let retry_after: u64 = answer.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=24 * 3600).contains(&retry_after));
    let (_, refused) = crate::testing::json(answer).await;
    assert!(refused["message"].as_str().unwrap().contains("2 results were chosen for listings"), "{refused}");
    assert_eq!(disclose(&server, &alice, choice("en")).await.0, 200, "a choice made before is still answered");

    let first = records(&server, &alice, "?limit=1").await;
    assert_eq!(first["items"].as_array().unwrap().len(), 1, "{first}");
    let cursor = first["next_cursor"].as_str().expect("a next page");
    let second = records(&server, &alice, &format!("?limit=1&cursor={cursor}")).await;
    assert_eq!(second["items"].as_array().unwrap().len(), 1, "{second}");
    assert_ne!(first["items"][0]["id"], second["items"][0]["id"]);
    let all = records(&server, &alice, "").await;
    assert_eq!((all["items"].as_array().unwrap().len(), all.get("next_cursor")), (2, None), "{all}");
}

/// The day's cap counted with the record: one choice, then seven new ones at once under a cap of three, make
/// three records in all; the others are refused with 429, however the requests interleave. On SQLite, then on
/// PostgreSQL (a fresh database on the private cluster).
#[tokio::test]
async fn choices_made_at_once_never_pass_the_days_cap() {
    seven_at_once_under_a_cap_of_three(None).await;
    let database = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("caps"))
        .await
        .unwrap()
        .expect("a fresh database on the private PostgreSQL cluster");
    seven_at_once_under_a_cap_of_three(Some(&database)).await;
}

async fn seven_at_once_under_a_cap_of_three(database: Option<&str>) {
    let mut args = vec!["--max-disclosures-a-day", "3"];
    args.extend(database.map(|url| ["--database", url]).into_iter().flatten());
    let server = TestApp::with_tokens(&args).await;
    let alice = server.token("alice");
    let photo = server.sample_url("living-empty.jpg").await;
    let render = server.staged(&alice, &photo, 1).await;
    let choice = |profile: &str, lang: &str| {
        json!({"render_id": render["id"], "variation_id": render["variations"]["items"][0]["id"],
            "profile": profile, "lang": lang})
    };
    assert_eq!(disclose(&server, &alice, choice("ab723", "en")).await.0, 200);
    let others = [("ab723", "de"), ("ab723", "es"), ("ab723", "fr"), ("crmls", "en"), ("crmls", "de")];
    let others = others.into_iter().chain([("crmls", "es"), ("crmls", "fr")]);
    let tries = others.map(|(profile, lang)| disclose(&server, &alice, choice(profile, lang)));
    let answers = futures_util::future::join_all(tries).await;
    let statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    assert_eq!(statuses.iter().filter(|status| **status == 200).count(), 2, "{database:?}: {statuses:?}");
    assert_eq!(statuses.iter().filter(|status| **status == 429).count(), 5, "{database:?}: {answers:?}");
    let all = records(&server, &alice, "").await;
    assert_eq!(all["items"].as_array().unwrap().len(), 3, "{database:?}: {all}");
}

#[tokio::test]
async fn maar_refuses_a_staged_exterior_and_puts_the_disclosure_in_the_agents_remarks() {
    let server = TestApp::with_tokens(&[]).await;
    let alice = server.token("alice");
    let photo = server.sample_url("living-empty.jpg").await;
    let outside = json!({"type": "staging", "add_furniture": {"style": "modern", "room_type": "outdoor"}});
    let outside = server.create_render(Some(&alice), &photo, outside, true).await;
    let choice = |render: &Value, profile: &str| json!({"render_id": render["id"], "variation_id": render["variations"]["items"][0]["id"], "profile": profile});

    // MAAR's rule: no photo of the exterior is virtually staged; refused with the rule named, nothing recorded.
    let (status, refused) = disclose(&server, &alice, choice(&outside, "maar")).await;
    assert_eq!(status, 422, "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("outside of the property") && message.contains("MAAR MLS Rules"), "{refused}");
    assert!(records(&server, &alice, "").await["items"].as_array().unwrap().is_empty());
    // Another MLS's rules let it be (RMLS: the label on the photo).
    let (status, rmls) = disclose(&server, &alice, choice(&outside, "rmls")).await;
    assert_eq!(status, 200, "{rmls}");
    assert_eq!(
        (&rmls["watermarked"], &rmls["placement"], &rmls["qr_png_url"]),
        (&json!(true), &json!("on-photo"), &Value::Null)
    );
    // in the rule's own words, drawn on a copy of their own (not the English one another profile would draw)
    assert_eq!(rmls["statement"], "Virtually Staged", "{rmls}");
    assert!(rmls["url"].as_str().unwrap().contains("-labelled-rmls.jpg?sig="), "{rmls}");
    // A legacy (v1) staging of the outside is refused the same way.
    let v1 = json!({"image_url": photo, "room_type": "outdoor", "style": "modern", "wait_for_completion": true});
    let (_, created) = server.ask(Method::POST, "/api/v1/render/create").bearer(&alice).json(&v1).answer().await;
    let v1_choice = json!({"render_id": created["render_id"], "variation_id": "v1-output-0", "profile": "maar"});
    assert_eq!(disclose(&server, &alice, v1_choice).await.0, 422, "{created}");

    // An interior: the agents' remarks say it, nothing is drawn on the photo; the CSV carries the sentence.
    let inside = server.staged(&alice, &photo, 1).await;
    let (status, record) = disclose(&server, &alice, choice(&inside, "maar")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["private_remarks_sentence"], "One or more photo(s) was virtually staged.");
    assert_eq!((&record["placement"], &record["watermarked"]), (&json!("in-remarks"), &json!(false)));
    assert_eq!((&record["statement"], &record["remarks_sentence"]), (&Value::Null, &Value::Null));
    let board = json!({"renders": [{"render_id": inside["id"]}]});
    assert_eq!(server.ask(Method::POST, "/api/board/renders").bearer(&alice).json(&board).answer().await.0, 200);
    let csv = board_csv(&server, &alice).await;
    assert_eq!(
        csv[0][8..14],
        ["profile", "lang", "statement", "description_text", "remarks_sentence", "private_remarks_sentence"]
    );
    assert_eq!(csv[1][8..14], ["maar", "en", "", "", "", "One or more photo(s) was virtually staged."], "{csv:?}");
}

#[tokio::test]
async fn each_image_of_a_multi_view_result_is_disclosed_beside_its_own_photo() {
    let server = TestApp::with_tokens(&[]).await;
    let alice = server.token("alice");
    let views = [server.sample_url("living-empty.jpg").await, server.sample_url("living-furnished.jpg").await];
    let render = json!({"image_urls": views, "variation_count": 1, "wait_for_completion": true,
                        "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "coastal"}}});
    let (status, created) = server.ask(Method::POST, "/api/v2/renders").bearer(&alice).json(&render).answer().await;
    assert_eq!(status, 200, "{created}");
    let variation_id = &created["variations"]["items"][0]["id"];
    for (index, view) in views.iter().enumerate().rev() {
        let choice = json!({"render_id": created["id"], "variation_id": variation_id, "image_index": index});
        let (status, record) = disclose(&server, &alice, choice).await;
        assert_eq!(status, 200, "{record}");
        let photo = image::load_from_memory(&get(view).await.bytes().await.unwrap()).unwrap().to_rgb8();
        let kept = get(record["original_url"].as_str().unwrap()).await.bytes().await.unwrap();
        let original = image::load_from_memory(&kept).unwrap().to_rgb8();
        assert!(original == photo, "image {index}'s original is the photo it was made from, {view}");
        assert_eq!(record["replaces"].as_str(), Some(view.as_str()), "{record}");
        #[cfg(feature = "content-credentials")]
        {
            let image = get(record["url"].as_str().unwrap()).await.bytes().await.unwrap();
            let reader = read(&image, None);
            let manifest = reader.active_manifest().unwrap();
            let parent = manifest.ingredients().iter().find(|one| *one.relationship() == Relationship::ParentOf);
            let named = parent.and_then(|one| one.metadata()).and_then(|meta| meta.get_field("vstage.original_sha256"));
            let expected = hex::encode(Sha256::digest(&kept));
            assert_eq!(
                named.and_then(Value::as_str),
                Some(expected.as_str()),
                "image {index}'s credentials name its own"
            );
        }
        // the page shows that photo too
        let page = get(record["disclosure_url"].as_str().unwrap()).await.text().await.unwrap();
        let (path, _) =
            record["original_url"].as_str().unwrap().strip_prefix(&server.url).unwrap().split_once('?').unwrap();
        assert!(page.contains(path), "the page links {path}: {page}");
    }
}
