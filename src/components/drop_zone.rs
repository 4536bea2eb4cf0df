//! Where photos come from this device: a labelled file input inside a drop target that lights up while files
//! are dragged over it. Chosen or dropped, the files are handed on as one list.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn DropZone(
    /// The file input's id, for its label.
    #[prop(into)]
    id: String,
    /// Words for the person: a sentence, or a closure reading the studio's locale.
    #[prop(into)]
    label: TextProp,
    /// Whether several files may be chosen at once.
    #[prop(optional)]
    multiple: bool,
    #[prop(into)] on_files: Callback<web_sys::FileList>,
    /// Shown inside the target, under the input (an upload's progress, say).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|data| data.files()) {
            on_files.run(files);
        }
    };
    let on_choose = move |ev: leptos::ev::Event| {
        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
        if let Some(input) = input {
            if let Some(files) = input.files() {
                on_files.run(files);
            }
            // the same file may be chosen again later
            input.set_value("");
        }
    };
    view! {
        <div
            class="vstage-drop"
            class:vstage-drop--over=move || dragging.get()
            on:dragover=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <label for=id.clone()>{move || label.get().to_string()}</label>
            <input id=id type="file" multiple=multiple accept="image/jpeg,image/png,image/webp" on:change=on_choose />
            {children.map(|children| children())}
        </div>
    }
}
