//! Telling the host page what happened: `vstage-*` CustomEvents dispatched on the `<vstage-widget>` element,
//! bubbling and composed, their `detail` a plain object made by serde-wasm-bindgen from `vstage-api::host_events`;
//! and where the studio runs (`placement`): in a host's page or standalone.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use serde::Serialize;
use vstage_api::host_events::WidgetError;
use wasm_bindgen::JsValue;
use web_sys::{CustomEvent, CustomEventInit, HtmlElement};

pub const READY: &str = "vstage-ready";
pub const RENDER_CREATED: &str = "vstage-render-created";
pub const VARIATION_DONE: &str = "vstage-variation-done";
pub const RESULT_CHOSEN: &str = "vstage-result-chosen";
pub const TOKEN_EXPIRED: &str = "vstage-token-expired";
pub const ALLOWANCE_LOW: &str = "vstage-allowance-low";
pub const ALLOWANCE_SPENT: &str = "vstage-allowance-spent";
pub const ERROR: &str = "vstage-error";

/// The host's `disclosure` attribute: the rules a chosen result is disclosed under (the server's default when
/// absent).
#[derive(Clone, Copy)]
pub struct ListingDisclosure(pub Signal<Option<String>>);

/// The element the studio lives in, which its events are dispatched on.
#[derive(Clone)]
pub struct Host {
    element: SendWrapper<HtmlElement>,
}

impl Host {
    pub fn new(element: HtmlElement) -> Self {
        Host { element: SendWrapper::new(element) }
    }

    /// Dispatches `name` with `detail`; a detail that cannot be converted is sent as `null` rather than lost.
    pub fn emit(&self, name: &str, detail: &impl Serialize) {
        dispatch(&self.element, name, &event_detail(detail));
    }

    /// The element's attribute `name`, as it is now.
    pub fn attribute(&self, name: &str) -> Option<String> {
        self.element.get_attribute(name)
    }

    /// `vstage-error` with a sentence.
    pub fn error(&self, message: impl Into<String>) {
        self.emit(ERROR, &WidgetError { message: message.into() });
    }
}

/// A plain JS object (maps as objects, not `Map`s) for `detail`.
pub fn event_detail(detail: &impl Serialize) -> JsValue {
    detail.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

/// A bubbling, composed CustomEvent: it leaves the shadow root and reaches the host's listeners on any ancestor.
pub fn dispatch(element: &HtmlElement, name: &str, detail: &JsValue) {
    let init = CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_detail(detail);
    if let Ok(event) = CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = element.dispatch_event(&event);
    }
}

pub fn provide_host(host: Host) {
    provide_context(host);
}

/// Where the studio runs, for advice that depends on it: embedded in a host's page (a listing site, which its
/// agents ask for more photos), or the standalone page (whoever runs the server sets the allowance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    Embedded,
    Standalone,
}

/// Where this studio runs: the standalone page is the one whose route follows the page's address (`routing`), as
/// "Use in listing" and the language chooser tell it; a component mounted alone counts as embedded.
pub fn placement() -> Placement {
    match use_context::<crate::route::Navigator>().map(|navigator| navigator.history()) {
        Some(crate::route::History::Address) => Placement::Standalone,
        _ => Placement::Embedded,
    }
}

/// The host element, when the studio was mounted in one (components mounted alone in tests have none).
pub fn use_host() -> Option<Host> {
    use_context::<Host>()
}
