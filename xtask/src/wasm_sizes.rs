//! What a wasm module of the widget is made of: each function's code size under its demangled name and the crate it
//! belongs to, and its data, read from the modules wasm-split writes (`target/widget/split`), which still carry their
//! names (wasm-bindgen and wasm-opt drop them).

use anyhow::bail;

/// One module's functions (demangled name, code bytes) and its data bytes.
#[derive(Debug, Default)]
pub struct ModuleSizes {
    pub functions: Vec<(String, u64)>,
    pub data: u64,
}

/// The module's functions and data. Functions wasm-bindgen removes at build time are left out; a module without
/// names (one wasm-opt has been through) is refused.
pub fn module_sizes(wasm: &[u8]) -> anyhow::Result<ModuleSizes> {
    use wasmparser::{Name, Parser, Payload};

    let mut imported = 0u32;
    let mut bodies: Vec<u64> = Vec::new();
    let mut names: std::collections::HashMap<u32, String> = std::collections::HashMap::new();
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
    if names.is_empty() && !bodies.is_empty() {
        bail!("the wasm has no names section; build it with the wasm-release profile (names are kept before wasm-opt)");
    }
    let mut functions = Vec::new();
    for (index, size) in bodies.into_iter().enumerate() {
        let name = demangled(names.get(&(imported + index as u32)).map_or("", |n| n));
        if !removed_by_wasm_bindgen(&name) {
            functions.push((name, size));
        }
    }
    Ok(ModuleSizes { functions, data })
}

/// A function's name demangled, without its hash; wasm-split's shims keep their mark after it.
fn demangled(name: &str) -> String {
    const SHIM: &str = " indirect_call_shim";
    match name.strip_suffix(SHIM) {
        Some(shimmed) => format!("{:#}{SHIM}", rustc_demangle::demangle(shimmed)),
        None => format!("{:#}", rustc_demangle::demangle(name)),
    }
}

/// wasm-bindgen's descriptions of the types that cross to JavaScript: it runs them at build time and removes them
/// (a third of the main module's code before wasm-bindgen).
fn removed_by_wasm_bindgen(demangled: &str) -> bool {
    demangled.contains("wasm_bindgen::describe::") || demangled.starts_with("__wbindgen_describe")
}

/// The crate a function belongs to: the first path segment of its demangled name, looking through `<impl ...>`,
/// `<T as Trait>`, references and hashes (`core[1a2b]`).
pub fn crate_of(demangled: &str) -> String {
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
    fn wasm_splits_shims_are_named_after_their_function() {
        let shim = super::demangled("_RNvNtCsgXGp5Oqx2Ny_4core9panicking5panic indirect_call_shim");
        assert_eq!(shim, "core::panicking::panic indirect_call_shim");
        assert_eq!(crate_of(&shim), "core");
    }

    #[test]
    fn what_wasm_bindgen_removes_is_not_counted() {
        assert!(removed_by_wasm_bindgen("<js_sys::Intl::Collator as wasm_bindgen::describe::WasmDescribe>::describe"));
        assert!(removed_by_wasm_bindgen("__wbindgen_describe___wbg_content_6fed93ca1fd29f06"));
        assert!(!removed_by_wasm_bindgen("js_sys::futures::future_to_promise"));
    }
}
