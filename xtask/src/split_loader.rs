//! wasm-split's loader (`vstage-split-<hash>.js`) read into its modules and written back: the build regroups the
//! chunks (`chunk_groups.rs`), lists each screen's files (`screen_chunks.rs`) and makes the fetches take what
//! `/embed.js` started early.
//!
//! wasm-split 0.2 writes its helpers, then one block per module: `const __chunk_<n> = makeLoad(...)` for code several
//! split points share (after a `/* users */` comment), `export const __wasm_split_load_<name> =
//! wrapAsyncCb(makeLoad(...))` for each split point; each block fetches one file (`new URL("./<file>", ...)`) and
//! ends with the modules it waits for (`, [<dependencies>]`). A loader of another shape is refused.

use anyhow::{Context, bail};

/// The loader: its helpers, then its modules in order.
#[derive(Debug, Clone)]
pub struct Loader {
    helpers: String,
    pub modules: Vec<LoadedModule>,
}

/// One module the loader fetches.
#[derive(Debug, Clone)]
pub struct LoadedModule {
    /// `__chunk_<n>` or `__wasm_split_load_<split>`.
    pub name: String,
    pub file: String,
    pub dependencies: Vec<String>,
    /// The block as written, from its `const` line to its dependencies (which [`Loader::render`] writes anew).
    body: String,
}

/// The prefix of a split point's loader; what follows is the split point's name.
pub const SPLIT_PREFIX: &str = "__wasm_split_load_";

impl LoadedModule {
    /// The split point this module loads, if it is one (not shared code).
    pub fn split(&self) -> Option<&str> {
        self.name.strip_prefix(SPLIT_PREFIX)
    }

    /// Fetches `file` instead.
    pub fn rename_file(&mut self, file: &str) {
        self.body = self.body.replacen(&format!("\"./{}\"", self.file), &format!("\"./{file}\""), 1);
        self.file = file.to_string();
    }

    /// A shared-code module like `template` (a chunk's block), under another name and file.
    pub fn shared_like(template: &LoadedModule, name: &str, file: &str) -> LoadedModule {
        let body = template.body.replacen(&template.name, name, 1);
        let mut module = LoadedModule { name: name.to_string(), dependencies: Vec::new(), body, ..template.clone() };
        module.rename_file(file);
        module
    }
}

impl Loader {
    pub fn parse(text: &str) -> anyhow::Result<Loader> {
        let mut helpers = String::new();
        let mut modules: Vec<LoadedModule> = Vec::new();
        let mut current: Option<LoadedModule> = None;
        for line in text.lines() {
            let declared = line.trim_start_matches("export ").strip_prefix("const ").and_then(|r| r.split_once(" = "));
            if let Some((name, _)) = declared.filter(|(_, value)| value.contains("makeLoad(")) {
                if let Some(open) = &current {
                    bail!("wasm-split's loader starts {name} inside {}", open.name);
                }
                let (name, body) = (name.to_string(), format!("{line}\n"));
                current = Some(LoadedModule { name, file: String::new(), dependencies: Vec::new(), body });
            } else if let Some(module) = current.as_mut() {
                if let Some(list) = line.strip_prefix(", [") {
                    let mut module = current.take().context("a module")?;
                    let list = list.split_once(']').map(|(list, _)| list).unwrap_or_default();
                    module.dependencies =
                        list.split(',').map(str::trim).filter(|dep| !dep.is_empty()).map(String::from).collect();
                    if module.file.is_empty() {
                        bail!("wasm-split's loader gives {} no file", module.name);
                    }
                    modules.push(module);
                } else {
                    if let Some((_, rest)) = line.split_once("new URL(\"./") {
                        module.file = rest.split_once('"').map(|(file, _)| file.to_string()).unwrap_or_default();
                    }
                    module.body.push_str(line);
                    module.body.push('\n');
                }
            } else if modules.is_empty() && !line.starts_with("/*") {
                helpers.push_str(line);
                helpers.push('\n');
            } else if !line.starts_with("/*") && !line.trim().is_empty() {
                bail!("wasm-split's loader has a line outside its modules: {line}");
            }
        }
        if let Some(open) = current {
            bail!("wasm-split's loader ends inside {}", open.name);
        }
        if !modules.iter().any(|module| module.split().is_some()) {
            bail!("wasm-split's loader names no split point (`{SPLIT_PREFIX}*`); the widget build needs updating");
        }
        let loader = Loader { helpers, modules };
        for module in &loader.modules {
            for dependency in &module.dependencies {
                loader.module(dependency)?;
            }
        }
        Ok(loader)
    }

    pub fn module(&self, name: &str) -> anyhow::Result<&LoadedModule> {
        self.modules
            .iter()
            .find(|module| module.name == name)
            .with_context(|| format!("wasm-split's loader does not define {name}"))
    }

    /// The files `name` fetches: its own first, then its dependencies', each once.
    pub fn files_of(&self, name: &str) -> anyhow::Result<Vec<String>> {
        let mut files = Vec::new();
        self.gather(name, &mut files)?;
        Ok(files)
    }

    fn gather(&self, name: &str, files: &mut Vec<String>) -> anyhow::Result<()> {
        let module = self.module(name)?;
        if files.contains(&module.file) {
            return Ok(());
        }
        files.push(module.file.clone());
        for dependency in &module.dependencies {
            self.gather(dependency, files)?;
        }
        Ok(())
    }

    /// The loader's text: the helpers, then each module with its dependencies.
    pub fn render(&self) -> String {
        let mut text = self.helpers.clone();
        for module in &self.modules {
            text.push_str(&module.body);
            let close = if module.split().is_some() { "]));" } else { "]);" };
            text.push_str(&format!(", [{}{close}\n", module.dependencies.join(", ")));
        }
        text
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// The loader's shape as wasm-split 0.2 writes it.
    pub const LOADER: &str = r#"import { initSync } from "./vstage-widget-ab.js";
function makeLoad(fetcher, deps) {
    return fetcher;
}
/* account_screen, board_screen */
const __chunk_11 = makeLoad(() => {
    const src = fetch(new URL("./chunk_11-ab.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
/* board_screen, mask_editor */
const __chunk_12 = makeLoad(() => {
    const src = fetch(new URL("./chunk_12-ab.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
export const __wasm_split_load_board_screen = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_board_screen-ab.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_11, __chunk_12]));
export const __wasm_split_load_account_screen = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_account_screen-ab.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_11]));
export const __wasm_split_load_mask_editor = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_mask_editor-ab.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_12]));
"#;

    #[test]
    fn a_loader_is_read_and_written_back_as_it_was_without_its_comments() {
        let loader = Loader::parse(LOADER).unwrap();
        let names: Vec<_> = loader.modules.iter().map(|module| module.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "__chunk_11",
                "__chunk_12",
                "__wasm_split_load_board_screen",
                "__wasm_split_load_account_screen",
                "__wasm_split_load_mask_editor"
            ]
        );
        assert_eq!(
            loader.files_of("__wasm_split_load_board_screen").unwrap(),
            ["split_board_screen-ab.wasm", "chunk_11-ab.wasm", "chunk_12-ab.wasm"]
        );
        let without_comments: String =
            LOADER.lines().filter(|line| !line.starts_with("/*")).map(|line| format!("{line}\n")).collect();
        assert_eq!(loader.render(), without_comments);
    }

    #[test]
    fn a_loader_of_another_shape_is_refused() {
        assert!(Loader::parse("export const something = 1;").is_err());
        let unknown = LOADER.replace(", [__chunk_11, __chunk_12]));", ", [__chunk_99]));");
        assert!(Loader::parse(&unknown).unwrap_err().to_string().contains("__chunk_99"));
        let stray = LOADER.replace("/* board_screen, mask_editor */", "window.stray = 1;");
        assert!(Loader::parse(&stray).unwrap_err().to_string().contains("outside its modules"));
    }
}
