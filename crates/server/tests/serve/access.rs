//! Options that keep `vstage serve` from starting, each with a sentence saying what to set (the handlers' access
//! tests run in-process, in `src/access/served.rs`).

#[tokio::test]
async fn bad_options_refuse_to_start_with_a_sentence() {
    for (args, envs, expected) in [
        (vec!["--access", "token"], vec![], "VSTAGE_WIDGET_SECRET"),
        (vec!["--access", "token"], vec![("VSTAGE_WIDGET_SECRET", "short")], "at least 32"),
        (vec!["--allow-origin", "listings.example"], vec![], "not an origin"),
        (vec!["--public-url", "ftp://x"], vec![], "plain http(s) URL"),
        (vec!["--upstream", "http://127.0.0.1:9"], vec![], "VSTAGE_API_KEY"),
    ] {
        let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(tempfile::tempdir().unwrap().path())
            .args(&args)
            .env_remove("VSTAGE_WIDGET_SECRET")
            .env_remove("VSTAGE_API_KEY")
            .envs(envs)
            .output()
            .await
            .unwrap();
        assert!(!output.status.success(), "{args:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains(expected), "{args:?}: {message}");
    }
}

/// `vstage token --jwt` prints a standard JWT that a server in token access takes, from its origin only.
#[tokio::test]
async fn vstage_token_jwt_prints_a_standard_jwt_the_server_takes() {
    let token =
        crate::mint_as(crate::WIDGET_SECRET, &["--sub", "alice", "--jwt"], Some("https://listings.example")).await;
    assert_eq!(token.split('.').count(), 3, "{token}");
    assert!(!token.starts_with("v1."), "{token}");
    let dist = crate::support::widget_dir();
    let envs = [("VSTAGE_WIDGET_SECRET", crate::WIDGET_SECRET)];
    let server = crate::support::Server::start_with(dist.path(), &["--access", "token"], &envs).await;
    let http = reqwest::Client::new();
    let user = |origin: &'static str| http.get(server.api("/v2/user")).bearer_auth(&token).header("Origin", origin);
    assert_eq!(user("https://listings.example").send().await.unwrap().status().as_u16(), 200);
    assert_eq!(user("https://evil.example").send().await.unwrap().status().as_u16(), 401);
}
