//! `cargo xtask run`: set-up, the widget's release build (Trunk), the server, then `vstage serve` in sandbox mode.
//! Ctrl-C reaches the server too (same process group); it stops cleanly and so does this command.

use std::net::SocketAddr;

use crate::project::{self, Project};
use crate::setup::{self, Purpose};
use crate::{server, widget};

pub fn run(project: &Project, listen: SocketAddr) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    setup::ensure(project, Purpose::Build)?;
    widget::build(project)?;
    let server = server::build(project)?;
    println!("    studio ready to start after {:.1} s", started.elapsed().as_secs_f64());
    // Ctrl-C goes to the whole foreground group: the server stops gracefully, and this command waits for it
    // instead of dying first.
    ctrlc::set_handler(|| {}).ok();
    project::run(
        "vstage serve (open the address below; Ctrl-C stops it)",
        project
            .command(server)
            .arg("serve")
            .arg("--listen")
            .arg(listen.to_string())
            .arg("--dist")
            .arg(project.dist())
            .arg("--data-dir")
            .arg(project.target().join("vstage-data")),
    )
}
