//! Kept results: a finished variation's images copied into the server's storage (a directory, or an S3-compatible
//! server started here, from the process's environment) and served from there at links this server signed, after
//! the service's own files are gone. (The quota and the retention period are tested in-process, in
//! `src/results/kept/served.rs`.)

use std::time::Duration;

use serde_json::Value;

use crate::staged;
use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, alice_and_bob, sample_url};

/// The render's first variation's result once its addresses are this server's (its copy is made in the
/// background after the `done` event), read with `token`.
async fn kept_result(server: &Server, token: &str, render_id: &str) -> Value {
    let address = server.api(&format!("/v2/renders/{render_id}?include_variations=true"));
    for _ in 0..100 {
        let render: Value =
            reqwest::Client::new().get(&address).bearer_auth(token).send().await.unwrap().json().await.unwrap();
        let result = render["variations"]["items"][0]["result"].clone();
        if result["url"].as_str().is_some_and(|url| url.starts_with(&server.api("/results/"))) {
            return result;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the result was never kept");
}

/// Removes every file of the embedded sandbox: the service's own copies are gone.
fn sandbox_files_gone(server: &Server) {
    let files = server.data_dir().join("sandbox").join("files");
    std::fs::remove_dir_all(&files).unwrap();
    std::fs::create_dir_all(&files).unwrap();
}

async fn image(address: &str, token: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(address);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

/// Keeps a staged result, removes the sandbox's files, and checks the kept copy is served at its signed link, with
/// no token (a listing shows it), and at no other; returns the kept result.
async fn kept_after_the_service_lost_it(server: &Server) -> Value {
    let (alice, _) = alice_and_bob().await;
    let photo = sample_url(server, "living-empty.jpg").await;
    let render = staged(server, &alice, &photo, 1).await;
    let render_id = render["id"].as_str().unwrap();
    let service_url = render["variations"]["items"][0]["result"]["url"].as_str().unwrap().to_string();
    let result = kept_result(server, &alice, render_id).await;
    for role in ["url", "optimized_url", "thumbnail_url"] {
        if let Some(address) = result[role].as_str() {
            assert!(address.starts_with(&server.api("/results/")), "{role}: {address}");
        }
    }
    sandbox_files_gone(server);
    assert_eq!(reqwest::get(&service_url).await.unwrap().status(), 404, "the service's copy is gone");

    let kept = result["url"].as_str().unwrap();
    let answer = image(kept, None).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["cache-control"], "private, max-age=31536000, immutable");
    assert_eq!(answer.headers()["content-type"], "image/jpeg");
    assert_eq!(answer.headers()["access-control-allow-origin"], "*", "a listing on another site may draw it");
    assert!(image::load_from_memory(&answer.bytes().await.unwrap()).is_ok(), "a picture");
    // saved under the name the link asks for, made file-safe
    let named = image(&format!("{kept}&download=Living%20Room,%20modern%202"), None).await;
    assert_eq!(named.headers()["content-disposition"], "attachment; filename=\"living-room--modern-2.jpg\"");
    // The link opens its own file only; without its signature, or with a forged one, even the owner gets nothing.
    let (unsigned, signature) = kept.split_once("?sig=").unwrap();
    assert_eq!(image(unsigned, Some(&alice)).await.status(), 404);
    assert_eq!(image(&format!("{unsigned}?sig=AAAA{}", &signature[4..]), Some(&alice)).await.status(), 404);
    assert_eq!(image(&format!("{unsigned}?access_token={alice}"), None).await.status(), 404, "tokens open nothing");
    if let Some(thumbnail) = result["thumbnail_url"].as_str() {
        let (other, _) = thumbnail.split_once("?sig=").unwrap();
        assert_eq!(image(&format!("{other}?sig={signature}"), None).await.status(), 404, "another file's link");
    }
    // The render's ZIP is made from the kept copies.
    let zip = image(&server.api(&format!("/renders/{render_id}/results.zip")), Some(&alice)).await;
    assert_eq!(zip.status(), 200);
    assert_eq!(
        crate::photos::pictures_in(&zip.bytes().await.unwrap()),
        ["living-empty_living-room-scandinavian_01.jpg"]
    );
    result
}

#[tokio::test]
async fn a_kept_result_is_served_from_a_directory_after_the_service_lost_its_file_and_can_be_removed() {
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--access", "token"], &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    let result = kept_after_the_service_lost_it(&server).await;
    let kept = result["url"].as_str().unwrap();
    let stored = kept.strip_prefix(&server.api("/results/")).unwrap().split('?').next().unwrap();
    assert!(server.data_dir().join("results").join(stored).is_file(), "kept under DATA_DIR/results by default");

    // Removed by its owner, for good: not copied again, and the answer gives the service's address.
    let (alice, bob) = alice_and_bob().await;
    let variation = stored.rsplit_once('/').unwrap().0;
    let remove = |token: String| {
        let address = server.api(&format!("/results/{variation}"));
        async move { reqwest::Client::new().delete(address).bearer_auth(token).send().await.unwrap().status() }
    };
    assert_eq!(remove(bob).await, 404);
    assert_eq!(remove(alice.clone()).await, 200);
    assert_eq!(image(kept, None).await.status(), 404, "its link opens nothing any more");
    assert!(!server.data_dir().join("results").join(stored).exists());
    let render_id = variation.split('/').next().unwrap();
    let address = server.api(&format!("/v2/renders/{render_id}?include_variations=true"));
    let render: Value =
        reqwest::Client::new().get(&address).bearer_auth(&alice).send().await.unwrap().json().await.unwrap();
    let url = render["variations"]["items"][0]["result"]["url"].as_str().unwrap();
    assert!(url.contains("/sandbox/files/"), "the service's address again: {url}");
}

#[tokio::test]
async fn a_kept_result_is_served_from_an_s3_compatible_store() {
    let s3 = crate::support::s3::S3Server::start().await;
    s3.create_bucket("vstage-kept").await;
    let dist = widget_dir();
    let mut env = s3.env();
    env.push(("VSTAGE_WIDGET_SECRET".into(), WIDGET_SECRET.into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let server =
        Server::start_with(dist.path(), &["--access", "token", "--storage", "s3://vstage-kept/results"], &env).await;
    let result = kept_after_the_service_lost_it(&server).await;
    let kept = result["url"].as_str().unwrap().strip_prefix(&server.api("/results/")).unwrap();
    let stored = kept.split('?').next().unwrap().to_string();
    let keys = s3.keys("vstage-kept").await;
    assert!(keys.contains(&format!("results/{stored}")), "{stored} in the bucket: {keys:?}");
    assert!(!server.data_dir().join("results").exists(), "nothing kept on the local disk");
}
