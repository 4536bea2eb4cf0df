//! Starting the real `vstage` binary for a test: on a free loopback port, with its own data folder, its output
//! kept for inspection. Shared by the HTTP tests and the browser tests; the process is killed when the handle drops.

#![allow(dead_code)] // each test binary uses its own part of this

pub mod balancer;
#[path = "../../src/testing/real_service.rs"]
pub mod real_service;
pub mod s3;

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, Command};

pub struct Server {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    process: Child,
    data: tempfile::TempDir,
    output: Arc<Mutex<String>>,
}

impl Server {
    /// `vstage serve --listen 127.0.0.1:0 --dist DIST`, returning once it prints the address it listens on.
    pub async fn start(dist: &Path) -> Server {
        Server::start_with(dist, &[], &[]).await
    }

    /// The same with more arguments and environment variables.
    pub async fn start_with(dist: &Path, args: &[&str], envs: &[(&str, &str)]) -> Server {
        Server::start_listening("127.0.0.1:0", dist, args, envs).await
    }

    /// The same on the address `listen`.
    pub async fn start_listening(listen: &str, dist: &Path, args: &[&str], envs: &[(&str, &str)]) -> Server {
        let data = tempfile::tempdir().expect("a temporary data dir");
        Server::start_in(data, listen, dist, args, envs).await
    }

    /// Stops this server (SIGTERM) and starts another on the same data dir.
    pub async fn restart_with(self, dist: &Path, args: &[&str], envs: &[(&str, &str)]) -> Server {
        let Server { mut process, data, .. } = self;
        terminate(&mut process).await;
        Server::start_in(data, "127.0.0.1:0", dist, args, envs).await
    }

    async fn start_in(
        data: tempfile::TempDir,
        listen: &str,
        dist: &Path,
        args: &[&str],
        envs: &[(&str, &str)],
    ) -> Server {
        let mut command = Command::new(vstage_program());
        command.args(["serve", "--listen", listen, "--dist"]).arg(dist).arg("--data-dir").arg(data.path());
        Server::listening(command.args(args).envs(envs.iter().copied()), data).await
    }

    /// `program ARGS` with the environment `envs` and nothing of the test's own (as a service manager starts
    /// it), returning once it prints the address it listens on.
    pub async fn start_exactly(program: &Path, args: &[std::ffi::OsString], envs: &[(String, String)]) -> Server {
        let mut command = Command::new(program);
        command.args(args).env_clear().envs(envs.iter().map(|(name, value)| (name, value)));
        Server::listening(&mut command, tempfile::tempdir().expect("a temporary folder")).await
    }

    async fn listening(command: &mut Command, data: tempfile::TempDir) -> Server {
        let mut process = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the vstage binary starts");
        let output = Arc::new(Mutex::new(String::new()));
        let (announced, mut address) = tokio::sync::mpsc::channel(1);
        collect(process.stdout.take().expect("stdout is piped"), output.clone(), Some(announced));
        collect(process.stderr.take().expect("stderr is piped"), output.clone(), None);
        let url = tokio::time::timeout(Duration::from_secs(30), address.recv())
            .await
            .expect("vstage serve listens within 30 s")
            .unwrap_or_else(|| panic!("vstage serve exited before listening:\n{}", output.lock().unwrap()));
        // an address of every interface (0.0.0.0) is reached on loopback
        let url = url.replace("//0.0.0.0:", "//127.0.0.1:");
        Server { url, process, data, output }
    }

    /// Everything the server printed so far (stdout and stderr).
    pub fn output(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// The output once it holds `needle` (the lines are read from the process as they come, so a line written
    /// before an answer may still be on its way when the answer arrives); fails after a generous bound.
    pub async fn wait_for_output(&self, needle: &str) -> String {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let output = self.output();
            if output.contains(needle) {
                return output;
            }
            assert!(tokio::time::Instant::now() < deadline, "`{needle}` is not in the output: {output}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub fn data_dir(&self) -> &Path {
        self.data.path()
    }

    /// `/api{path}` on this server.
    pub fn api(&self, path: &str) -> String {
        format!("{}/api{path}", self.url)
    }

    /// `body` posted to `/api{path}`, which must succeed: the answer's JSON.
    pub async fn post(&self, path: &str, body: serde_json::Value) -> serde_json::Value {
        self.post_with(path, &[], body).await
    }

    /// `body` posted to `/api{path}` with `headers`, which must succeed: the answer's JSON.
    pub async fn post_with(&self, path: &str, headers: &[(&str, &str)], body: serde_json::Value) -> serde_json::Value {
        let mut request = reqwest::Client::new().post(self.api(path)).json(&body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let answer = request.send().await.unwrap();
        assert!(answer.status().is_success(), "{path}: {}", answer.status());
        answer.json().await.unwrap()
    }

    /// Kills the server with SIGKILL (no code of its own runs) and starts another on the same data dir.
    pub async fn killed_and_restarted_with(self, dist: &Path, args: &[&str], envs: &[(&str, &str)]) -> Server {
        let Server { mut process, data, .. } = self;
        process.kill().await.expect("the server is killed");
        Server::start_in(data, "127.0.0.1:0", dist, args, envs).await
    }

    /// Kills the server with SIGKILL: no code of its own runs.
    pub async fn kill(mut self) {
        self.process.kill().await.expect("the server is killed");
    }

    /// Stops the server with SIGTERM and waits (up to 10 s) for it to exit: how it exited, or `None` if it did not.
    pub async fn stopped(mut self) -> Option<std::process::ExitStatus> {
        terminate(&mut self.process).await.then(|| self.process.try_wait().ok().flatten()).flatten()
    }

    /// Stops the server with SIGTERM and waits for it to exit; returns whether it exited on its own in time.
    pub async fn stop(mut self) -> bool {
        terminate(&mut self.process).await
    }
}

/// Sends SIGTERM and waits up to 10 s for the exit; whether it exited in time.
async fn terminate(process: &mut Child) -> bool {
    if let Some(pid) = process.id() {
        let _ = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
    }
    tokio::time::timeout(Duration::from_secs(10), process.wait()).await.is_ok()
}

/// Keeps reading `stream` (so the server never blocks on a full pipe) into `output`, and reports the address.
fn collect(
    stream: impl AsyncRead + Unpin + Send + 'static,
    output: Arc<Mutex<String>>,
    announced: Option<tokio::sync::mpsc::Sender<String>>,
) {
    tokio::spawn(async move {
        let mut lines = BufReader::new(stream).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if let (Some(announced), Some(rest)) = (&announced, line.strip_prefix("vstage listening on ")) {
                let _ = announced.send(rest.split_whitespace().next().expect("an address").to_string()).await;
            }
            let mut output = output.lock().unwrap();
            output.push_str(&line);
            output.push('\n');
        }
    });
}

/// The `vstage` these tests run: this build's, or the one `VSTAGE_PROGRAM` names (`cargo xtask bench` gives its
/// release build, so the figures are the release's, as a listing site runs it).
pub fn vstage_program() -> std::ffi::OsString {
    std::env::var_os("VSTAGE_PROGRAM").unwrap_or_else(|| env!("CARGO_BIN_EXE_vstage").into())
}

/// A 1x1 PNG as a data URL: a photo the service reads without fetching anything.
pub const ONE_PIXEL_PNG: &str = concat!(
    "data:image/png;base64,",
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC"
);

/// `vstage sandbox --listen 127.0.0.1:0` with `args` (and `env`), killed when the handle drops, and the address it
/// listens on.
pub async fn sandbox(args: &[&str], env: &[(&str, &str)]) -> (Child, String) {
    let mut process = Command::new(vstage_program())
        .args(["sandbox", "--listen", "127.0.0.1:0"])
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the vstage binary starts");
    let mut lines = BufReader::new(process.stdout.take().expect("stdout is piped")).lines();
    let line = lines.next_line().await.unwrap().expect("vstage sandbox says where it listens");
    let url = line.strip_prefix("vstage listening on ").unwrap().split_whitespace().next().unwrap().to_string();
    (process, url)
}

/// A folder standing in for the built widget: its page, and glue and module under hashed names as a build
/// leaves them (which the start-up check looks for).
pub fn widget_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html><title>widget</title>").unwrap();
    std::fs::write(dir.path().join("app.js"), "console.log('widget')").unwrap();
    std::fs::write(dir.path().join("vstage-widget-0123abcd.js"), "export default function init() {}").unwrap();
    std::fs::write(dir.path().join("vstage-widget-0123abcd_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    dir
}
