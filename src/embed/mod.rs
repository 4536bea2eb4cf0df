//! `<vstage-widget>`: the custom element a host page (or the standalone page) puts the studio in. A small JS class
//! forwards the element's life to Rust; each element gets its own shadow root, styles, studio, token and timers.

pub mod attributes;
pub mod styles;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlElement, ShadowRoot};

pub use attributes::{ATTRIBUTES, Attributes};

use crate::app::{App, StudioOptions};
use crate::host::Host;

/// The element's name.
pub const ELEMENT: &str = "vstage-widget";

// wasm-bindgen cannot declare a class that extends HTMLElement (wasm-bindgen#210): the class is this JS, defined
// once per page; `mount` is Rust's, given the element and where to render (its open shadow root, or the element
// itself when `shadow` is false). `import.meta.url` is this snippet's address on the vstage server.
#[wasm_bindgen(inline_js = r#"
export function defineVstageElement(name, attributes, shadow, mount) {
  if (customElements.get(name)) return;
  const property = (attribute) => attribute.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
  class VstageWidget extends HTMLElement {
    static get observedAttributes() { return attributes; }
    connectedCallback() {
      // Properties set before the element was defined shadow the accessors: hand them over.
      for (const attribute of attributes) {
        const key = property(attribute);
        if (Object.prototype.hasOwnProperty.call(this, key)) {
          const value = this[key];
          delete this[key];
          this[key] = value;
        }
      }
      if (!this.vstageMounted) {
        this.vstageMounted = mount(this, shadow ? this.shadowRoot ?? this.attachShadow({ mode: "open" }) : this);
      }
    }
    disconnectedCallback() {
      this.vstageMounted?.free();
      this.vstageMounted = undefined;
    }
    attributeChangedCallback(attribute, old, value) {
      if (old !== value) this.vstageMounted?.set(attribute, value);
    }
  }
  for (const attribute of attributes) {
    Object.defineProperty(VstageWidget.prototype, property(attribute), {
      get() { return this.getAttribute(attribute); },
      set(value) { value == null ? this.removeAttribute(attribute) : this.setAttribute(attribute, String(value)); },
    });
  }
  customElements.define(name, VstageWidget);
}
export function defaultApiBase() { return new URL("/api", import.meta.url).href; }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = defineVstageElement)]
    fn define_vstage_element(name: &str, attributes: js_sys::Array, shadow: bool, mount: &JsValue);
    /// The `/api` of the server this code was loaded from.
    #[wasm_bindgen(js_name = defaultApiBase)]
    fn default_api_base() -> String;
}

/// Defines `<vstage-widget>` (once per page, however often the module starts).
pub fn define() {
    define_element(ELEMENT, &ATTRIBUTES, true, |element, root| match root.dyn_into::<ShadowRoot>() {
        Ok(root) => JsValue::from(MountedWidget::mount(element, root)),
        Err(_) => JsValue::UNDEFINED,
    });
}

/// Defines the custom element `name` whose `attributes` are observed (and are properties too): `mount` gets the
/// element and its shadow root (or the element itself without `shadow`) when it joins the page, and returns the
/// wasm-bindgen object whose `set(name, value)` takes attribute changes and whose `free()` unmounts it.
pub fn define_element(
    name: &str,
    attributes: &[&str],
    shadow: bool,
    mount: impl Fn(HtmlElement, JsValue) -> JsValue + 'static,
) {
    let mount = Closure::<dyn Fn(HtmlElement, JsValue) -> JsValue>::new(mount);
    let names = attributes.iter().copied().map(JsValue::from_str).collect::<js_sys::Array>();
    define_vstage_element(name, names, shadow, mount.as_ref().unchecked_ref());
    // The element's class calls it for as long as the page lives.
    mount.forget();
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
        if let Err(error) = styles::apply(&root) {
            host.error(format!("The studio's styles could not be applied ({error:?}); it may look unstyled."));
        }
        let owner = Owner::new();
        let (attributes, view) = owner.with(|| {
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
