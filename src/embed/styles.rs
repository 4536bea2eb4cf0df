//! The studio's stylesheet inside each shadow root: one constructed `CSSStyleSheet`, made on first use and adopted
//! by every widget on the page. Nothing is added to the host's `<head>`; the host's CSS does not reach in.

use std::cell::OnceCell;

use wasm_bindgen::JsValue;
use web_sys::{CssStyleSheet, ShadowRoot};

/// `www/style.css`, compiled in: one file for the standalone page and every embedded widget.
pub const CSS: &str = include_str!("../../www/style.css");

thread_local! {
    static SHARED: OnceCell<Option<CssStyleSheet>> = const { OnceCell::new() };
}

/// Gives `root` the studio's styles: the shared sheet, or where a browser cannot construct one, a `<style>`.
pub fn apply(root: &ShadowRoot) -> Result<(), JsValue> {
    let sheet = SHARED.with(|shared| shared.get_or_init(|| constructed().ok()).clone());
    match sheet {
        Some(sheet) => {
            let sheets = root.adopted_style_sheets();
            if !sheets.includes(&sheet, 0) {
                sheets.push(&sheet);
            }
            root.set_adopted_style_sheets(&sheets);
        }
        None => {
            let document =
                web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsValue::from_str("no document"))?;
            let style = document.create_element("style")?;
            style.set_text_content(Some(CSS));
            root.append_child(&style)?;
        }
    }
    Ok(())
}

fn constructed() -> Result<CssStyleSheet, JsValue> {
    let sheet = CssStyleSheet::new()?;
    sheet.replace_sync(CSS)?;
    Ok(sheet)
}
