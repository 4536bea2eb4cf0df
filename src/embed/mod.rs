//! `<vstage-widget>`: the custom element a host page (or the standalone page) puts the studio in. A small JS class
//! forwards the element's life to Rust; each element gets its own shadow root, styles, studio, token and timers.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlElement, ShadowRoot};

pub use crate::attributes::{ATTRIBUTES, Attributes};

use crate::app::{App, StudioOptions};
use crate::custom_element::{default_api_base, define_element};
use crate::host::Host;

/// The element's name.
pub const ELEMENT: &str = "vstage-widget";

/// Defines `<vstage-widget>` (once per page, however often the module starts).
pub fn define() {
    define_element(ELEMENT, &ATTRIBUTES, true, |element, root| match root.dyn_into::<ShadowRoot>() {
        Ok(root) => JsValue::from(MountedWidget::mount(element, root)),
        Err(_) => JsValue::UNDEFINED,
    });
}

/// One element's studio. Dropping it (the element left the page) unmounts the studio and runs every cleanup:
/// timers, the event stream and listeners go with it.
#[wasm_bindgen]
pub struct MountedWidget {
    owner: Owner,
    attributes: Attributes,
    /// Keeps the view mounted; dropping it removes the DOM.
    view: Option<Box<dyn std::any::Any>>,
}

#[wasm_bindgen]
impl MountedWidget {
    /// An attribute changed on the element (or its property was set).
    pub fn set(&self, name: &str, value: Option<String>) {
        self.attributes.set(name, value);
    }
}

impl MountedWidget {
    fn mount(element: HtmlElement, root: ShadowRoot) -> MountedWidget {
        let host = Host::new(element.clone());
        if let Err(error) = crate::styles::apply(&root) {
            host.error(format!("The studio's styles could not be applied ({error:?}); it may look unstyled."));
        }
        let owner = Owner::new();
        let (attributes, view) = owner.with(|| {
            provide_context(crate::studio_root::StudioRoot(SendWrapper::new(root.clone())));
            let attributes = Attributes::read(&element);
            let container = container_in(&root);
            let view = container.map(|container| {
                let options = StudioOptions::new(attributes, host.clone(), default_api_base());
                let handle = leptos::mount::mount_to(container, move || view! { <App options /> }.into_any());
                Box::new(handle) as Box<dyn std::any::Any>
            });
            (attributes, view)
        });
        if view.is_none() {
            host.error("The studio could not be placed in its element; reload the page to try again.");
        }
        MountedWidget { owner, attributes, view }
    }
}

impl Drop for MountedWidget {
    fn drop(&mut self) {
        self.view.take();
        self.owner.cleanup();
    }
}

/// A fresh `<div>` for the studio inside the shadow root (a `ShadowRoot` is not an `HtmlElement`).
fn container_in(root: &ShadowRoot) -> Option<HtmlElement> {
    while let Some(child) = root.first_child() {
        let _ = root.remove_child(&child);
    }
    let document = web_sys::window()?.document()?;
    let container = document.create_element("div").ok()?.dyn_into::<HtmlElement>().ok()?;
    container.set_class_name("vstage-root");
    root.append_child(&container).ok()?;
    Some(container)
}
