//! A custom element whose life goes to Rust: the small JS class wasm-bindgen cannot declare (it cannot extend
//! HTMLElement), defined once per page for `<vstage-widget>` and `<vstage-mask-editor>` alike.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

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
      set(value) {
        if (value == null) this.removeAttribute(attribute);
        else this.setAttribute(attribute, typeof value === "object" ? JSON.stringify(value) : String(value));
      },
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
    pub fn default_api_base() -> String;
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
