//! `cargo xtask dev`: the widget's edit-and-reload loop. `vstage serve` with the embedded sandbox listens where
//! `Trunk.toml`'s `[[proxy]]`s point (127.0.0.1:8787), and `trunk serve` builds the widget unsplit and
//! unoptimised, serves the studio, and rebuilds and reloads the page when a source file changes.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Child;

use anyhow::{Context, bail};

use crate::project::{self, Project};
use crate::server;
use crate::setup::{self, Purpose};

/// Where `vstage serve` answers `/api` and `/sandbox`: `Trunk.toml`'s `[[proxy]]` backends.
pub const API_ADDRESS: &str = "127.0.0.1:8787";

pub fn run(project: &Project, port: u16, data_dir: Option<PathBuf>) -> anyhow::Result<()> {
    if TcpListener::bind(API_ADDRESS).is_err() {
        bail!(
            "{API_ADDRESS} is taken, and Trunk.toml's [[proxy]] sends /api there: stop what listens on it (an earlier \
             `cargo xtask dev`?)"
        );
    }
    let (server, ()) = server::build_while(project, || setup::ensure(project, Purpose::Build))?;
    let studio = format!("http://127.0.0.1:{port}");
    let dist = dev_dist(project);
    std::fs::create_dir_all(&dist)?;
    // Ctrl-C goes to the whole foreground group: both children stop, and this command waits for them.
    ctrlc::set_handler(|| {}).ok();
    let api = stopped_with_xtask(&mut project.command(&server))
        .arg("serve")
        .args(["--listen", API_ADDRESS, "--public-url", &studio])
        // the page's origin when it is opened as localhost rather than 127.0.0.1
        .args(["--allow-origin", &format!("http://localhost:{port}")])
        .arg("--data-dir")
        .arg(data_dir.unwrap_or_else(|| project.target().join("vstage-dev-data")))
        .arg("--dist")
        .arg(&dist)
        // Trunk builds and serves the widget; this server answers /api and /sandbox only
        .args(["--skip-check", "widget"])
        .spawn()
        .with_context(|| format!("cannot start {}", server.display()))?;
    let _api = StopOnDrop(api);
    println!("    studio: {studio} (first build takes a minute; each change rebuilds and reloads the page)");
    // The debug build goes to its own folder: `dist/` keeps the release build the other commands serve.
    project::run(
        "trunk serve (Ctrl-C stops it and vstage serve)",
        stopped_with_xtask(project.trunk().args(["serve", "--port", &port.to_string()]).arg("--dist").arg(&dist)),
    )
}

/// `command`, set to receive SIGTERM when this process ends, however it ends: killed or stopped by a test's time
/// limit, it leaves no server behind on 127.0.0.1:8787 for the next `cargo xtask dev` to find taken.
fn stopped_with_xtask(command: &mut std::process::Command) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure only makes one system call, which allocates nothing.
    unsafe {
        command.pre_exec(|| {
            nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGTERM).map_err(std::io::Error::from)
        })
    }
}

/// `trunk serve`'s output, apart from the release build in `dist/`.
pub fn dev_dist(project: &Project) -> PathBuf {
    project.target().join("widget-dev")
}

/// A child process stopped when the command ends, however it ends.
struct StopOnDrop(Child);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
