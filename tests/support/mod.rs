//! What the widget's browser tests share: a fresh element of the page to mount a component into.

#![allow(dead_code)] // each test binary uses its own part of this

use wasm_bindgen::JsCast;

/// A new `<div>` appended to the page's body.
pub fn container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let element = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&element).unwrap();
    element.unchecked_into()
}
