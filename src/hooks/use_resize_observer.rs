//! `use_resize_observer`: calls `on_resize` whenever the element behind a node reference changes size (a window
//! resized, a phone turned), from when it is mounted until the component goes.

use leptos::html::ElementType;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::ResizeObserver;

pub fn use_resize_observer<E>(target: NodeRef<E>, on_resize: impl Fn() + Clone + 'static)
where
    E: ElementType,
    E::Output: AsRef<web_sys::Element> + JsCast + Clone + 'static,
{
    Effect::new(move |_| {
        let Some(element) = target.get() else { return };
        let callback = Closure::<dyn FnMut()>::new(on_resize.clone());
        if let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(element.as_ref());
            let watch = SendWrapper::new((observer, callback));
            on_cleanup(move || watch.0.disconnect());
        }
    });
}
