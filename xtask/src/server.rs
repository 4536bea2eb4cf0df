//! The `vstage` binary that `cargo xtask run` and `dev` start: the debug build, which compiles in a fraction of
//! the release build's time (no fat LTO) and still processes photos quickly, since the image codecs and the
//! sandbox's imaging are optimised even there (the root `Cargo.toml`'s `[profile.dev.package]`). It is built as the tests
//! build it (the same features, clippy's driver with warnings denied), so after `cargo xtask test` there is
//! nothing to compile. Content credentials (C2PA, a hundred crates) are left out of a first build, and built in
//! once `cargo xtask test` has compiled them.

use std::path::PathBuf;

use crate::project::{self, LintingCargo, Project};

/// The server's feature that everything which checks or ships builds it with (`cargo xtask test`, `dist`,
/// `bench`), as cargo names it from the workspace.
pub const CONTENT_CREDENTIALS: &str = "vstage-server/content-credentials";

/// Whether the debug build's folder holds the `c2pa` crate compiled already (by `cargo xtask test`): then the server
/// is built with content credentials, as it was for the tests, and nothing compiles again.
fn content_credentials_compiled(project: &Project) -> bool {
    let deps = project.target().join("debug").join("deps");
    std::fs::read_dir(deps).into_iter().flatten().flatten().any(|entry| {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        name.starts_with("libc2pa-") && name.ends_with(".rlib")
    })
}

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
            let what = match content_credentials_compiled(project) {
                true => {
                    build.args(["--features", CONTENT_CREDENTIALS]);
                    "building the server (debug, with content credentials)"
                }
                false => "building the server (debug, without content credentials: `cargo xtask test` builds them)",
            };
            project::run_into_log(what, &mut build, &log)
        });
        let other = meanwhile();
        let server = server.join().unwrap_or_else(|_| Err(anyhow::anyhow!("building the server panicked")));
        Ok((server.map(|()| project.target().join("debug").join("vstage"))?, other?))
    })
}
