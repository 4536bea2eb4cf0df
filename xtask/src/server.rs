//! The `vstage` binary that `cargo xtask run` and `dev` start: the debug build, which compiles in a fraction of
//! the release build's time (no fat LTO) and still processes photos quickly, since the image codecs and the
//! sandbox are optimised even there (the root `Cargo.toml`'s `[profile.dev.package]`). It is built as the tests
//! build it (the same features, clippy's driver with warnings denied), so after `cargo xtask test` there is
//! nothing to compile.

use std::path::PathBuf;

use crate::project::{self, LintingCargo, Project};

pub fn build(project: &Project) -> anyhow::Result<PathBuf> {
    project::run(
        "building the server (debug)",
        LintingCargo::locate(project)?.command().args(["build", "--locked", "-p", "vstage-server", "--bin", "vstage"]),
    )?;
    Ok(project.target().join("debug").join("vstage"))
}
