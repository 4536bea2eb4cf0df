//! What the widget's browser tests share: a fresh element of the page to mount a component into.

use wasm_bindgen::JsCast;

/// A new `<div>` appended to the page's body.
pub fn container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let element = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&element).unwrap();
    element.unchecked_into()
}
