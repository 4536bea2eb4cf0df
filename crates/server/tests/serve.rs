//! `vstage serve` over real HTTP: the proxy to the embedded sandbox, the API's 404s and the widget's files.

mod support;

use support::Server;

fn widget_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html><title>widget</title>").unwrap();
    std::fs::write(dir.path().join("app.js"), "console.log('widget')").unwrap();
    dir
}

#[tokio::test]
async fn status_and_user_are_forwarded_to_the_embedded_sandbox_with_its_key() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();

    let status = http.get(format!("{}/api/v2/status", server.url)).send().await.unwrap();
    assert_eq!(status.status().as_u16(), 200);

    // The browser sends no key; whatever Authorization it sends is replaced by the server's own.
    let user = http
        .get(format!("{}/api/v2/user", server.url))
        .header("Authorization", "Api-Key not-the-key")
        .send()
        .await
        .unwrap();
    assert_eq!(user.status().as_u16(), 200);
    let body: serde_json::Value = serde_json::from_slice(&user.bytes().await.unwrap()).unwrap();
    assert_eq!(body["photoLimit"]["staging"], 100);
    assert_eq!(body["photosUsedThisPeriod"]["imageEditing"], 0);
    assert!(body["user"]["email"].is_string());
}

#[tokio::test]
async fn unknown_api_paths_are_json_404s_not_the_page() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let response = reqwest::get(format!("{}/api/v2/not-an-endpoint", server.url)).await.unwrap();
    assert_eq!(response.status().as_u16(), 404);
    let body: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert!(body["message"].as_str().unwrap().contains("No such API endpoint"));
}

#[tokio::test]
async fn page_paths_fall_back_to_index_html_and_files_are_served() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    for path in ["/", "/renders/r_123", "/some/deep/link"] {
        let response = reqwest::get(format!("{}{path}", server.url)).await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(response.text().await.unwrap().contains("<title>widget</title>"), "{path}");
    }
    let script = reqwest::get(format!("{}/app.js", server.url)).await.unwrap();
    assert!(script.headers()["content-type"].to_str().unwrap().contains("javascript"));
    assert_eq!(script.text().await.unwrap(), "console.log('widget')");
}

#[tokio::test]
async fn open_access_refuses_a_non_loopback_address() {
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["serve", "--listen", "0.0.0.0:0"])
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("refusing to listen on 0.0.0.0:0") && message.contains("loopback"), "{message}");
}
