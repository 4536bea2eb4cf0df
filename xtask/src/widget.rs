//! The widget's build through Trunk, and Trunk's post_build hook (`cargo xtask split-widget`, see `Trunk.toml`).
//!
//! `trunk build --release` runs cargo with the `wasm-release` profile (where `build.rs` turns the `chunk!`s into
//! split points and keeps the linker's relocations), then wasm-bindgen on the whole module, then this hook. Trunk has
//! no step between cargo and wasm-bindgen, and wasm-split must read the relocations before wasm-bindgen rewrites the
//! module, so the hook starts again from cargo's output: wasm-split cuts it into chunks, then wasm-bindgen,
//! wasm-opt, content-hashed names and precompression, in Trunk's staging folder in place of Trunk's unsplit files.
//! The result is kept under the module's hash, so building an unchanged widget again costs seconds.
//!
//! For a debug build (`trunk serve`) the hook only writes `embed.js`, which `vstage serve` answers in production.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

use crate::first_load;
use crate::precompress::{precompress, precompress_files};
use crate::project::{self, Project};
use crate::split_loader::Loader;
use crate::{chunk_groups, screen_chunks, setup, short_imports, size_diff};

/// The widget's binary; its glue is `vstage-widget-<hash>.js`, which `/embed.js` finds.
const WIDGET: &str = "vstage-widget";
/// The cargo profile of `trunk build --release` (`www/index.html`'s `data-cargo-profile-release`).
const PROFILE: &str = "wasm-release";

/// `trunk build --release` into `dist/`.
pub fn build(project: &Project) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    project::run("building the widget (trunk build --release)", project.trunk().args(["build", "--release"]))?;
    built(project, started);
    Ok(())
}

/// The cargo build that `trunk build --release` starts (`www/index.html` names the binary and its profile), started
/// ahead of Trunk with the same arguments and environment, so that Trunk's own run of it finds everything compiled.
/// It needs none of the tools, so `cargo xtask run` starts it while they install; its output goes to `log`.
pub fn compile_ahead(project: &Project, log: &Path) -> anyhow::Result<()> {
    let manifest = project.root.join("Cargo.toml");
    let mut cargo = project.cargo();
    cargo.args(["build", "--target=wasm32-unknown-unknown", "--manifest-path"]).arg(manifest);
    cargo.args(["--profile", PROFILE, "--locked", "--bin", WIDGET]);
    project::run_into_log("compiling the widget (cargo, wasm-release)", &mut cargo, log)
}

/// [`build`] with Trunk's output in `log`, for a build that goes on beside other work.
pub fn build_into_log(project: &Project, log: &Path) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    project::run_into_log(
        "building the widget (trunk build --release)",
        project.trunk().args(["build", "--release"]),
        log,
    )?;
    built(project, started);
    Ok(())
}

fn built(project: &Project, started: std::time::Instant) {
    println!("    widget: built in {:.1} s into {}", started.elapsed().as_secs_f64(), project.dist().display());
}

/// Trunk's post_build hook: what Trunk's environment says it built, finished in its staging folder.
pub fn hook(project: &Project) -> anyhow::Result<()> {
    let staging = std::env::var_os("TRUNK_STAGING_DIR").map(PathBuf::from).context(
        "split-widget is Trunk's post_build hook (Trunk.toml); build the widget with `trunk build --release` or \
         `cargo xtask run`",
    )?;
    let trunk_files = trunk_output(&staging)?;
    if std::env::var("TRUNK_PROFILE").as_deref() != Ok("release") {
        let glue = trunk_files.iter().find(|name| name.ends_with(".js")).context("Trunk's glue in the staging")?;
        return std::fs::write(staging.join("embed.js"), dev_embed_script(glue)).context("writing embed.js");
    }
    let built = project.target().join("wasm32-unknown-unknown").join(PROFILE).join(format!("{WIDGET}.wasm"));
    let widget =
        std::fs::read(&built).with_context(|| format!("reading cargo's build of the widget, {}", built.display()))?;
    let files = split_build(project, &widget)?;
    for name in &trunk_files {
        let path = staging.join(name);
        if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) }
            .with_context(|| format!("removing Trunk's unsplit {name}"))?;
    }
    first_load::check_budget(&files)?;
    copy_tree(&files, &staging).context("copying the split widget into Trunk's staging folder")?;
    precompress_files(&[staging.join("index.html")])
}

/// Trunk's own files for the widget in a staging folder: its unsplit glue and wasm, and wasm-bindgen's snippets.
fn trunk_output(staging: &Path) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(staging).with_context(|| format!("reading {}", staging.display()))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name == "snippets"
            || (name.starts_with(&format!("{WIDGET}-")) && (name.ends_with(".js") || name.ends_with("_bg.wasm")))
        {
            names.push(name);
        }
    }
    if !names.iter().any(|name| name.ends_with(".js")) {
        bail!(
            "Trunk's staging folder {} holds no {WIDGET}-*.js; is Trunk.toml's page still www/index.html?",
            staging.display()
        );
    }
    Ok(names)
}

/// For `trunk serve`: what `vstage serve`'s `/embed.js` does, for Trunk's unsplit glue.
fn dev_embed_script(glue: &str) -> String {
    let wasm = format!("{}_bg.wasm", glue.trim_end_matches(".js"));
    format!(
        "// vstage (debug build, trunk serve): defines <vstage-widget>.\n\
         const glue = await import(new URL(\"./{glue}\", import.meta.url).href);\n\
         await glue.default({{ module_or_path: new URL(\"./{wasm}\", import.meta.url) }});\n"
    )
}

/// The shared table of fetches `/embed.js` started early, by address (`crates/server/src/site/embed.rs`).
const PRELOADS: &str = r#"Symbol.for("vstage.widget.preloads")"#;

/// wasm-split's loader with each chunk's fetch first looking for the one `/embed.js` started for the element's first
/// screen (taken once: a later try fetches anew).
fn take_preloads(loader: &str, modules: usize) -> anyhow::Result<String> {
    let fetch = "const src = fetch(new URL(";
    if loader.matches(fetch).count() != modules {
        bail!("wasm-split's loader does not fetch each chunk with `{fetch}`; the widget build needs updating");
    }
    let helper = format!(
        "// vstage: a fetch /embed.js started early, taken once, else a new one.\n\
         function preloadedOrFetch(url) {{\n    \
             const preloads = globalThis[{PRELOADS}];\n    \
             const response = preloads?.get(url.href);\n    \
             if (response === undefined) return fetch(url);\n    \
             preloads.delete(url.href);\n    \
             return response;\n\
         }}\n"
    );
    Ok(format!("{}\n{helper}", loader.replace(fetch, "const src = preloadedOrFetch(new URL(")))
}

/// The split widget's files for this module, built once per module and build of this xtask (whose splitting,
/// grouping and lists may have changed): `target/widget/files`.
fn split_build(project: &Project, widget: &[u8]) -> anyhow::Result<PathBuf> {
    let work = project.target().join("widget");
    let hash = short_hash(widget);
    let files = work.join("files");
    let built_for = work.join("built-for");
    let made_by = std::env::current_exe().and_then(std::fs::metadata).and_then(|xtask| xtask.modified());
    let key = format!("{hash} {:?}", made_by.ok());
    if std::fs::read_to_string(&built_for).is_ok_and(|kept| kept == key) && files.is_dir() {
        println!("    widget: module {hash} already split, kept in {}", files.display());
        return Ok(files);
    }
    let started = std::time::Instant::now();
    let _ = std::fs::remove_file(&built_for);
    let files = fresh_dir(&files)?;
    let glue = format!("{WIDGET}-{hash}");
    let link = format!("vstage-split-{hash}.js");
    let main = split_main(project);
    let split_dir = fresh_dir(main.parent().context("the split folder")?)?;
    let mut options = wasm_split_cli_support::Options::new(widget);
    let main_module = format!("./{glue}.js");
    let link_name = format!("./{link}");
    options.output_dir = &split_dir;
    options.main_out_path = &main;
    options.main_module = &main_module;
    options.link_name = &link_name;
    let split = wasm_split_cli_support::transform(options)
        .map_err(|error| anyhow::anyhow!("{error:#}"))
        .context("splitting the widget's wasm into chunks (wasm-split); was it built by `trunk build --release`?")?;

    let text = std::fs::read_to_string(split_dir.join(&link)).context("reading wasm-split's loader")?;
    let mut loader = Loader::parse(&text)?;
    let chunks = split.split_modules.len();
    chunk_groups::regroup(&mut loader, &split_dir)?;
    // The same list with the modules' names before hashing, for `cargo xtask size-diff --screen`.
    let unhashed = serde_json::to_string_pretty(&screen_chunks::screens(&loader)?)?;
    std::fs::write(split_dir.join(size_diff::SCREENS), unhashed)?;
    // The modules get the build's hash in their names, so they are cached for good like the rest.
    let mut optimisations = Vec::new();
    for module in &mut loader.modules {
        let hashed = format!("{}-{hash}.wasm", module.file.trim_end_matches(".wasm"));
        optimisations.push((split_dir.join(&module.file), files.join(&hashed)));
        module.rename_file(&hashed);
    }
    let screens = serde_json::to_string_pretty(&screen_chunks::screens(&loader)?)?;
    std::fs::write(files.join(&link), take_preloads(&loader.render(), loader.modules.len())?)?;

    wasm_bindgen(project, &main, &files, &glue)?;
    let main_module = files.join(format!("{glue}_bg.wasm"));
    let glue_file = files.join(format!("{glue}.js"));
    let (module, glue_text) =
        short_imports::shorten(&std::fs::read(&main_module)?, &std::fs::read_to_string(&glue_file)?, &glue)?;
    std::fs::write(&main_module, module)?;
    std::fs::write(&glue_file, glue_text)?;
    minify(project, &files, &[&glue_file, &files.join(&link)])?;
    optimisations.push((main_module.clone(), main_module));
    wasm_opt_all(project, &optimisations)?;
    precompress(&files)?;
    // Read by the server, never sent compressed: written after the precompression.
    std::fs::write(files.join(screen_chunks::MANIFEST), screens)?;
    std::fs::write(&built_for, &key)?;
    println!(
        "    widget: {chunks} chunks regrouped into {} modules, split, bound and optimised in {:.1} s",
        loader.modules.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(files)
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

/// esbuild's `--minify` on these scripts, in place: shorter local names, no spaces or comments (the glue 8.8 KB to
/// 6.2 KB gzip). Their imports, exports and the import object's keys stay as they are.
fn minify(project: &Project, folder: &Path, scripts: &[&Path]) -> anyhow::Result<()> {
    project::run(
        "minifying the glue and the loader (esbuild)",
        project
            .command(setup::esbuild_bin(project))
            .args(scripts)
            .args(["--minify", "--log-level=error", "--allow-overwrite"])
            .arg(format!("--outdir={}", folder.display())),
    )
}

/// wasm-opt -Oz on each `(input, output)`, with the binaryen that `cargo xtask setup` installed, through its JS API
/// (`wasm_opt.mjs`): one process for many modules instead of one each, which takes a tenth of the time. As many
/// processes as the machine has cores, each with every n-th module.
fn wasm_opt_all(project: &Project, modules: &[(PathBuf, PathBuf)]) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let binaryen = project.tools_dir().join("binaryen").join("node_modules").join("binaryen").join("index.js");
    let workers = std::thread::available_parallelism().map_or(2, |cores| cores.get()).min(modules.len());
    let mut processes = Vec::new();
    for worker in 0..workers {
        let share: Vec<&(PathBuf, PathBuf)> = modules.iter().skip(worker).step_by(workers).collect();
        let process = project
            .command("node")
            .args(["--input-type=module", "--eval", include_str!("wasm_opt.mjs")])
            .arg(&binaryen)
            .arg(serde_json::to_string(&share)?)
            .stderr(Stdio::piped())
            .spawn()
            .context("could not start node for wasm-opt; `cargo xtask setup` installs it")?;
        processes.push(process);
    }
    for process in processes {
        let output = process.wait_with_output()?;
        // binaryen does not know the name subsection for data segments that LLVM writes, and says so per module
        String::from_utf8_lossy(&output.stderr)
            .lines()
            .filter(|line| !line.contains("unknown name subsection"))
            .for_each(|line| eprintln!("{line}"));
        let status = output.status;
        if !status.success() {
            bail!("wasm-opt -Oz (binaryen's JS API) failed ({status})");
        }
    }
    println!("    wasm-opt -Oz: {} modules in {:.1} s", modules.len(), started.elapsed().as_secs_f64());
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `compile_ahead` and the hook name the binary and profile Trunk builds: the page must say the same.
    #[test]
    fn the_page_names_the_binary_and_profile_built_ahead() {
        let page = std::fs::read_to_string(Project::locate().unwrap().root.join("www/index.html")).unwrap();
        assert!(page.contains(&format!("data-bin=\"{WIDGET}\"")), "{page}");
        assert!(page.contains(&format!("data-cargo-profile-release=\"{PROFILE}\"")), "{page}");
    }
}
