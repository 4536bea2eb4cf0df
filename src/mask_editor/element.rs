//! `<vstage-mask-editor>`: the editor as an element of its own, defined by the wasm chunk holding the editor, which
//! the studio loads only when an agent opens it. It renders into the element itself (inside the studio's shadow
//! root, under its styles) and asks the studio for what needs the server through functions set as its properties.

use std::any::Any;
use std::sync::Once;

use js_sys::{Array, Function, Promise, Reflect};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, HtmlElement};

use super::MaskEditor;
use crate::embed::define_element;

pub const ELEMENT: &str = "vstage-mask-editor";
/// Read when the element joins the page: the studio makes a new element for another photo.
pub const IMAGE_URL: &str = "image-url";
/// The analysis mask (white = furniture) to start from, if any.
pub const START_FROM: &str = "start-from";

/// The studio's functions, as property names: `analyze(imageUrl)` resolves to the analysis mask's address,
/// `upload(pngBlob, onProgress)` to the uploaded mask's; `done(maskUrl)` and `cancel()` end the editing. A rejection
/// carries the sentence to show.
pub const ANALYZE: &str = "analyze";
pub const UPLOAD: &str = "upload";
pub const DONE: &str = "done";
pub const CANCEL: &str = "cancel";

/// Defines `<vstage-mask-editor>`, once per page however often it is asked.
pub fn define() {
    static DEFINED: Once = Once::new();
    DEFINED.call_once(|| {
        define_element(ELEMENT, &[IMAGE_URL, START_FROM], false, |element, _| {
            JsValue::from(MountedEditor::mount(element))
        })
    });
}

/// One element's editor; dropping it (the element left the page) unmounts it and runs its cleanups.
#[wasm_bindgen]
pub struct MountedEditor {
    owner: Owner,
    view: Option<Box<dyn Any>>,
}

#[wasm_bindgen]
impl MountedEditor {
    /// Attributes are read once, when the element joins the page.
    pub fn set(&self, _name: &str, _value: Option<String>) {}
}

impl MountedEditor {
    fn mount(element: HtmlElement) -> MountedEditor {
        let owner = Owner::new();
        let image_url = element.get_attribute(IMAGE_URL).unwrap_or_default();
        let start_from = element.get_attribute(START_FROM).filter(|url| !url.is_empty());
        let studio = Studio { element: element.clone() };
        let view = owner.with(|| {
            element.set_inner_html("");
            let handle = leptos::mount::mount_to(element, move || {
                view! { <MaskEditor image_url start_from studio /> }.into_any()
            });
            Box::new(handle) as Box<dyn Any>
        });
        MountedEditor { owner, view: Some(view) }
    }
}

impl Drop for MountedEditor {
    fn drop(&mut self) {
        self.view.take();
        self.owner.cleanup();
    }
}

/// The studio around the editor, reached through the element's function properties.
#[derive(Clone)]
pub struct Studio {
    element: HtmlElement,
}

impl Studio {
    /// The service's furniture analysis of the photo: the address of its mask.
    pub async fn analyze(&self, image_url: &str) -> Result<String, String> {
        let answer = self.call(ANALYZE, &Array::of1(&JsValue::from_str(image_url))).await?;
        answer.as_string().ok_or_else(|| "The studio gave no analysis; try again.".into())
    }

    /// Uploads the mask, reporting progress from 0.0 to 1.0: the address the service will fetch it from.
    pub async fn upload(&self, png: &Blob, on_progress: impl Fn(f64) + 'static) -> Result<String, String> {
        let progress = Closure::<dyn Fn(f64)>::new(on_progress);
        let answer = self.call(UPLOAD, &Array::of2(png, progress.as_ref())).await;
        drop(progress);
        answer?.as_string().ok_or_else(|| "The studio gave no address for the mask; try again.".into())
    }

    pub fn done(&self, mask_url: String) {
        let _ = self
            .function(DONE)
            .and_then(|done| done.call1(&JsValue::NULL, &JsValue::from(mask_url)).map_err(|error| sentence(&error)));
    }

    pub fn cancel(&self) {
        let _ = self.function(CANCEL).and_then(|cancel| cancel.call0(&JsValue::NULL).map_err(|error| sentence(&error)));
    }

    fn function(&self, name: &str) -> Result<Function, String> {
        Reflect::get(&self.element, &JsValue::from_str(name))
            .ok()
            .and_then(|value| value.dyn_into::<Function>().ok())
            .ok_or_else(|| format!("The mask editor was not given `{name}` by the studio; reload the page."))
    }

    async fn call(&self, name: &str, arguments: &Array) -> Result<JsValue, String> {
        let answer = self.function(name)?.apply(&JsValue::NULL, arguments).map_err(|error| sentence(&error))?;
        JsFuture::from(Promise::resolve(&answer)).await.map_err(|error| sentence(&error))
    }
}

/// A rejection's sentence (the studio rejects with one), or a general one.
fn sentence(error: &JsValue) -> String {
    error.as_string().unwrap_or_else(|| "The studio could not do that; try again.".into())
}
