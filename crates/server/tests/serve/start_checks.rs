//! The start-up checks, as an operator meets them: each wrong setting stops `vstage serve` before it listens, and
//! `vstage check` the same way, with a sentence naming the setting; a right configuration passes both.

use std::process::Output;
use std::time::Duration;

use crate::support::s3::S3Server;
use crate::support::{sandbox, widget_dir};

/// `vstage COMMAND --listen 127.0.0.1:0 --data-dir (new) ARGS` with `envs` and no key or secrets from the test's
/// own environment, run to its end (a serve that passes its checks is stopped after 5 s).
async fn vstage(command: &str, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let data = tempfile::tempdir().unwrap();
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args([command, "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .args(args)
        .env_remove("VSTAGE_API_KEY")
        .env_remove("VSTAGE_WIDGET_SECRET")
        .env_remove("VSTAGE_WEBHOOK_SECRET")
        .envs(envs.iter().copied())
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(Duration::from_secs(30), run).await.expect("vstage ends in time").unwrap()
}

/// Both commands refuse `args`, each saying every one of `expected`, and serve never listens.
async fn both_refuse(args: &[&str], envs: &[(&str, &str)], expected: &[&str]) {
    for command in ["check", "serve"] {
        let output = vstage(command, args, envs).await;
        let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(!output.status.success(), "{command} {args:?} must fail: {said}");
        assert!(!said.contains("vstage listening on"), "{command} {args:?} listened: {said}");
        for words in expected {
            assert!(said.contains(words), "{command} {args:?} must say {words:?}: {said}");
        }
    }
}

#[tokio::test]
async fn a_store_that_cannot_be_written_is_named_with_what_to_set() {
    let dist = widget_dir();
    let dist = dist.path().to_str().unwrap();
    let s3 = S3Server::start().await;
    s3.create_bucket("vstage").await;
    let env = s3.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
    let without_http: Vec<(&str, &str)> = env.iter().copied().filter(|(key, _)| *key != "AWS_ALLOW_HTTP").collect();

    both_refuse(&["--dist", dist, "--storage", "s3://vstage/studio"], &without_http, &["AWS_ALLOW_HTTP=true"]).await;
    both_refuse(&["--dist", dist, "--storage", "s3://no-such-bucket/studio"], &env, &["does not exist"]).await;

    let passed = vstage("check", &["--dist", dist, "--storage", "s3://vstage/studio"], &env).await;
    assert!(passed.status.success(), "{}", String::from_utf8_lossy(&passed.stderr));
    assert!(String::from_utf8_lossy(&passed.stdout).contains("ready"));
    assert_eq!(s3.keys("vstage").await, Vec::<String>::new(), "the probe is deleted");
}

#[tokio::test]
async fn a_service_that_refuses_the_key_or_cannot_be_reached_is_named() {
    let dist = widget_dir();
    let dist = dist.path().to_str().unwrap();
    let (_service, service) = sandbox(&["--api-key", "k_right_0123"], &[]).await;
    let upstream = ["--dist", dist, "--upstream", service.as_str()];
    both_refuse(&upstream, &[("VSTAGE_API_KEY", "k_wrong_0123")], &["refused the API key", "VSTAGE_API_KEY"]).await;
    let closed = vstage_postgres_cluster::unused_loopback_port();
    let nowhere = format!("http://127.0.0.1:{closed}");
    both_refuse(
        &["--dist", dist, "--upstream", &nowhere],
        &[("VSTAGE_API_KEY", "k_right_0123")],
        &["cannot reach the service", "--upstream"],
    )
    .await;

    let passed = vstage("check", &upstream, &[("VSTAGE_API_KEY", "k_right_0123")]).await;
    assert!(passed.status.success(), "{}", String::from_utf8_lossy(&passed.stderr));
    let skipped = vstage(
        "check",
        &["--dist", dist, "--upstream", &nowhere, "--skip-check", "upstream"],
        &[("VSTAGE_API_KEY", "k_right_0123")],
    )
    .await;
    assert!(skipped.status.success(), "an unreachable service is allowed when asked");
    assert!(String::from_utf8_lossy(&skipped.stderr).contains("skipped"), "and the log says so");
}

#[tokio::test]
async fn a_missing_widget_or_database_is_named() {
    let empty = tempfile::tempdir().unwrap();
    let empty = empty.path().to_str().unwrap();
    both_refuse(&["--dist", empty], &[], &["cargo xtask run", "--dist"]).await;

    let dist = widget_dir();
    let dist = dist.path().to_str().unwrap();
    let closed = vstage_postgres_cluster::unused_loopback_port();
    let database = format!("postgres://studio:hunter2-secret@127.0.0.1:{closed}/listings");
    let in_the_environment = [("VSTAGE_DATABASE_URL", database.as_str())];
    both_refuse(&["--dist", dist], &in_the_environment, &["\"listings\" on 127.0.0.1:", "--database"]).await;
    let output = vstage("check", &["--dist", dist], &in_the_environment).await;
    assert!(!String::from_utf8_lossy(&output.stderr).contains("hunter2-secret"), "the password is never said");
    // written on the command line, where process lists show it, it is refused before anything is tried
    both_refuse(&["--dist", dist, "--database", &database], &[], &["VSTAGE_DATABASE_URL instead"]).await;
    let output = vstage("check", &["--dist", dist, "--database", &database], &[]).await;
    assert!(!String::from_utf8_lossy(&output.stderr).contains("hunter2-secret"), "nor said back");
}

/// (A build without the feature refuses the certificate whatever it is: `results/credentials/not_built.rs`.)
#[cfg(feature = "content-credentials")]
#[tokio::test]
async fn content_credentials_name_their_signer_and_a_certificate_c2pa_refuses_stops_the_start() {
    let dist = widget_dir();
    let dist = dist.path().to_str().unwrap();
    let passed = vstage("check", &["--dist", dist], &[]).await;
    let said = String::from_utf8_lossy(&passed.stdout);
    assert!(passed.status.success(), "{}", String::from_utf8_lossy(&passed.stderr));
    assert!(said.contains("content credentials (C2PA): signed with a certificate this server made"), "{said}");
    assert!(said.contains("--c2pa-cert"), "{said}");

    // a certificate alone, or one that is not a certificate at all
    both_refuse(&["--dist", dist, "--c2pa-cert", "/nowhere/chain.pem"], &[], &["--c2pa-key"]).await;
    let files = tempfile::tempdir().unwrap();
    let (cert, key) = (files.path().join("chain.pem"), files.path().join("key.pem"));
    std::fs::write(&cert, "not a certificate").unwrap();
    std::fs::write(&key, "not a key").unwrap();
    let (cert, key) = (cert.to_str().unwrap(), key.to_str().unwrap());
    both_refuse(&["--dist", dist, "--c2pa-cert", cert, "--c2pa-key", key], &[], &["cannot sign", "PKCS#8"]).await;
}
