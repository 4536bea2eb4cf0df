//! Where photos come from this device: a drop target that lights up while files are dragged over it, with a
//! button that chooses files and, on a touch screen, one that takes a photo with the camera. Chosen, taken or
//! dropped, the files are handed on as one list. The native file inputs are hidden (their "No file chosen" would
//! stay beside an uploaded photo) but keep the focus and their labels.

use leptos::prelude::*;
use leptos_i18n::td_string;
use wasm_bindgen::JsCast;

use crate::locale::use_locale;

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
    let locale = use_locale();
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
            <p class="vstage-drop__words">{move || label.get().to_string()}</p>
            <div class="vstage-drop__actions">
                <label class="vstage-button vstage-button--secondary vstage-drop__choose">
                    <input id=id.clone() class="vstage-visually-hidden" type="file" multiple=multiple
                        accept="image/jpeg,image/png,image/webp" on:change=on_choose />
                    {move || match multiple {
                        true => td_string!(locale.get(), forms.picker_choose_several),
                        false => td_string!(locale.get(), forms.picker_choose),
                    }}
                </label>
                // Phones open their camera for `capture`; the button is shown on touch screens only (screens.css).
                <label class="vstage-button vstage-button--secondary vstage-drop__camera">
                    <input id=format!("{id}-camera") class="vstage-visually-hidden" type="file" accept="image/*"
                        capture="environment" on:change=on_choose />
                    {move || td_string!(locale.get(), forms.picker_camera)}
                </label>
            </div>
            {children.map(|children| children())}
        </div>
    }
}
