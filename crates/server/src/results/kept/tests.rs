//! Kept results through the whole app, in-process: a subject's copies stay within its quota, and go after the
//! retention period (the sweep the server runs every second). Where they are kept (a directory, an S3-compatible
//! store from the environment) is a process test, `tests/serve/kept.rs`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::http::Method;
use serde_json::json;

use crate::testing::TestApp;

/// Waits for a condition the server reaches in the background, for at most 30 s however busy the machine.
async fn until(what: &str, mut holds: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !holds().await {
        assert!(tokio::time::Instant::now() < deadline, "never happened within 30 s: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `token`'s enhancement render of a sample with `count` variations, finished; its id.
async fn enhanced(server: &TestApp, token: &str, count: u64) -> String {
    let photo = server.sample_url("living-empty.jpg").await;
    let body = json!({"image_url": photo, "variation_count": count, "config": {"type": "enhancement"},
        "wait_for_completion": true});
    let (status, render) = server.ask(Method::POST, "/api/v2/renders").bearer(token).json(&body).answer().await;
    assert_eq!(status, 200, "{render}");
    render["id"].as_str().unwrap().to_string()
}

/// The addresses of a render's variations' results, as the server answers `token` (reading asks for the copies
/// not yet made).
async fn result_urls(server: &TestApp, token: &str, render_id: &str) -> Vec<String> {
    let path = format!("/api/v2/renders/{render_id}?include_variations=true&variations_limit=20");
    let (status, render) = server.ask(Method::GET, &path).bearer(token).answer().await;
    assert_eq!(status, 200, "{render}");
    let items = render["variations"]["items"].as_array().unwrap();
    items.iter().map(|item| item["result"]["url"].as_str().unwrap_or_default().to_string()).collect()
}

/// Every file under `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .flat_map(|entry| if entry.path().is_dir() { files_under(&entry.path()) } else { vec![entry.path()] })
        .collect()
}

#[tokio::test]
async fn kept_results_stay_within_the_subjects_quota() {
    let server = TestApp::with_tokens(&["--results-quota-mb", "1"]).await;
    let alice = server.token("alice");
    let render_id = enhanced(&server, &alice, 10).await;
    let kept_prefix = server.api("/results/");
    // Each read asks for the missing copies, until the quota says no: read until some are kept (however slow the
    // copies), and twenty reads more; the quota keeps them under ten whatever the time.
    let mut kept = 0;
    let mut reads = 0;
    until("some results kept", async || {
        kept = result_urls(&server, &alice, &render_id).await.iter().filter(|u| u.starts_with(&kept_prefix)).count();
        reads += 1;
        kept > 0 && reads >= 20
    })
    .await;
    let results = server.data_dir().join("results");
    let on_disk: u64 = files_under(&results).iter().map(|file| file.metadata().unwrap().len()).sum();
    assert!(kept < 10, "some of the ten fit in 1 MB, not all: {kept} kept, {on_disk} bytes");
    assert!(on_disk <= 1024 * 1024, "{on_disk} bytes kept");
}

#[tokio::test]
async fn kept_results_go_after_the_retention_period() {
    let server = TestApp::with_tokens(&["--results-retention", "3s"]).await;
    let alice = server.token("alice");
    let render_id = enhanced(&server, &alice, 1).await;
    let kept_prefix = server.api("/results/");
    let mut kept = String::new();
    until("the result kept", async || {
        kept = result_urls(&server, &alice, &render_id).await.remove(0);
        kept.starts_with(&kept_prefix)
    })
    .await;
    let path = kept.strip_prefix(&server.url).unwrap().to_string();
    assert_eq!(server.get(&path).await.status(), 200);
    // the sweep runs every second: it removes the copy once it is three seconds old
    let results = server.data_dir().join("results");
    until("the copy removed from the storage", async || files_under(&results).is_empty()).await;
    assert_eq!(server.get(&path).await.status(), 404);
    let urls = result_urls(&server, &alice, &render_id).await;
    assert!(urls.iter().all(|url| !url.starts_with(&kept_prefix)), "not copied again: {urls:?}");
}

/// A variation a listing discloses keeps its copies, and with them its disclosure page and the original it shows,
/// past the retention period, until its owner removes them; the others go as before.
#[tokio::test]
async fn a_disclosed_variation_outlives_the_retention_period_until_its_owner_removes_it() {
    let server = TestApp::with_tokens(&["--results-retention", "8s"]).await;
    let alice = server.token("alice");
    // a staging: it is disclosed with a page (an enhancement is exempt)
    let staged = server.staged(&alice, &server.sample_url("living-empty.jpg").await, 1).await;
    let (disclosed, other) = (staged["id"].as_str().unwrap().to_string(), enhanced(&server, &alice, 1).await);
    let variation = staged["variations"]["items"][0]["id"].as_str().unwrap().to_string();
    let choice = json!({"render_id": disclosed, "variation_id": variation});
    let (status, chosen) = server.ask(Method::POST, "/api/disclosures").bearer(&alice).json(&choice).answer().await;
    assert_eq!(status, 200, "{chosen}");
    let on_server = |field: &str| chosen[field].as_str().unwrap().strip_prefix(&server.url).unwrap().to_string();

    let kept_prefix = server.api("/results/");
    until("the other render's result kept", async || {
        result_urls(&server, &alice, &other).await.remove(0).starts_with(&kept_prefix)
    })
    .await;
    let results = server.data_dir().join("results");
    until("the other render's copy swept", async || files_under(&results.join(&other)).is_empty()).await;
    assert!(!files_under(&results.join(&disclosed)).is_empty(), "the disclosed variation's copies stay");
    for field in ["disclosure_url", "url", "original_url"] {
        assert_eq!(server.get(&on_server(field)).await.status(), 200, "{field} after the retention period");
    }

    let removal = format!("/api/results/{disclosed}/{variation}");
    assert_eq!(server.ask(Method::DELETE, &removal).bearer(&alice).answer().await.0, 200);
    assert_eq!(server.get(&on_server("disclosure_url")).await.status(), 404, "withdrawn by its owner");
    assert!(files_under(&results.join(&disclosed)).is_empty());
}
