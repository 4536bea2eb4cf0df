//! The widget's release build into `dist/`: cargo, then wasm-split into chunks at the `chunk!` functions (so the
//! first load carries the shell and the renders list only, and the mask editor comes when it opens), wasm-bindgen,
//! wasm-opt, content-hashed names and precompression.
//!
//! This is what cargo-leptos does for split builds; Trunk cannot do it, as it has no step between cargo and
//! wasm-bindgen, and wasm-split must read the linker's relocations before wasm-bindgen rewrites the module.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

use crate::precompress::precompress;
use crate::project::{self, Project};

/// The widget's module; its glue is `vstage-widget-<hash>.js`, which `/embed.js` finds.
const WIDGET: &str = "vstage-widget";
/// `erase_components` as in `.cargo/config.toml` (RUSTFLAGS replaces it), `vstage_split` makes `chunk!`s split,
/// wasm-split needs the relocations, and warnings fail the build: clippy never sees the code `vstage_split` turns on.
const RUSTFLAGS: &str = "--cfg erase_components --cfg vstage_split -Clink-args=--emit-relocs -Dwarnings";

/// Builds the widget into `dist/`, replacing what was there once everything is built.
pub fn build(project: &Project) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    project::run(
        "building the widget (cargo build --profile wasm-release)",
        project
            .cargo()
            .args(["build", "--locked", "--profile", "wasm-release", "--target", "wasm32-unknown-unknown"])
            .args(["-p", "vstage", "--bin", WIDGET])
            .env("RUSTFLAGS", RUSTFLAGS),
    )?;
    let built = project.target().join("wasm32-unknown-unknown").join("wasm-release");
    let work = fresh_dir(&project.target().join("widget"))?;
    let stage = fresh_dir(&work.join("dist"))?;

    let widget = std::fs::read(built.join(format!("{WIDGET}.wasm"))).context("reading the built widget")?;
    let hash = short_hash(&widget);
    let glue = format!("{WIDGET}-{hash}");
    let link = format!("vstage-split-{hash}.js");
    let main = split_main(project);
    let split_dir = main.parent().context("the split folder")?.to_path_buf();
    let mut options = wasm_split_cli_support::Options::new(&widget);
    let main_module = format!("./{glue}.js");
    let link_name = format!("./{link}");
    options.output_dir = &split_dir;
    options.main_out_path = &main;
    options.main_module = &main_module;
    options.link_name = &link_name;
    let split = wasm_split_cli_support::transform(options)
        .map_err(|error| anyhow::anyhow!("{error:#}"))
        .context("splitting the widget's wasm into chunks (wasm-split)")?;

    // The chunks get the build's hash in their names, so they are cached for good like the rest.
    let mut loader = std::fs::read_to_string(split_dir.join(&link)).context("reading wasm-split's loader")?;
    for chunk in &split.split_modules {
        let name = file_name(chunk)?;
        let hashed = format!("{}-{hash}.wasm", name.trim_end_matches(".wasm"));
        let reference = format!("\"./{name}\"");
        if !loader.contains(&reference) {
            bail!("wasm-split's loader does not name {name}; the widget build needs updating for this wasm-split");
        }
        loader = loader.replace(&reference, &format!("\"./{hashed}\""));
        wasm_opt(project, chunk, &stage.join(hashed))?;
    }
    std::fs::write(stage.join(&link), loader)?;

    wasm_bindgen(project, &main, &stage, &glue)?;
    let main_module = stage.join(format!("{glue}_bg.wasm"));
    wasm_opt(project, &main_module, &main_module)?;
    std::fs::copy(project.root.join("www").join("index.html"), stage.join("index.html"))
        .context("copying www/index.html")?;
    precompress(&stage)?;

    let dist = fresh_dir(&project.dist())?;
    copy_tree(&stage, &dist).with_context(|| format!("copying the build into {}", dist.display()))?;
    println!(
        "    widget: {} split chunks, built in {:.1} s into {}",
        split.split_modules.len(),
        started.elapsed().as_secs_f64(),
        dist.display()
    );
    Ok(())
}

/// wasm-split's main module: the first load's wasm before wasm-bindgen and wasm-opt, with its names.
pub fn split_main(project: &Project) -> PathBuf {
    project.target().join("widget").join("split").join("main.wasm")
}

/// wasm-bindgen's ES module glue for the browser, keeping the exports the chunks link against.
fn wasm_bindgen(project: &Project, wasm: &Path, out_dir: &Path, name: &str) -> anyhow::Result<()> {
    project::run(
        &format!("wasm-bindgen ({name})"),
        project
            .command("wasm-bindgen")
            .args(["--target", "web", "--no-typescript", "--keep-lld-exports", "--no-demangle", "--out-name", name])
            .arg("--out-dir")
            .arg(out_dir)
            .arg(wasm),
    )
}

/// wasm-opt for size, from the binaryen that `cargo xtask setup` installed.
fn wasm_opt(project: &Project, input: &Path, output: &Path) -> anyhow::Result<()> {
    project::run(
        &format!("wasm-opt -Oz ({})", file_name(output)?),
        project.command("wasm-opt").args(["-Oz", "--enable-reference-types"]).arg(input).arg("--output").arg(output),
    )
}

/// The first 16 hex digits of the SHA-256 of the built wasm: one build, one name for all its files.
fn short_hash(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..8])
}

fn fresh_dir(path: &Path) -> anyhow::Result<PathBuf> {
    if path.exists() {
        std::fs::remove_dir_all(path).with_context(|| format!("removing {}", path.display()))?;
    }
    std::fs::create_dir_all(path).with_context(|| format!("creating {}", path.display()))?;
    Ok(path.to_path_buf())
}

/// Copies a folder's files and sub-folders (wasm-bindgen's `snippets/`) into another.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

fn file_name(path: &Path) -> anyhow::Result<String> {
    path.file_name()
        .and_then(|name| name.to_str())
        .map(str::to_string)
        .with_context(|| format!("{} has no file name", path.display()))
}
