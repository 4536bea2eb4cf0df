//! A real S3-compatible server for the tests: moto's, from PyPI (`cargo xtask setup` installs it under
//! `target/tools/moto`, or `VSTAGE_MOTO_SERVER` names it), on a free loopback port, stopped when the handle drops.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

pub struct S3Server {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    _process: Child,
}

fn moto_server() -> PathBuf {
    if let Some(path) = std::env::var_os("VSTAGE_MOTO_SERVER") {
        return PathBuf::from(path);
    }
    // CARGO_TARGET_TMPDIR is `<target>/tmp`.
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().map(PathBuf::from).unwrap_or_default();
    target.join("tools").join("moto").join("bin").join("moto_server")
}

impl S3Server {
    pub async fn start() -> S3Server {
        let binary = moto_server();
        assert!(binary.is_file(), "no S3-compatible server at {}; run `cargo xtask setup`", binary.display());
        let port = vstage_postgres_cluster::unused_loopback_port();
        let process = Command::new(&binary)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary.display()));
        let url = format!("http://127.0.0.1:{port}");
        for _ in 0..200 {
            if reqwest::get(&url).await.is_ok() {
                return S3Server { url, _process: process };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the S3-compatible server did not start at {url}");
    }

    pub async fn create_bucket(&self, bucket: &str) {
        let answer = reqwest::Client::new().put(format!("{}/{bucket}", self.url)).send().await.unwrap();
        assert!(answer.status().is_success(), "creating {bucket}: {}", answer.status());
    }

    /// The keys in `bucket` (its first thousand).
    pub async fn keys(&self, bucket: &str) -> Vec<String> {
        let listing = reqwest::get(format!("{}/{bucket}?list-type=2", self.url)).await.unwrap().text().await.unwrap();
        listing.split("<Key>").skip(1).filter_map(|part| part.split("</Key>").next()).map(str::to_string).collect()
    }

    /// The variables that point `vstage serve --storage s3://...` at this server.
    pub fn env(&self) -> Vec<(String, String)> {
        [
            ("AWS_ENDPOINT_URL", self.url.as_str()),
            ("AWS_ALLOW_HTTP", "true"),
            ("AWS_ACCESS_KEY_ID", "vstage-test"),
            ("AWS_SECRET_ACCESS_KEY", "vstage-test"),
            ("AWS_REGION", "us-east-1"),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
    }
}
