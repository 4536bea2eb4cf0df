//! What loads on first use: a screen whose wasm chunk cannot be fetched says so, and loads on "Try again" once
//! the chunk is there; the first load never fetches a screen's chunk.

use std::path::Path;

use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;

use crate::browser::{click_text, dist, studio, with_browser, with_text};
use crate::support::Server;

#[tokio::test]
async fn a_screen_whose_chunk_cannot_be_fetched_says_so_and_loads_on_try_again() {
    let copy = tempfile::tempdir().unwrap();
    copy_tree(&dist(), copy.path());
    // The account screen's chunk, and its precompressed forms, are away.
    let away = tempfile::tempdir().unwrap();
    let chunk: Vec<_> = std::fs::read_dir(copy.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("split_account_screen-"))
        .collect();
    assert_eq!(chunk.len(), 3, "the chunk with its .br and .gz: {chunk:?}");
    for name in &chunk {
        std::fs::rename(copy.path().join(name), away.path().join(name)).unwrap();
    }
    let server = Server::start(copy.path()).await;
    with_browser(|driver| async move {
        driver.goto(&server.url).await?;
        let root = studio(&driver).await?;
        with_text(&root, "h1", "Your renders").first().await?;
        let fetched = r#"return performance.getEntriesByType("resource").map((entry) => entry.name)
                             .filter((name) => name.includes("split_"))"#;
        let chunks: Vec<String> = driver.execute(fetched, vec![]).await?.convert()?;
        assert!(chunks.is_empty(), "the first screen needs no screen's chunk: {chunks:?}");

        root.find(By::LinkText("Account")).await?.click().await?;
        let failed = with_text(&root, "[role=alert]", StringMatch::new("could not be loaded").partial());
        failed.first().await?;
        for name in &chunk {
            std::fs::rename(away.path().join(name), copy.path().join(name)).unwrap();
        }
        click_text(&root, "button", "Try again").await?;
        let account = root.query(By::Css(".vstage-facts")).first().await?.text().await?;
        assert!(account.contains("@sandbox.vstage.invalid"), "{account}");
        Ok(())
    })
    .await;
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
