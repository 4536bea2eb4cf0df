//! The embedded widget's first load as `vstage serve` sends it (`/embed.js`, the glue, its snippets and the wasm,
//! the styles being inside the wasm), with brotli, gzip and none; the wasm's largest contributors; the time from
//! `embed.js` to `vstage-ready` and to the first screen in headless Chromium, on loopback and on an emulated slow
//! connection; and for each screen a host can open first, standalone and embedded, every byte the browser fetches
//! before it is painted (gzip -9), beside the 160 KiB budget (`crates/server/tests/browser/first_screens.rs`).
//! Builds the widget first so the figures are of the current code.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, bail};

use super::Report;
use super::figure_tests::browser_figures;
use super::report::Measure;
use super::sandbox_http::release_binary;
use crate::first_load;
use crate::project::Project;
use crate::vstage_process::VstageProcess;
use crate::wasm_sizes;
use crate::widget;

/// How many contributors to the wasm the report lists.
const CONTRIBUTORS: usize = 15;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    build_once(project)?;
    first_load(project, report)?;
    contributors(project, report)?;
    browser_figures(project, report, "binary(browser) & (test(/^figures::widget_/) | test(/^first_screens::widget_/))")
}

/// Builds the release widget from the sources as they are, once a run: every group that shows it measures that
/// build, never one left from before.
pub fn build_once(project: &Project) -> anyhow::Result<()> {
    static BUILT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !BUILT.load(std::sync::atomic::Ordering::Acquire) {
        widget::build(project)?;
        BUILT.store(true, std::sync::atomic::Ordering::Release);
    }
    Ok(())
}

fn first_load(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let data = project.target().join("bench").join("widget-data");
    let _ = std::fs::remove_dir_all(&data);
    let args =
        ["--data-dir".to_string(), data.display().to_string(), "--dist".into(), project.dist().display().to_string()];
    let server = VstageProcess::start(project, &release_binary(project)?, "serve", &args, &[])?;

    let mut paths = vec!["/embed.js".to_string()];
    paths.extend(first_load::files(&project.dist())?);
    let mut totals: HashMap<&str, u64> = HashMap::new();
    for path in &paths {
        for encoding in ["br", "gzip", "identity"] {
            // The wasm is most of it and must come precompressed; `embed.js` (a few hundred bytes, made by the
            // server) is counted as sent.
            let strict = path.ends_with(".wasm");
            let bytes = served_size(&format!("{}{path}", server.url), encoding, strict)?;
            *totals.entry(encoding).or_default() += bytes;
        }
        println!("    first load: {path}");
    }
    let gzip = totals["gzip"];
    report.add("widget first load, brotli (as served)", Measure::bytes(totals["br"]), None);
    report.add(
        "widget first load, gzip (as served)",
        Measure::bytes(gzip),
        Some(Measure::bytes(first_load::BUDGET_GZIP)),
    );
    report.add("widget first load, uncompressed", Measure::bytes(totals["identity"]), None);

    // The chunks fetched on first use (other screens, the mask editor), all of them, as served with gzip.
    let mut chunks = 0;
    for name in wasm_files(&project.dist())?.into_iter().filter(|name| !paths.contains(&format!("/{name}"))) {
        chunks += served_size(&format!("{}/{name}", server.url), "gzip", true)?;
    }
    report.add("widget chunks loaded on demand, gzip (all of them)", Measure::bytes(chunks), None);
    Ok(())
}

fn wasm_files(dist: &Path) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dist).context("no dist/ after the build")? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".wasm") {
            names.push(name);
        }
    }
    Ok(names)
}

/// The bytes of the answer's body as sent with `Accept-Encoding: encoding` (nothing decoded). `strict`: the answer
/// must come in that encoding.
fn served_size(url: &str, encoding: &str, strict: bool) -> anyhow::Result<u64> {
    let mut answer = ureq::get(url).header("Accept-Encoding", encoding).call().with_context(|| format!("GET {url}"))?;
    let sent = answer.headers().get("content-encoding").and_then(|v| v.to_str().ok()).unwrap_or("identity");
    if strict && sent != encoding {
        bail!("{url} asked with {encoding} came back as {sent}; were the build's precompressed files written?");
    }
    Ok(answer.body_mut().with_config().limit(64 << 20).read_to_vec()?.len() as u64)
}

/// The first load's wasm's largest contributors by crate, and its data, in wasm-split's main module before
/// wasm-bindgen and wasm-opt (which drop the names that say whose code is whose; wasm-opt shrinks every crate's code
/// alike, by about a fifth).
fn contributors(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let wasm = widget::split_main(project);
    let bytes = std::fs::read(&wasm).with_context(|| format!("reading {}", wasm.display()))?;
    let sizes = crate_sizes(&bytes)?;
    let mut ranked: Vec<_> = sizes.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (name, size) in ranked.into_iter().take(CONTRIBUTORS) {
        report.add(format!("wasm contributor (before wasm-opt): {name}"), Measure::bytes(size), None);
    }
    Ok(())
}

/// Code bytes per crate (named by the demangled function names) plus the data segments as `data (strings,
/// tables)`.
fn crate_sizes(wasm: &[u8]) -> anyhow::Result<HashMap<String, u64>> {
    let module = wasm_sizes::module_sizes(wasm)?;
    let mut sizes: HashMap<String, u64> = HashMap::new();
    for (name, size) in module.functions {
        *sizes.entry(wasm_sizes::crate_of(&name)).or_default() += size;
    }
    sizes.insert("data (strings, tables)".to_string(), module.data);
    Ok(sizes)
}
