//! Which files each screen needs, from wasm-split's loader, written to `dist/vstage-screens.json` for `/embed.js`,
//! which fetches the start screen's files beside the main module (no extra round trip before it shows).
//!
//! A screen's chunk is named after its `view` (`src/app.rs`: `-` as `_`, then `_screen`), so the list maps views to
//! everything their split point's loader fetches.

use std::collections::BTreeMap;

use crate::split_loader::Loader;

/// The list's name in `dist/`; `crates/server/src/site/embed.rs` reads it.
pub const MANIFEST: &str = "vstage-screens.json";

/// The chunk the standalone page (`routing="address"`) needs besides its screen's, listed as `locale-chooser`.
const STANDALONE: &str = "locale_chooser";

/// Each screen's `view` to the files its chunk fetches (its own first, then its dependencies), and the standalone
/// page's chooser's.
pub fn screens(loader: &Loader) -> anyhow::Result<BTreeMap<String, Vec<String>>> {
    let mut screens = BTreeMap::new();
    for module in &loader.modules {
        if let Some(view) = module.split().and_then(|split| split.strip_suffix("_screen")) {
            screens.insert(view.replace('_', "-"), loader.files_of(&module.name)?);
        }
        // The standalone page's language chooser, which comes with its first screen.
        if module.split() == Some(STANDALONE) {
            screens.insert(STANDALONE.replace('_', "-"), loader.files_of(&module.name)?);
        }
    }
    Ok(screens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_loader::tests::LOADER;

    #[test]
    fn each_screen_gets_its_file_and_every_dependency_once() {
        let screens = screens(&Loader::parse(LOADER).unwrap()).unwrap();
        assert_eq!(screens.keys().collect::<Vec<_>>(), ["account", "board"], "the mask editor is no screen");
        assert_eq!(screens["board"], ["split_board_screen-ab.wasm", "chunk_11-ab.wasm", "chunk_12-ab.wasm"]);
        assert_eq!(screens["account"], ["split_account_screen-ab.wasm", "chunk_11-ab.wasm"]);
    }
}
