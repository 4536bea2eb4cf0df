//! What the widget's browser tests share: a fresh element of the page to mount a component into, and the studio's
//! API for a component that reads it.

use wasm_bindgen::JsCast;

/// A new `<div>` appended to the page's body.
pub fn container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let element = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&element).unwrap();
    element.unchecked_into()
}

/// The studio's API at `/api` with no token and no host references, as the studio provides it, for a component
/// that reads it (the forms' example pictures take their address from it).
pub fn provide_studio_api() {
    use leptos::prelude::RwSignal;
    use vstage_widget::host_reference::HostReferences;
    let none = || RwSignal::new(None);
    let references =
        HostReferences { listing_id: none(), photo_id: none(), photo_url: none(), metadata: none(), header: none() };
    vstage_widget::api::provide_api("/api", vstage_widget::api::Token::new(none(), |_| {}), references.header);
}
