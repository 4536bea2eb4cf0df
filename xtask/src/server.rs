//! The `vstage` binary that `cargo xtask run` and `dev` start: the debug build, which compiles in a fraction of
//! the release build's time (no fat LTO) and still processes photos quickly, since the image codecs and the
//! sandbox are optimised even there (the root `Cargo.toml`'s `[profile.dev.package]`). Its dependencies are the
//! ones the native tests built, so a `run` after `test` compiles only our three crates (35 s on 2 cores).

use std::path::PathBuf;

use crate::project::{self, Project};

pub fn build(project: &Project) -> anyhow::Result<PathBuf> {
    project::run(
        "building the server (debug)",
        project.cargo().args(["build", "--locked", "-p", "vstage-server", "--bin", "vstage"]),
    )?;
    Ok(project.target().join("debug").join("vstage"))
}
