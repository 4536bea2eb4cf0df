//! The JavaScript functions the main module imports, given short names in the module and in wasm-bindgen's glue.
//!
//! wasm-bindgen names each import after its Rust item with a 16-digit hash (`__wbg_addEventListener_…`), under the
//! glue's own file name (`./vstage-widget-<hash>_bg.js`). The first load carries every name twice, in the module's
//! import section and as a key of the glue's import object, and hashes do not compress: about 300 imports, 8 KiB
//! of the first load's gzip. As emscripten does with binaryen's `minify-imports`, the names become `a`, `b`, … in
//! both files, and their module `w`. The chunks import only memory, table and globals from the main module, so
//! nothing else names them. Anything that does not look as expected stops the build.

use anyhow::bail;
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{ImportSection, Module, RawSection};
use wasmparser::{Parser, Payload};

/// The import module the glue's object answers under, once renamed.
const MODULE: &str = "w";

/// Renames the imports of `module` (wasm-bindgen's output) that `glue` provides; both are rewritten.
/// `glue_name` is the glue's file name without `.js`.
pub fn shorten(module: &[u8], glue: &str, glue_name: &str) -> anyhow::Result<(Vec<u8>, String)> {
    let bindgen_module = format!("./{glue_name}_bg.js");
    let mut renamed = Vec::new();
    let mut out = Module::new();
    for payload in Parser::new(0).parse_all(module) {
        let payload = payload?;
        if let Payload::ImportSection(section) = &payload {
            let mut imports = ImportSection::new();
            for import in section.clone().into_imports() {
                let import = import?;
                let ty = RoundtripReencoder.entity_type(import.ty)?;
                if import.module == bindgen_module {
                    let short = short_name(renamed.len());
                    imports.import(MODULE, &short, ty);
                    renamed.push((import.name.to_string(), short));
                } else {
                    imports.import(import.module, import.name, ty);
                }
            }
            out.section(&imports);
        } else if let Some((id, range)) = payload.as_section() {
            let range = usize::try_from(range.start)?..usize::try_from(range.end)?;
            out.section(&RawSection { id, data: &module[range] });
        }
    }
    if renamed.is_empty() {
        bail!("the widget's module imports nothing from {bindgen_module}; the widget build needs updating");
    }
    Ok((out.finish(), rename_in_glue(glue, &bindgen_module, &renamed)?))
}

/// The glue with each import object key, and the module's key, renamed; each must stand exactly once.
fn rename_in_glue(glue: &str, bindgen_module: &str, renamed: &[(String, String)]) -> anyhow::Result<String> {
    let mut glue = replace_once(glue, &format!("\"{bindgen_module}\": import0,"), &format!("{MODULE}: import0,"))?;
    for (long, short) in renamed {
        glue = replace_once(&glue, &format!("\n        {long}: function("), &format!("\n        {short}: function("))?;
    }
    Ok(glue)
}

fn replace_once(text: &str, from: &str, to: &str) -> anyhow::Result<String> {
    match text.matches(from).count() {
        1 => Ok(text.replacen(from, to, 1)),
        found => {
            bail!("wasm-bindgen's glue has `{}` {found} times, not once; the widget build needs updating", from.trim())
        }
    }
}

/// The `index`-th short name: `a` to `Z`, then two and more letters and digits (every one a JavaScript name).
fn short_name(mut index: usize) -> String {
    const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const NEXT: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut name = vec![FIRST[index % FIRST.len()]];
    index /= FIRST.len();
    while index > 0 {
        index -= 1;
        name.push(NEXT[index % NEXT.len()]);
        index /= NEXT.len();
    }
    String::from_utf8(name).expect("ASCII")
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use wasm_encoder::{CodeSection, EntityType, ExportKind, ExportSection, Function, FunctionSection, TypeSection};

    use super::*;

    fn imports(module: &[u8]) -> Vec<(String, String)> {
        let mut names = Vec::new();
        for payload in Parser::new(0).parse_all(module) {
            if let Payload::ImportSection(section) = payload.unwrap() {
                for import in section.into_imports() {
                    let import = import.unwrap();
                    names.push((import.module.to_string(), import.name.to_string()));
                }
            }
        }
        names
    }

    /// A module importing two functions from the glue and one from elsewhere, and calling all three.
    fn module() -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([], []);
        let mut imports = ImportSection::new();
        imports.import("./vstage-widget-ab_bg.js", "__wbg_alert_0123456789abcdef", EntityType::Function(0));
        imports.import("./vstage-split-ab.js", "__wasm_split_load_board", EntityType::Function(0));
        imports.import("./vstage-widget-ab_bg.js", "__wbindgen_init_externref_table", EntityType::Function(0));
        let mut functions = FunctionSection::new();
        functions.function(0);
        let mut exports = ExportSection::new();
        exports.export("main", ExportKind::Func, 3);
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        body.instructions().call(0).call(1).call(2).end();
        code.function(&body);
        let mut module = Module::new();
        module.section(&types).section(&imports).section(&functions).section(&exports).section(&code);
        module.finish()
    }

    const GLUE: &str = "function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_alert_0123456789abcdef: function(arg0) {
            alert(arg0);
        },
        __wbindgen_init_externref_table: function() {
        },
    };
    return {
        __proto__: null,
        \"./vstage-widget-ab_bg.js\": import0,
        \"./vstage-split-ab.js\": import1,
    };
}";

    #[test]
    fn the_glues_imports_get_short_names_in_both_files() {
        let (module, glue) = shorten(&module(), GLUE, "vstage-widget-ab").unwrap();
        wasmparser::validate(&module).unwrap();
        assert_eq!(
            imports(&module),
            [
                ("w".into(), "a".into()),
                ("./vstage-split-ab.js".into(), "__wasm_split_load_board".into()),
                ("w".into(), "b".into())
            ]
        );
        assert!(glue.contains("\n        a: function(arg0) {\n            alert(arg0);"), "{glue}");
        assert!(glue.contains("\n        b: function() {"), "{glue}");
        assert!(glue.contains("w: import0,") && glue.contains("\"./vstage-split-ab.js\": import1"), "{glue}");
        assert!(!glue.contains("__wbg_alert"), "{glue}");
    }

    #[test]
    fn glue_of_another_shape_stops_the_build() {
        let other =
            GLUE.replace("__wbg_alert_0123456789abcdef: function", "\"__wbg_alert_0123456789abcdef\": function");
        let error = shorten(&module(), &other, "vstage-widget-ab").unwrap_err();
        assert!(error.to_string().contains("not once"), "{error}");
    }

    #[test]
    fn short_names_are_distinct_javascript_names() {
        let names: Vec<String> = (0..5000).map(short_name).collect();
        assert_eq!(names[..3], ["a", "b", "c"]);
        assert_eq!(names[52], "aa");
        assert_eq!(names.iter().collect::<HashSet<_>>().len(), names.len());
        assert!(names.iter().all(|name| name.as_bytes()[0].is_ascii_alphabetic()));
    }
}
