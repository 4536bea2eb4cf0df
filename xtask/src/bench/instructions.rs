//! The proxies' own work per call, counted by callgrind: instructions per proxied `GET /v2/renders/{id}` for
//! `vstage serve` and for nginx, one worker each. Unlike time on a machine shared with the load and the sandbox,
//! the count hardly moves between runs, so it shows what a change to the hot path does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, bail};

use super::wrk;
use crate::project::{self, Project};

/// How long the counted load runs (under callgrind a call takes about fifty times as long).
const COUNTED: &str = "10s";

/// A proxy run under callgrind, counting only while the measured load runs.
pub struct Counted {
    name: &'static str,
    addr: String,
    process: Child,
    out: PathBuf,
}

impl Counted {
    /// Starts `program args` under callgrind in `dir`, counting nothing yet, and waits until it accepts
    /// connections on `addr`.
    pub fn start(
        name: &'static str,
        dir: &Path,
        addr: &str,
        program: &Path,
        args: &[OsString],
        envs: &[(&str, &str)],
    ) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let out = dir.join("callgrind.out");
        let _ = std::fs::remove_file(&out);
        let process = Command::new("valgrind")
            .args(["--tool=callgrind", "--instr-atstart=no", "--dump-instr=no"])
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg(program)
            .args(args)
            .envs(envs.iter().copied())
            .env("RUST_LOG", "warn")
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start valgrind")?;
        let counted = Counted { name, addr: addr.to_string(), process, out };
        if !wrk::accepts_within(addr, Duration::from_secs(60)) {
            bail!("{name} did not start under callgrind within 60 s");
        }
        println!("    {name} under callgrind at http://{addr}");
        Ok(counted)
    }

    /// Warms the proxy up, counts its instructions over `COUNTED` of load on `path`, stops it, and returns the
    /// instructions per call.
    pub fn instructions_per_call(mut self, project: &Project, path: &str) -> anyhow::Result<f64> {
        wrk::count_calls(project, &self.addr, path, "3s")?;
        self.callgrind_control("-i", "on")?;
        let calls = wrk::count_calls(project, &self.addr, path, COUNTED)?;
        self.callgrind_control("-i", "off")?;
        // Callgrind writes its counts when the program exits; both proxies stop on SIGTERM.
        project::run(
            &format!("stopping {}", self.name),
            Command::new("kill").args(["-TERM", &self.process.id().to_string()]),
        )?;
        let status = self.process.wait()?;
        if !status.success() {
            bail!("{} under callgrind ended with {status}", self.name);
        }
        let counts = std::fs::read_to_string(&self.out)
            .with_context(|| format!("no callgrind output at {}", self.out.display()))?;
        Ok(total_instructions(&counts)? as f64 / calls.max(1.0))
    }

    fn callgrind_control(&self, option: &str, value: &str) -> anyhow::Result<()> {
        let pid = self.process.id().to_string();
        project::run(
            &format!("callgrind_control {option} {value} ({})", self.name),
            Command::new("callgrind_control").args([option, value, &pid]),
        )
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The instructions counted: callgrind's `totals:` line (its `summary:` line, written first, can read 0 when
/// counting was switched on and off by hand).
fn total_instructions(counts: &str) -> anyhow::Result<u64> {
    counts
        .lines()
        .find_map(|line| line.strip_prefix("totals:"))
        .and_then(|value| value.split_whitespace().next()?.parse().ok())
        .context("no totals in callgrind's output")
}

#[cfg(test)]
mod tests {
    use super::total_instructions;

    #[test]
    fn totals_are_read_from_callgrinds_output() {
        // As callgrind writes it after counting was switched on and off.
        let counts =
            "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 0\nfn=(1) main\n5 100\n\ntotals: 1234567\n";
        assert_eq!(total_instructions(counts).unwrap(), 1_234_567);
        assert!(total_instructions("events: Ir\nsummary: 42\n").is_err());
    }
}
