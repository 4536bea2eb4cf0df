//! Starting the real `vstage` binary for a test: on a free loopback port, with its own data folder.
//! Shared by the HTTP tests and the browser tests; the process is killed when the handle drops.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

pub struct Server {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    _process: Child,
    _data: tempfile::TempDir,
}

impl Server {
    /// `vstage serve --listen 127.0.0.1:0 --dist DIST`, returning once it prints the address it listens on.
    pub async fn start(dist: &Path) -> Server {
        let data = tempfile::tempdir().expect("a temporary data dir");
        let mut process = Command::new(env!("CARGO_BIN_EXE_vstage"))
            .args(["serve", "--listen", "127.0.0.1:0", "--dist"])
            .arg(dist)
            .arg("--data-dir")
            .arg(data.path())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the vstage binary starts");
        let stdout = process.stdout.take().expect("stdout is piped");
        let mut lines = BufReader::new(stdout).lines();
        let url = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(line) = lines.next_line().await.expect("readable stdout") {
                if let Some(rest) = line.strip_prefix("vstage listening on ") {
                    return rest.split_whitespace().next().expect("an address").to_string();
                }
            }
            panic!("vstage serve exited before listening");
        })
        .await
        .expect("vstage serve listens within 30 s");
        // keep draining stdout so the server never blocks on a full pipe
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Server { url, _process: process, _data: data }
    }
}
