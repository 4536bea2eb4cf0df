//! `vstage sandbox` as a child process for the test suites and the benchmarks: started on a free loopback port,
//! its address read from the line it prints, stopped when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

use anyhow::Context;

use crate::project::Project;

pub struct SandboxProcess {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    process: Child,
}

impl SandboxProcess {
    /// `BINARY sandbox --listen 127.0.0.1:0 ARGS`, logging warnings only (the suites make it retry webhooks to
    /// addresses that do not answer).
    pub fn start(project: &Project, binary: &Path, args: &[String]) -> anyhow::Result<Self> {
        let mut process = project
            .command(binary)
            .env("RUST_LOG", "warn")
            .args(["sandbox", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let mut first_line = String::new();
        BufReader::new(process.stdout.take().context("the sandbox's output")?).read_line(&mut first_line)?;
        let url = first_line
            .strip_prefix("vstage listening on ")
            .and_then(|rest| rest.split_whitespace().next())
            .with_context(|| format!("the sandbox did not start: {first_line:?}"))?
            .to_string();
        println!("    sandbox at {url}");
        Ok(SandboxProcess { url, process })
    }

    /// `127.0.0.1:PORT`
    pub fn addr(&self) -> &str {
        self.url.strip_prefix("http://").unwrap_or(&self.url)
    }
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}
