//! A panic leaves the wasm instance unusable: instead of a frozen box, every `<vstage-widget>` on the page says so
//! and fires `vstage-error`.
//! Plain DOM calls, no reactivity.

use leptos_i18n::td_string;
use vstage_api::host_events::WidgetError;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::host::{ERROR, dispatch, event_detail};
use crate::locale::{Locale, language_of};

/// The elements a module renders, and what they say when it panics: `message` in English for the host,
/// `shown` in the element's language for the person.
#[derive(Debug, Clone, Copy)]
pub struct Crashed {
    pub element: &'static str,
    pub message: &'static str,
    pub shown: fn(Locale) -> &'static str,
}

/// The widget's module: every studio on the page is gone.
pub const STUDIO: Crashed = Crashed {
    element: crate::embed::ELEMENT,
    message: "Something went wrong; reload to continue.",
    shown: |locale| td_string!(locale, common.crashed),
};

/// Logs panics to the console and shows them in every element of `crashed.element`.
pub fn install(crashed: Crashed) {
    std::panic::set_hook(Box::new(move |info| {
        console_error_panic_hook::hook(info);
        show_everywhere(crashed);
    }));
}

/// Replaces what every such element shows (in its shadow root if it has one) with the message, and tells the host.
pub fn show_everywhere(crashed: Crashed) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else { return };
    let detail = event_detail(&WidgetError { message: crashed.message.into() });
    for element in on_the_page(&document, crashed.element) {
        let Ok(notice) = document.create_element("div") else { continue };
        notice.set_class_name("vstage vstage-crash");
        let _ = notice.set_attribute("role", "alert");
        notice.set_text_content(Some((crashed.shown)(language_of(&element))));
        match element.shadow_root() {
            Some(root) => {
                root.set_inner_html("");
                let _ = root.append_child(&notice);
            }
            None => {
                element.set_inner_html("");
                let _ = element.append_child(&notice);
            }
        }
        dispatch(&element, ERROR, &detail);
    }
}

/// The elements named `name` in the page.
fn on_the_page(document: &web_sys::Document, name: &str) -> Vec<HtmlElement> {
    let Ok(list) = document.query_selector_all(name) else { return Vec::new() };
    (0..list.length()).filter_map(|index| list.item(index)?.dyn_into::<HtmlElement>().ok()).collect()
}
