//! The mask editor in a dialog over a form: a title, a hint and the editor for one photo. The form decides what the
//! drawn mask becomes (`on_done` has its uploaded address) and when the dialog shows.

use leptos::prelude::*;

use crate::components::lazy_mask_editor::LazyMaskEditor;

#[component]
pub fn MaskDialog(
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
