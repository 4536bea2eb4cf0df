//! `GET /api/renders/{id}/results.zip` and `GET /api/board/results.zip`: a render's, or a board's, finished images
//! as one streamed ZIP, named by photo and style, for their creator only.

use std::io::Read;

use serde_json::{Value, json};

use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, alice_and_bob, sample_url};

/// A staging render of `photo` with `count` variations, waited for.
pub async fn staged(server: &Server, token: &str, photo: &str, count: u64) -> Value {
    let answer = reqwest::Client::new()
        .post(server.api("/v2/renders"))
        .bearer_auth(token)
        .json(&json!({
            "image_url": photo,
            "variation_count": count,
            "config": {"type": "staging", "add_furniture": {"style": "scandinavian", "room_type": "living"}},
            "wait_for_completion": true,
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    answer.json().await.unwrap()
}

#[tokio::test]
async fn a_renders_results_come_as_one_zip_named_by_photo_and_style_for_its_creator_only() {
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--access", "token"], &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    let (alice, bob) = alice_and_bob().await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let render = staged(&server, &alice, &photo, 3).await;
    let id = render["id"].as_str().unwrap();

    // The token rides in the address, as a download link's must.
    let address = format!("{}?access_token={alice}", server.api(&format!("/renders/{id}/results.zip")));
    let answer = reqwest::get(&address).await.unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "application/zip");
    let disposition = answer.headers()["content-disposition"].to_str().unwrap().to_string();
    assert_eq!(disposition, "attachment; filename=\"living-empty-results.zip\"");
    let names = pictures_in(answer).await;
    assert_eq!(
        names,
        [
            "living-empty_living-room-scandinavian_01.jpg",
            "living-empty_living-room-scandinavian_02.jpg",
            "living-empty_living-room-scandinavian_03.jpg"
        ]
    );

    // bob cannot tell it from a render that does not exist
    let bobs = format!("{}?access_token={bob}", server.api(&format!("/renders/{id}/results.zip")));
    let refused = reqwest::get(&bobs).await.unwrap();
    assert_eq!(refused.status(), 404);
    // nor can anyone without a token
    let anonymous = reqwest::get(server.api(&format!("/renders/{id}/results.zip"))).await.unwrap();
    assert_eq!(anonymous.status(), 401);
}

#[tokio::test]
async fn a_render_with_nothing_finished_has_no_zip_yet() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    // a photo whose variations fail (the sandbox's fault switch)
    let photo = format!("{}?sandbox-fail", sample_url(&server, "living-empty.jpg").await);
    let render = crate::create_render(&server, None, &photo, true).await;
    let id = render["id"].as_str().unwrap();
    let answer = reqwest::get(server.api(&format!("/renders/{id}/results.zip"))).await.unwrap();
    assert_eq!(answer.status(), 409);
    let body: Value = answer.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("no finished result"), "{body}");
}

/// The sorted entry names of a ZIP answer, each checked to be a decodable picture.
pub async fn pictures_in(answer: reqwest::Response) -> Vec<String> {
    let bytes = answer.bytes().await.unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut names: Vec<String> = archive.file_names().map(|name| name.unwrap().into_owned()).collect();
    // the board's record of disclosed results is the one entry that is not a picture
    names.retain(|name| name != "disclosures.csv");
    names.sort();
    for name in &names {
        let mut image = Vec::new();
        archive.by_name(name).unwrap().read_to_end(&mut image).unwrap();
        assert!(image::load_from_memory(&image).is_ok(), "{name} is a picture");
    }
    names
}
