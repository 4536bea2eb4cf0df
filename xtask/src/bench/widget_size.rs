//! The embedded widget's first load as `vstage serve` sends it (`/embed.js`, the glue, its snippets and the wasm,
//! the styles being inside the wasm), with brotli, gzip and none; the wasm's largest contributors; the time from
//! `embed.js` to `vstage-ready` and to the first screen in headless Chromium, on loopback and on an emulated slow
//! connection. Builds the widget first so the figures are of the current code.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, bail};

use super::Report;
use super::report::Measure;
use super::sandbox_http::release_binary;
use super::studio::browser_figures;
use crate::first_load;
use crate::project::Project;
use crate::vstage_process::VstageProcess;
use crate::widget;

/// How many contributors to the wasm the report lists.
const CONTRIBUTORS: usize = 15;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    build_once(project)?;
    first_load(project, report)?;
    contributors(project, report)?;
    browser_figures(project, report, "binary(browser) & test(/^figures::widget_/)")
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
    use wasmparser::{Name, Parser, Payload};

    let mut imported = 0u32;
    let mut bodies: Vec<u64> = Vec::new();
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut data = 0u64;
    for payload in Parser::new(0).parse_all(wasm) {
        match payload? {
            Payload::ImportSection(imports) => {
                for import in imports.into_imports() {
                    if matches!(import?.ty, wasmparser::TypeRef::Func(_)) {
                        imported += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body.range().end - body.range().start),
            Payload::DataSection(section) => {
                for segment in section {
                    data += segment?.data.len() as u64;
                }
            }
            Payload::CustomSection(section) => {
                if let wasmparser::KnownCustom::Name(reader) = section.as_known() {
                    for name in reader {
                        if let Ok(Name::Function(map)) = name {
                            for naming in map {
                                let naming = naming?;
                                names.insert(naming.index, naming.name.to_string());
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if names.is_empty() {
        bail!("the wasm has no names section; build it with the wasm-release profile (names are kept before wasm-opt)");
    }
    let mut sizes: HashMap<String, u64> = HashMap::new();
    for (index, size) in bodies.into_iter().enumerate() {
        let name = format!("{:#}", rustc_demangle::demangle(names.get(&(imported + index as u32)).map_or("", |n| n)));
        if !removed_by_wasm_bindgen(&name) {
            *sizes.entry(crate_of(&name)).or_default() += size;
        }
    }
    sizes.insert("data (strings, tables)".to_string(), data);
    Ok(sizes)
}

/// wasm-bindgen's descriptions of the types that cross to JavaScript: it runs them at build time and removes them
/// (a third of the main module's code before wasm-bindgen).
fn removed_by_wasm_bindgen(demangled: &str) -> bool {
    demangled.contains("wasm_bindgen::describe::") || demangled.starts_with("__wbindgen_describe")
}

/// The crate a function belongs to: the first path segment of its demangled name, looking through `<impl ...>`,
/// `<T as Trait>`, references and hashes (`core[1a2b]`).
fn crate_of(demangled: &str) -> String {
    let mut rest = demangled.trim_start_matches(['<', '&', '*', '(', ' ']);
    for prefix in ["mut ", "const ", "dyn ", "impl "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let segment: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    match segment.as_str() {
        "" => "(unnamed: glue and shims)".to_string(),
        "bool" | "char" | "str" | "f32" | "f64" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16"
        | "i32" | "i64" | "i128" | "isize" => "core".to_string(),
        s if s.chars().next().is_some_and(|c| c.is_uppercase()) || s.len() <= 2 => "(generic: T as Trait)".to_string(),
        s => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{crate_of, removed_by_wasm_bindgen};

    #[test]
    fn functions_are_put_to_their_crates() {
        assert_eq!(crate_of("reactive::graph::run"), "reactive");
        assert_eq!(crate_of("core::fmt::write"), "core");
        assert_eq!(
            crate_of("<&mut serde_json::de::Deserializer<R> as serde::Deserializer>::deserialize_seq"),
            "serde_json"
        );
        assert_eq!(crate_of("<T as tachys::view::any_view::IntoAny>::into_any"), "(generic: T as Trait)");
        assert_eq!(crate_of("core[c5930c85a12de822]::fmt::float::float_to_decimal_common_exact::<f64>"), "core");
        assert_eq!(crate_of("<f64 as core::str::traits::FromStr>::from_str"), "core");
        assert_eq!(crate_of(""), "(unnamed: glue and shims)");
    }

    #[test]
    fn what_wasm_bindgen_removes_is_not_counted() {
        assert!(removed_by_wasm_bindgen("<js_sys::Intl::Collator as wasm_bindgen::describe::WasmDescribe>::describe"));
        assert!(removed_by_wasm_bindgen("__wbindgen_describe___wbg_content_6fed93ca1fd29f06"));
        assert!(!removed_by_wasm_bindgen("js_sys::futures::future_to_promise"));
    }
}
