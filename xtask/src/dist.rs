//! `cargo xtask dist`: a release. The server's release build (the `release` profile: fat LTO) and the widget's
//! release build (the one `cargo xtask run` and `test browser` serve) laid out in one folder,
//! `target/dist/vstage-VERSION-TARGET/`, with the recipes of `deploy/` and the operator's docs, and a `.tar.gz` of
//! it. The binary finds the widget beside it (`share/vstage/widget` next to `bin/vstage`, the server's default
//! `--dist`), so the folder's server starts with the folder's widget from wherever it is started; before packing,
//! the folder's own `vstage check` proves it.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::project::{self, Project};
use crate::setup::{self, Purpose};
use crate::widget;

/// The binary, from the release's folder.
pub const BINARY: &str = "bin/vstage";
/// The widget, from the release's folder: where the server looks beside its binary (`crates/server/src/cli.rs`).
pub const WIDGET: &str = "share/vstage/widget";
/// What a release takes from the repository as it is: (path in the repository, path in the release).
const FROM_THE_REPOSITORY: &[(&str, &str)] = &[
    ("deploy/README.md", "deploy/README.md"),
    ("deploy/vstage.service", "deploy/vstage.service"),
    ("deploy/Containerfile", "deploy/Containerfile"),
    ("deploy/vstage.toml", "deploy/vstage.toml"),
    ("docs/deploy.md", "docs/deploy.md"),
    ("docs/server.md", "docs/server.md"),
    ("docs/embedding.md", "docs/embedding.md"),
];

pub fn run(project: &Project) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let server = std::thread::scope(|scope| {
        let server = scope.spawn(|| release_server(project));
        let widget = build_widget(project);
        let server = server.join().unwrap_or_else(|_| Err(anyhow::anyhow!("building the server panicked")));
        widget.and(server)
    })?;
    let name = format!("vstage-{}-{}", version(&server)?, host_target(project)?);
    let releases = project.target().join("dist");
    let folder = releases.join(&name);
    assemble(&project.root, &server, &project.dist(), &folder)?;
    checked(&folder, &releases.join(format!("{name}.check")))?;
    let archive = releases.join(format!("{name}.tar.gz"));
    pack(&folder, &name, &archive)?;
    println!("    release built in {:.1} s:", started.elapsed().as_secs_f64());
    println!("    {}\n    {}", folder.display(), archive.display());
    Ok(())
}

/// The widget's release build into `dist/`, as `cargo xtask run` makes it (the tools installed first).
fn build_widget(project: &Project) -> anyhow::Result<()> {
    setup::wasm_target(project)?;
    setup::ensure(project, Purpose::Build)?;
    widget::build(project)
}

/// `cargo build --release` of the server: the binary.
fn release_server(project: &Project) -> anyhow::Result<PathBuf> {
    let log = project.target().join("server-release-build.log");
    let mut build = project.cargo();
    build.args(["build", "--release", "--locked", "-p", "vstage-server", "--bin", "vstage"]);
    build.args(["--features", crate::server::CONTENT_CREDENTIALS]);
    project::run_into_log("building the server (release)", &mut build, &log)?;
    Ok(project.target().join("release").join("vstage"))
}

/// The version the binary says it is (`vstage 0.1.0`).
fn version(server: &Path) -> anyhow::Result<String> {
    let said = project::output_line(Command::new(server).arg("--version")).context("`vstage --version` failed")?;
    said.strip_prefix("vstage ").map(str::to_string).with_context(|| format!("`vstage --version` said {said:?}"))
}

/// The target triple rustc builds for here (`x86_64-unknown-linux-gnu`).
fn host_target(project: &Project) -> anyhow::Result<String> {
    let output = project.command("rustc").arg("-vV").output().context("running rustc -vV")?;
    let said = String::from_utf8_lossy(&output.stdout);
    said.lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .context("rustc -vV names no host target")
}

/// Lays out the release in `folder` (emptied first): `binary` as `bin/vstage`, the built widget of `widget` in
/// `share/vstage/widget`, the recipes and docs from `root`, and the release's README.
pub fn assemble(root: &Path, binary: &Path, widget: &Path, folder: &Path) -> anyhow::Result<()> {
    if !widget.join("index.html").is_file() {
        bail!("{} holds no built widget (index.html)", widget.display());
    }
    if folder.exists() {
        std::fs::remove_dir_all(folder).with_context(|| format!("emptying {}", folder.display()))?;
    }
    copy(binary, &folder.join(BINARY))?;
    copy_tree(widget, &folder.join(WIDGET))?;
    for (from, to) in FROM_THE_REPOSITORY {
        copy(&root.join(from), &folder.join(to))?;
    }
    // deploy/README.md at the top, its links (to ../docs/..., ../deploy/...) made from there
    let readme = std::fs::read_to_string(root.join("deploy/README.md")).context("reading deploy/README.md")?;
    std::fs::write(folder.join("README.md"), readme.replace("](../", "](")).context("writing the README")?;
    Ok(())
}

fn copy(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to.parent().context("a file in a folder")?)?;
    std::fs::copy(from, to).with_context(|| format!("copying {} to {}", from.display(), to.display()))?;
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(entry.file_name()))?;
        } else {
            copy(&path, &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// The folder's own `vstage check`, started from `scratch` (made and removed) with no `--dist`: it must find the
/// folder's widget.
fn checked(folder: &Path, scratch: &Path) -> anyhow::Result<()> {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch)?;
    let mut check = Command::new(folder.join(BINARY));
    check.args(["check", "--data-dir", "data"]).current_dir(scratch);
    // nothing of this shell's settings (a VSTAGE_DIST would hide what is proved)
    for (name, _) in std::env::vars_os().filter(|(name, _)| name.to_string_lossy().starts_with("VSTAGE_")) {
        check.env_remove(name);
    }
    let result = project::run("the release's vstage check (its widget found beside it)", &mut check);
    let _ = std::fs::remove_dir_all(scratch);
    result
}

/// `folder` as `archive`, a gzipped tar whose one top folder is `name`.
fn pack(folder: &Path, name: &str, archive: &Path) -> anyhow::Result<()> {
    let file = std::fs::File::create(archive).with_context(|| format!("creating {}", archive.display()))?;
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::best()));
    tar.append_dir_all(name, folder).with_context(|| format!("packing {}", folder.display()))?;
    tar.into_inner()?.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{BINARY, WIDGET, assemble};

    fn root() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
    }

    /// A release made of a stand-in binary and widget.
    fn release() -> tempfile::TempDir {
        let scratch = tempfile::tempdir().unwrap();
        let (binary, widget) = (scratch.path().join("vstage"), scratch.path().join("widget"));
        std::fs::write(&binary, "#!/bin/sh\n").unwrap();
        std::fs::create_dir_all(widget.join("assets")).unwrap();
        std::fs::write(widget.join("index.html"), "<!doctype html>").unwrap();
        std::fs::write(widget.join("assets/vstage-widget-0123_bg.wasm"), b"\0asm").unwrap();
        let folder = tempfile::tempdir().unwrap();
        assemble(root(), &binary, &widget, folder.path()).unwrap();
        folder
    }

    #[test]
    fn a_release_holds_the_binary_the_widget_the_recipes_and_a_readme_whose_links_lead_inside() {
        let folder = release();
        let folder = folder.path();
        for path in [BINARY, "share/vstage/widget/index.html", "share/vstage/widget/assets/vstage-widget-0123_bg.wasm"]
        {
            assert!(folder.join(path).is_file(), "{path}");
        }
        for path in
            ["deploy/vstage.service", "deploy/Containerfile", "deploy/vstage.toml", "docs/deploy.md", "README.md"]
        {
            assert!(folder.join(path).is_file(), "{path}");
        }
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        let links: Vec<&str> = readme.split("](").skip(1).map(|rest| rest.split([')', '#']).next().unwrap()).collect();
        assert!(!links.is_empty());
        for link in links.iter().filter(|link| !link.starts_with("http")) {
            assert!(folder.join(link).exists(), "the README's {link} is not in the release");
        }
    }

    #[test]
    fn what_the_container_copies_and_the_unit_starts_is_in_the_release() {
        let folder = release();
        let recipe = std::fs::read_to_string(root().join("deploy/Containerfile")).unwrap();
        let copies: Vec<&str> = recipe.lines().filter_map(|line| line.strip_prefix("COPY ")).collect();
        assert!(copies.len() >= 2, "{copies:?}");
        for copy in copies {
            let source = copy.split_whitespace().next().unwrap();
            assert!(folder.path().join(source).exists(), "COPY {source}: not in the release");
        }
        let unit = std::fs::read_to_string(root().join("deploy/vstage.service")).unwrap();
        let start = unit.lines().find_map(|line| line.strip_prefix("ExecStart=")).expect("ExecStart=");
        let program = start.split_whitespace().next().unwrap();
        let installed = program.strip_prefix("/opt/vstage/").expect("the unit starts the release in /opt/vstage");
        assert_eq!(installed, BINARY);
    }

    #[test]
    fn the_server_looks_for_its_widget_where_the_release_puts_it() {
        let cli = std::fs::read_to_string(root().join("crates/server/src/cli.rs")).unwrap();
        assert!(cli.contains(&format!("WIDGET_BESIDE_THE_BINARY: &str = \"{WIDGET}\"")), "cli.rs and dist.rs agree");
        assert!(Path::new(BINARY).parent().is_some_and(|bin| bin == Path::new("bin")), "the widget is ../{WIDGET}");
    }
}
