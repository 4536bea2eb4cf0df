//! The studio's stylesheets inside each shadow root: constructed `CSSStyleSheet`s, each made on first use and adopted
//! by every widget on the page. Nothing is added to the host's `<head>`; the host's CSS does not reach in.
//! The shell's styles come with the first load; the screens' with the first screen's chunk, which adopts them: what
//! every screen needs with each, the other screens' own with theirs (the renders list comes without them).

use std::cell::OnceCell;
use std::thread::LocalKey;

use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::{CssStyleSheet, ShadowRoot};

use crate::host::use_host;
use crate::studio_root::StudioRoot;

/// `www/style.css`, compiled in (minified by `build.rs`): the shell (header, usage, navigation, panels, buttons).
pub const CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/style.css"));

type SharedSheet = OnceCell<Option<CssStyleSheet>>;

thread_local! {
    static SHELL: SharedSheet = const { OnceCell::new() };
    static SCREENS: SharedSheet = const { OnceCell::new() };
    static PAGES: SharedSheet = const { OnceCell::new() };
}

/// Gives `root` the shell's styles.
pub fn apply(root: &ShadowRoot) -> Result<(), JsValue> {
    adopt(root, &SHELL, "shell", CSS)
}

/// Gives the studio this is called in (its [`StudioRoot`]) the styles every screen comes with, `www/screens.css`.
/// Called by every chunk (`src/chunks.rs`), so the styles come with the first one and stay out of the first load;
/// the mask editor outside a studio has none.
pub fn apply_screen_styles() {
    apply_in_studio(&SCREENS, "screens", include_str!(concat!(env!("OUT_DIR"), "/screens.css")));
}

/// The same with the other screens' styles, `www/pages.css`: called by every chunk but the renders list's (and the
/// language chooser's), so that the list, the screen most elements start on, comes without them.
pub fn apply_page_styles() {
    apply_in_studio(&PAGES, "pages", include_str!(concat!(env!("OUT_DIR"), "/pages.css")));
}

fn apply_in_studio(shared: &'static LocalKey<SharedSheet>, name: &str, css: &str) {
    let Some(StudioRoot(root)) = use_context::<StudioRoot>() else { return };
    if let Err(error) = adopt(&root, shared, name, css)
        && let Some(host) = use_host()
    {
        host.error(format!("The studio's styles could not be applied ({error:?}); it may look unstyled."));
    }
}

/// Adopts `shared`'s sheet of `css` in `root`, once: one sheet for every root, or where a browser cannot construct
/// one, a `<style>` (marked with `name`).
fn adopt(root: &ShadowRoot, shared: &'static LocalKey<SharedSheet>, name: &str, css: &str) -> Result<(), JsValue> {
    let sheet = shared.with(|shared| shared.get_or_init(|| constructed(css).ok()).clone());
    match sheet {
        Some(sheet) => {
            let sheets = root.adopted_style_sheets();
            if !sheets.includes(&sheet, 0) {
                sheets.push(&sheet);
            }
            root.set_adopted_style_sheets(&sheets);
        }
        None if root.query_selector(&format!("style[data-vstage={name}]"))?.is_some() => {}
        None => {
            let document =
                web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsValue::from_str("no document"))?;
            let style = document.create_element("style")?;
            style.set_attribute("data-vstage", name)?;
            style.set_text_content(Some(css));
            root.append_child(&style)?;
        }
    }
    Ok(())
}

fn constructed(css: &str) -> Result<CssStyleSheet, JsValue> {
    let sheet = CssStyleSheet::new()?;
    sheet.replace_sync(css)?;
    Ok(sheet)
}
