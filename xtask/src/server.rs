//! The `vstage` binary that `cargo xtask run` and `dev` start: the debug build, which compiles in a fraction of
//! the release build's time (no fat LTO) and still processes photos quickly, since the image codecs and the
//! sandbox's imaging are optimised even there (the root `Cargo.toml`'s `[profile.dev.package]`). It is built as the tests
//! build it (the same features, clippy's driver with warnings denied), so after `cargo xtask test` there is
//! nothing to compile.

use std::path::PathBuf;

use crate::project::{self, LintingCargo, Project};

/// Builds the server while `meanwhile` runs (the set-up, the widget's build), and returns the binary with what
/// `meanwhile` returned. The server needs none of the widget's tools, and on a bare machine the widget's path is
/// the longer one, with stretches where one core waits (a tool's final link, the widget's link-time
/// optimisation): the server builds at a lower priority, in what that path leaves of the cores.
pub fn build_while<T>(
    project: &Project,
    meanwhile: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<(PathBuf, T)> {
    let cargo = LintingCargo::locate(project)?;
    let log = project.target().join("server-build.log");
    std::thread::scope(|scope| {
        let server = scope.spawn(|| {
            let mut build = cargo.yielding_command();
            build.args(["build", "--locked", "-p", "vstage-server", "--bin", "vstage"]);
            project::run_into_log("building the server (debug)", &mut build, &log)
        });
        let other = meanwhile();
        let server = server.join().unwrap_or_else(|_| Err(anyhow::anyhow!("building the server panicked")));
        Ok((server.map(|()| project.target().join("debug").join("vstage"))?, other?))
    })
}
