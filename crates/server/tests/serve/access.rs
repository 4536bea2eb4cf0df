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
