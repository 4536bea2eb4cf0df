//! The mask editor in a dialog over a form: a title, a hint and the editor for one photo. The form decides what the
//! drawn mask becomes (`on_done` has its uploaded address) and when the dialog shows. The dialog's code, with the
//! editor's loading, is fetched when it is first opened (`lazy_mask_dialog`).

use leptos::prelude::*;

use crate::chunks::{chunk, screen};
use crate::components::lazy_mask_editor::LazyMaskEditor;

/// The dialog, its code fetched the first time one is opened.
pub fn lazy_mask_dialog(
    title: Signal<String>,
    hint: Signal<String>,
    image_url: String,
    on_done: Callback<String>,
    on_cancel: Callback<()>,
) -> AnyView {
    screen(move || Box::pin(mask_dialog(title, hint, image_url.clone(), on_done, on_cancel)))
}

chunk! {
    fn mask_dialog(
        title: Signal<String>,
        hint: Signal<String>,
        image_url: String,
        on_done: Callback<String>,
        on_cancel: Callback<()>,
    ) -> AnyView {
        view! { <MaskDialog title hint image_url on_done on_cancel /> }.into_any()
    }
}

#[component]
fn MaskDialog(
    #[prop(into)] title: Signal<String>,
    #[prop(into)] hint: Signal<String>,
    image_url: String,
    #[prop(into)] on_done: Callback<String>,
    #[prop(into)] on_cancel: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="vstage-dialog" role="dialog" aria-modal="true" aria-label=title>
            <h2>{title}</h2>
            <p class="vstage-hint">{hint}</p>
            <LazyMaskEditor image_url on_done on_cancel />
        </div>
    }
}
