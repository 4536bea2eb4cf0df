//! The `vstage` binary `cargo xtask run` and `dev` start: the debug build the native tests use too, so a `run`
//! after `test` builds nothing (dependencies that do the heavy work, the image codecs and the sandbox, are
//! optimised even there: the root `Cargo.toml`'s `[profile.dev.package]`).

use std::path::PathBuf;

use crate::project::{self, Project};

pub fn build(project: &Project) -> anyhow::Result<PathBuf> {
    project::run(
        "building the server (cargo build, the tests' profile)",
        project.cargo().args(["build", "--locked", "--workspace", "--tests"]),
    )?;
    Ok(project.target().join("debug").join("vstage"))
}
