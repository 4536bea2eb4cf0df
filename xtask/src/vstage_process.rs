//! The `vstage` binary as a child process for the test suites and the benchmarks (`vstage sandbox` or
//! `vstage serve`): started on a free loopback port, its address read from the line it prints, stopped on drop.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

use anyhow::Context;

use crate::project::Project;

pub struct VstageProcess {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    process: Child,
}

impl VstageProcess {
    /// `BINARY COMMAND --listen 127.0.0.1:0 ARGS` with `envs`, logging warnings only (the suites make the sandbox
    /// retry webhooks to addresses that do not answer).
    pub fn start(
        project: &Project,
        binary: &Path,
        command: &str,
        args: &[String],
        envs: &[(&str, &str)],
    ) -> anyhow::Result<Self> {
        let mut process = project
            .command(binary)
            .env("RUST_LOG", "warn")
            .envs(envs.iter().copied())
            .args([command, "--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let mut first_line = String::new();
        let mut output = BufReader::new(process.stdout.take().context("the server's output")?);
        // Lines before it say where else it listens (`--metrics-listen`).
        while output.read_line(&mut first_line)? > 0 && !first_line.starts_with("vstage listening on ") {
            first_line.clear();
        }
        // The rest is read and dropped: a closed pipe would fail the server's next line.
        std::thread::spawn(move || std::io::copy(&mut output, &mut std::io::sink()));
        let url = first_line
            .strip_prefix("vstage listening on ")
            .and_then(|rest| rest.split_whitespace().next())
            .with_context(|| format!("vstage {command} did not start: {first_line:?}"))?
            .to_string();
        println!("    vstage {command} at {url}");
        Ok(VstageProcess { url, process })
    }

    /// `127.0.0.1:PORT`
    pub fn addr(&self) -> &str {
        self.url.strip_prefix("http://").unwrap_or(&self.url)
    }

    pub fn pid(&self) -> u32 {
        self.process.id()
    }
}

impl Drop for VstageProcess {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}
