//! `cargo xtask run`: set-up, the widget's release build, then `vstage serve` in sandbox mode.
//! Ctrl-C reaches the server too (same process group); it stops cleanly and so does this command.

use std::net::SocketAddr;

use crate::project::{self, Project};
use crate::setup::{self, Purpose};
use crate::widget;

pub fn run(project: &Project, listen: SocketAddr) -> anyhow::Result<()> {
    setup::ensure(project, Purpose::Build)?;
    widget::build(project)?;
    project::run(
        "building the server (release)",
        project.cargo().args(["build", "--release", "--locked", "-p", "vstage-server"]),
    )?;
    let server = project.target().join("release").join("vstage");
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
