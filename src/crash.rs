//! A panic leaves the one wasm instance that every widget on the page shares unusable: instead of a frozen studio,
//! each `<vstage-widget>` then says so in its own box and fires `vstage-error`. Plain DOM calls, no reactivity.

use vstage_api::host_events::WidgetError;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::embed::ELEMENT;
use crate::host::{ERROR, dispatch, event_detail};

pub const MESSAGE: &str = "Something went wrong; reload to continue.";

/// Logs panics to the console and shows them in every widget.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_everywhere();
    }));
}

/// Replaces every widget's studio with the message and tells each host.
pub fn show_everywhere() {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else { return };
    let Ok(elements) = document.query_selector_all(ELEMENT) else { return };
    let detail = event_detail(&WidgetError { message: MESSAGE.into() });
    for index in 0..elements.length() {
        let Some(element) = elements.item(index).and_then(|node| node.dyn_into::<HtmlElement>().ok()) else {
            continue;
        };
        if let Some(root) = element.shadow_root() {
            let Ok(notice) = document.create_element("div") else { continue };
            notice.set_class_name("vstage vstage-crash");
            let _ = notice.set_attribute("role", "alert");
            notice.set_text_content(Some(MESSAGE));
            root.set_inner_html("");
            let _ = root.append_child(&notice);
        }
        dispatch(&element, ERROR, &detail);
    }
}
