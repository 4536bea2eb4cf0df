//! `cargo xtask size-diff BASE`: two builds of the widget compared function by function, in wasm-split's modules
//! before wasm-bindgen and wasm-opt (which drop the names): code bytes by crate and by function, and data, for the
//! main module alone or with the modules a first screen needs (`--screen renders`).
//!
//! BASE is a copy of an earlier build's `target/widget/split` (the release build writes it; copy it aside before
//! changing anything); the other side is the current build's, or `--now DIR`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::project::Project;
use crate::wasm_sizes::{self, ModuleSizes};

/// The list of each screen's modules the build writes into the split folder (unhashed names).
pub const SCREENS: &str = "screens.json";
/// How many crates and functions are listed.
const LISTED: usize = 25;

pub fn run(project: &Project, base: &Path, now: Option<PathBuf>, screen: Option<&str>) -> anyhow::Result<()> {
    let now = now.unwrap_or_else(|| project.target().join("widget").join("split"));
    let (before, after) = (read_build(base, screen)?, read_build(&now, screen)?);
    let what = screen.map_or("the main module".to_string(), |screen| format!("the main module and {screen}'s"));
    println!("size-diff, {what}: {} → {}", base.display(), now.display());
    print!("{}", compare(&before, &after));
    Ok(())
}

/// The code of every function of the modules, summed by name, and their data.
fn read_build(folder: &Path, screen: Option<&str>) -> anyhow::Result<ModuleSizes> {
    let mut files = vec!["main.wasm".to_string()];
    if let Some(screen) = screen {
        let path = folder.join(SCREENS);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {} (a release build of the widget writes it)", path.display()))?;
        let screens: BTreeMap<String, Vec<String>> = serde_json::from_str(&text)?;
        let modules = screens.get(screen).with_context(|| {
            format!("{} names no screen {screen}; it has {:?}", path.display(), screens.keys().collect::<Vec<_>>())
        })?;
        files.extend(modules.iter().cloned());
    }
    let mut sizes = ModuleSizes::default();
    for file in files {
        let path = folder.join(&file);
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let module = wasm_sizes::module_sizes(&bytes).with_context(|| format!("reading {}", path.display()))?;
        sizes.functions.extend(module.functions);
        sizes.data += module.data;
    }
    Ok(sizes)
}

/// The comparison as text: totals, then the crates and the functions that changed most.
fn compare(before: &ModuleSizes, after: &ModuleSizes) -> String {
    let sum = |sizes: &ModuleSizes| sizes.functions.iter().map(|(_, size)| size).sum::<u64>();
    let mut text = format!(
        "code {} → {} ({:+}), data {} → {} ({:+}), functions {} → {}\n",
        sum(before),
        sum(after),
        sum(after) as i64 - sum(before) as i64,
        before.data,
        after.data,
        after.data as i64 - before.data as i64,
        before.functions.len(),
        after.functions.len()
    );
    let by_crate =
        |sizes: &ModuleSizes| totals(sizes.functions.iter().map(|(name, size)| (wasm_sizes::crate_of(name), *size)));
    let by_name = |sizes: &ModuleSizes| totals(sizes.functions.iter().map(|(name, size)| (name.clone(), *size)));
    text.push_str("\nby crate (code bytes, largest changes first):\n");
    text.push_str(&changes(&by_crate(before), &by_crate(after)));
    text.push_str("\nby function (all of a name's copies together, largest changes first):\n");
    text.push_str(&changes(&by_name(before), &by_name(after)));
    text
}

/// Bytes and copies summed by key.
fn totals(sizes: impl Iterator<Item = (String, u64)>) -> HashMap<String, (u64, u64)> {
    let mut totals: HashMap<String, (u64, u64)> = HashMap::new();
    for (key, size) in sizes {
        let entry = totals.entry(key).or_default();
        entry.0 += size;
        entry.1 += 1;
    }
    totals
}

/// The [`LISTED`] keys whose bytes changed most: before, after (with how many copies), change.
fn changes(before: &HashMap<String, (u64, u64)>, after: &HashMap<String, (u64, u64)>) -> String {
    let mut keys: Vec<&String> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    let of = |sizes: &HashMap<String, (u64, u64)>, key: &String| sizes.get(key).copied().unwrap_or_default();
    let change = |key: &String| of(after, key).0 as i64 - of(before, key).0 as i64;
    keys.sort_by_key(|key| (std::cmp::Reverse(change(key).abs()), (*key).clone()));
    let mut text = String::new();
    for key in keys.into_iter().take(LISTED).filter(|key| change(key) != 0) {
        let ((was, was_copies), (is, is_copies)) = (of(before, key), of(after, key));
        let name: String = key.chars().take(110).collect();
        text.push_str(&format!("  {:+8}  {was:>7} ({was_copies}) → {is:>7} ({is_copies})  {name}\n", change(key)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(functions: &[(&str, u64)], data: u64) -> ModuleSizes {
        ModuleSizes { functions: functions.iter().map(|(name, size)| (name.to_string(), *size)).collect(), data }
    }

    #[test]
    fn the_largest_changes_come_first_by_crate_and_by_function() {
        let before = sizes(&[("serde_json::de::parse", 900), ("core::fmt::write", 300), ("core::fmt::write", 100)], 50);
        let after = sizes(&[("serde_json::de::parse", 400), ("core::fmt::write", 300), ("leptos::mount", 20)], 60);
        let text = compare(&before, &after);
        assert!(text.starts_with("code 1300 → 720 (-580), data 50 → 60 (+10), functions 3 → 3\n"), "{text}");
        let crates = text.split("by function").next().unwrap();
        let serde = crates.find("serde_json").unwrap();
        assert!(
            serde < crates.find("  core").unwrap() && crates.find("core").unwrap() < crates.find("leptos").unwrap()
        );
        assert!(text.contains("     -500      900 (1) →     400 (1)  serde_json::de::parse\n"), "{text}");
        assert!(text.contains("     -100      400 (2) →     300 (1)  core::fmt::write\n"), "{text}");
        assert!(text.contains("      +20        0 (0) →      20 (1)  leptos::mount\n"), "{text}");
    }
}
