//! The mask editor as the studio shows it: its code (a chunk of the widget's wasm) is loaded the first time an agent
//! opens it, then `<vstage-mask-editor>` gets the photo and the studio's analysis and upload as JS functions.

use js_sys::{Function, Promise};
use leptos::prelude::*;
use leptos_i18n::{Locale as _, td_string};
use vstage_api::Analyze;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::Blob;

use crate::api::use_api;
use crate::chunks::chunk;
use crate::locale::errors::form_error;
use crate::locale::{Locale, use_locale};
use crate::upload::use_uploader;

chunk! {
    /// Defines `<vstage-mask-editor>` (once per page): the editor's code is a chunk of its own.
    fn mask_editor() -> () {
        crate::mask_editor::element::define()
    }
}

#[component]
pub fn LazyMaskEditor(
    /// The photo whose mask is edited.
    #[prop(into)]
    image_url: String,
    /// Start from this analysis mask (white = furniture) instead of an empty one.
    #[prop(default = None)]
    start_from: Option<String>,
    /// Called with the uploaded mask's address.
    #[prop(into)]
    on_done: Callback<String>,
    #[prop(into)] on_cancel: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let attempt = RwSignal::new(0u32);
    let loaded = LocalResource::new(move || {
        attempt.track();
        async { mask_editor().await.map_err(|_| ()) }
    });
    let services = StoredValue::new_local(Services::new(locale, on_done, on_cancel));

    move || {
        match loaded.get() {
            None => view! {
                <p class="vstage-hint" aria-busy="true">{move || td_string!(locale.get(), mask.lazy_loading)}</p>
            }
            .into_any(),
            Some(Err(())) => view! {
                <div class="vstage-panel vstage-panel--error" role="alert">
                    <p>{move || td_string!(locale.get(), mask.lazy_failed)}</p>
                    <button type="button" class="vstage-button" on:click=move |_| attempt.update(|n| *n += 1)>
                        {move || td_string!(locale.get(), common.try_again)}
                    </button>
                </div>
            }
            .into_any(),
            Some(Ok(())) => services
                .with_value(|services| {
                    view! {
                        // the editor speaks the studio's language, and follows it
                        <vstage-mask-editor
                            lang=move || locale.get().as_str()
                            image-url=image_url.clone()
                            start-from=start_from.clone()
                            prop:analyze=services.analyze.clone()
                            prop:upload=services.upload.clone()
                            prop:done=services.done.clone()
                            prop:cancel=services.cancel.clone()
                        ></vstage-mask-editor>
                    }
                })
                .into_any(),
        }
    }
}

/// The studio's side of the element's contract (`mask_editor::element`'s `ANALYZE`, `UPLOAD`, `DONE` and
/// `CANCEL`), as JS functions that live as long as the editor is shown.
struct Services {
    analyze: JsValue,
    upload: JsValue,
    done: JsValue,
    cancel: JsValue,
    _closures: [Box<dyn std::any::Any>; 4],
}

impl Services {
    /// Rejections carry the sentence the editor shows, in the studio's language of the moment.
    fn new(locale: Signal<Locale>, on_done: Callback<String>, on_cancel: Callback<()>) -> Self {
        let api = use_api();
        let uploader = use_uploader();
        let analyze = Closure::<dyn Fn(String) -> Promise>::new(move |image_url: String| {
            let api = api.clone();
            future_to_promise(async move {
                let analysis = api.analyze(&Analyze { image_url, webhook_url: None }).await;
                analysis
                    .map(|analysis| JsValue::from(analysis.result_url))
                    .map_err(|e| JsValue::from(form_error(locale.get_untracked(), &e)))
            })
        });
        let upload = Closure::<dyn Fn(Blob, Function) -> Promise>::new(move |png: Blob, progress: Function| {
            let uploader = uploader.clone();
            future_to_promise(async move {
                let report = move |share: f64| {
                    let _ = progress.call1(&JsValue::NULL, &JsValue::from(share));
                };
                let uploaded = uploader.send(&png, report).await;
                uploaded.map(|uploaded| JsValue::from(uploaded.url)).map_err(JsValue::from)
            })
        });
        let done = Closure::<dyn Fn(String)>::new(move |mask_url: String| on_done.run(mask_url));
        let cancel = Closure::<dyn Fn()>::new(move || on_cancel.run(()));
        let as_value = |closure: &dyn AsRef<JsValue>| closure.as_ref().clone();
        Services {
            analyze: as_value(&analyze),
            upload: as_value(&upload),
            done: as_value(&done),
            cancel: as_value(&cancel),
            _closures: [Box::new(analyze), Box::new(upload), Box::new(done), Box::new(cancel)],
        }
    }
}
