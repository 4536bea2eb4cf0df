//! `<vstage-mask-editor>`: the editor as an element of its own, defined by the wasm chunk holding the editor, which
//! the studio loads only when an agent opens it. It renders into the element itself (inside the studio's shadow
//! root, under its styles) and asks the studio for what needs the server through functions set as its properties.
//! It speaks the language of its `lang` (which the studio keeps at its own), else of the nearest element above it
//! with a `lang`, else the page's or the browser's: it provides its own locale, so it works without the studio too.

use std::any::Any;
use std::sync::Once;

use js_sys::{Array, Function, Promise, Reflect};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, HtmlElement};

use super::MaskEditor;
use super::problem::Problem;
use crate::custom_element::define_element;
use crate::locale::provide_locale;

pub const ELEMENT: &str = "vstage-mask-editor";
/// Read when the element joins the page: the studio makes a new element for another photo.
pub const IMAGE_URL: &str = "image-url";
/// The analysis mask (white = furniture) to start from, if any.
pub const START_FROM: &str = "start-from";
/// The language to speak (`de`, `fr-CA`); followed while the editor is open.
pub const LANG: &str = "lang";

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
        define_element(ELEMENT, &[IMAGE_URL, START_FROM, LANG], false, |element, _| {
            JsValue::from(MountedEditor::mount(element))
        })
    });
}

/// One element's editor; dropping it (the element left the page) unmounts it and runs its cleanups.
#[wasm_bindgen]
pub struct MountedEditor {
    owner: Owner,
    element: HtmlElement,
    lang: RwSignal<Option<String>>,
    view: Option<Box<dyn Any>>,
}

#[wasm_bindgen]
impl MountedEditor {
    /// The photo's attributes are read once, when the element joins the page; `lang` is followed.
    pub fn set(&self, name: &str, value: Option<String>) {
        if name == LANG {
            let _ = self
                .lang
                .try_set(value.filter(|lang| !lang.trim().is_empty()).or_else(|| inherited_lang(&self.element)));
        }
    }
}

impl MountedEditor {
    fn mount(element: HtmlElement) -> MountedEditor {
        let owner = Owner::new();
        let image_url = element.get_attribute(IMAGE_URL).unwrap_or_default();
        let start_from = element.get_attribute(START_FROM).filter(|url| !url.is_empty());
        let studio = Studio { element: element.clone() };
        let (lang, view) = owner.with(|| {
            // Its own locale, whether or not the studio's is reachable from here: `use_locale` cannot fail inside.
            let lang = RwSignal::new(own_lang(&element).or_else(|| inherited_lang(&element)));
            provide_locale(lang.into());
            element.set_inner_html("");
            let handle = leptos::mount::mount_to(element.clone(), move || {
                view! { <MaskEditor image_url start_from studio /> }.into_any()
            });
            (lang, Box::new(handle) as Box<dyn Any>)
        });
        MountedEditor { owner, element, lang, view: Some(view) }
    }
}

/// The element's own `lang`, when it has one.
fn own_lang(element: &web_sys::Element) -> Option<String> {
    element.get_attribute(LANG).filter(|lang| !lang.trim().is_empty())
}

/// The `lang` of the nearest element above it, across the shadow root it may be in (the studio's); `None` leaves
/// the page's and the browser's languages to decide.
fn inherited_lang(element: &HtmlElement) -> Option<String> {
    let mut node: web_sys::Node = element.clone().into();
    loop {
        node = node.parent_node()?;
        if let Some(root) = node.dyn_ref::<web_sys::ShadowRoot>() {
            node = root.host().into();
        }
        if let Some(lang) = node.dyn_ref::<web_sys::Element>().and_then(own_lang) {
            return Some(lang);
        }
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
    pub async fn analyze(&self, image_url: &str) -> Result<String, Problem> {
        let answer = self.call(ANALYZE, &Array::of1(&JsValue::from_str(image_url))).await?;
        answer.as_string().ok_or(Problem::NoAnalysis)
    }

    /// Uploads the mask, reporting progress from 0.0 to 1.0: the address the service will fetch it from.
    pub async fn upload(&self, png: &Blob, on_progress: impl Fn(f64) + 'static) -> Result<String, Problem> {
        let progress = Closure::<dyn Fn(f64)>::new(on_progress);
        let answer = self.call(UPLOAD, &Array::of2(png, progress.as_ref())).await;
        drop(progress);
        answer?.as_string().ok_or(Problem::NoMaskAddress)
    }

    pub fn done(&self, mask_url: String) {
        let _ = self
            .function(DONE)
            .and_then(|done| done.call1(&JsValue::NULL, &JsValue::from(mask_url)).map_err(|error| sentence(&error)));
    }

    pub fn cancel(&self) {
        let _ = self.function(CANCEL).and_then(|cancel| cancel.call0(&JsValue::NULL).map_err(|error| sentence(&error)));
    }

    fn function(&self, name: &str) -> Result<Function, Problem> {
        Reflect::get(&self.element, &JsValue::from_str(name))
            .ok()
            .and_then(|value| value.dyn_into::<Function>().ok())
            .ok_or_else(|| Problem::Missing(name.to_string()))
    }

    async fn call(&self, name: &str, arguments: &Array) -> Result<JsValue, Problem> {
        let answer = self.function(name)?.apply(&JsValue::NULL, arguments).map_err(|error| sentence(&error))?;
        JsFuture::from(Promise::resolve(&answer)).await.map_err(|error| sentence(&error))
    }
}

/// A rejection's sentence (the studio rejects with one, in its language), or a general one.
fn sentence(error: &JsValue) -> Problem {
    error.as_string().map_or(Problem::StudioFailed, Problem::Said)
}
