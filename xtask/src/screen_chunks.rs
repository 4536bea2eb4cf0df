//! Which files each screen needs: read from wasm-split's loader, written to `dist/vstage-screens.json` for
//! `/embed.js`, which preloads the start screen's files beside the main module (no extra round trip before it shows).
//!
//! wasm-split names a split point's loader `__wasm_split_load_<name>` and the code several split points share
//! `__chunk_<n>`; each fetches one file and waits for its dependencies. A screen's chunk is named after its `view`
//! (`src/app.rs`: `-` as `_`, then `_screen`), so the file maps views to everything their chunk fetches.

use std::collections::{BTreeMap, HashMap};

use anyhow::{Context, bail};

/// The manifest's name in `dist/`; `crates/server/src/site/embed.rs` reads it.
pub const MANIFEST: &str = "vstage-screens.json";

/// Each screen's `view` to the files its chunk fetches (its own first, then its dependencies), from the loader's
/// text with the hashed names.
pub fn screens(loader: &str) -> anyhow::Result<BTreeMap<String, Vec<String>>> {
    let modules = modules(loader)?;
    let mut screens = BTreeMap::new();
    for name in modules.keys() {
        let Some(view) = name.strip_prefix("__wasm_split_load_").and_then(|split| split.strip_suffix("_screen")) else {
            continue;
        };
        let mut files = Vec::new();
        gather(&modules, name, &mut files)?;
        screens.insert(view.replace('_', "-"), files);
    }
    if screens.is_empty() {
        bail!("wasm-split's loader names no screen (`__wasm_split_load_*_screen`); the widget build needs updating");
    }
    Ok(screens)
}

/// A loaded module: its file and the modules it waits for.
struct Module {
    file: String,
    dependencies: Vec<String>,
}

/// The loader's modules by name: each is `[export ]const <name> = ...makeLoad(() => { ... new URL("./<file>", ...)
/// ... }, [<dependencies>])`.
fn modules(loader: &str) -> anyhow::Result<HashMap<String, Module>> {
    let mut modules = HashMap::new();
    let mut current: Option<(String, Option<String>)> = None;
    for line in loader.lines() {
        let declared =
            line.trim_start_matches("export ").strip_prefix("const ").and_then(|rest| rest.split_once(" = "));
        if let Some((name, _)) = declared.filter(|(_, value)| value.contains("makeLoad(")) {
            current = Some((name.to_string(), None));
        } else if let Some((_, file)) = current.as_mut()
            && let Some(rest) = line.split_once("new URL(\"./").map(|(_, rest)| rest)
        {
            *file = rest.split_once('"').map(|(file, _)| file.to_string());
        } else if let Some(list) = line.strip_prefix(", [") {
            let (name, file) = current.take().context("wasm-split's loader lists dependencies outside a module")?;
            let file = file.with_context(|| format!("wasm-split's loader gives {name} no file"))?;
            let list = list.split_once(']').map(|(list, _)| list).unwrap_or_default();
            let dependencies = list.split(',').map(str::trim).filter(|dep| !dep.is_empty()).map(String::from).collect();
            modules.insert(name, Module { file, dependencies });
        }
    }
    Ok(modules)
}

fn gather(modules: &HashMap<String, Module>, name: &str, files: &mut Vec<String>) -> anyhow::Result<()> {
    let module = modules.get(name).with_context(|| format!("wasm-split's loader does not define {name}"))?;
    if files.contains(&module.file) {
        return Ok(());
    }
    files.push(module.file.clone());
    for dependency in &module.dependencies {
        gather(modules, dependency, files)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loader's shape as wasm-split 0.2 writes it.
    const LOADER: &str = r#"
/* account_screen, board_screen */
const __chunk_11 = makeLoad(() => {
    const src = fetch(new URL("./chunk_11-ab.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
const __chunk_12 = makeLoad(() => {
    const src = fetch(new URL("./chunk_12-ab.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_11]);
export const __wasm_split_load_board_screen = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_board_screen-ab.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_11, __chunk_12]));
export const __wasm_split_load_remove_furniture_screen = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_remove_furniture_screen-ab.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []));
export const __wasm_split_load_mask_editor = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_mask_editor-ab.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_12]));
"#;

    #[test]
    fn each_screen_gets_its_file_and_every_dependency_once() {
        let screens = screens(LOADER).unwrap();
        assert_eq!(screens.keys().collect::<Vec<_>>(), ["board", "remove-furniture"], "the mask editor is no screen");
        assert_eq!(screens["board"], ["split_board_screen-ab.wasm", "chunk_11-ab.wasm", "chunk_12-ab.wasm"]);
        assert_eq!(screens["remove-furniture"], ["split_remove_furniture_screen-ab.wasm"]);
    }

    #[test]
    fn a_loader_of_another_shape_is_refused() {
        assert!(screens("export const something = 1;").is_err());
        let unknown = LOADER.replace(", [__chunk_11, __chunk_12]));", ", [__chunk_99]));");
        assert!(screens(&unknown).unwrap_err().to_string().contains("__chunk_99"));
    }
}
