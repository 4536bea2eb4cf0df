//! The editor's stage: the canvas that takes pointer, pen, touch and wheel input (read and handed to the editing
//! state by `pointer`), and the loading or failure of the photo shown over it. Once the photo is loaded the stage
//! takes its shape, so that the fitted photo fills it (up to a height the screen can show).

mod photo_status;
mod pointer;

use leptos::prelude::*;
use leptos_i18n::td_string;

use self::photo_status::PhotoStatus;
use super::handle::{Editor, Photo};
use crate::locale::use_locale;

#[component]
pub fn MaskStage(editor: Editor) -> impl IntoView {
    let locale = use_locale();
    let panning = editor.settings.panning;
    let shape = move || match editor.photo.get() {
        Photo::Ready => editor.read(|core| format!("{} / {}", core.state.mask.width(), core.state.mask.height())),
        Photo::Loading | Photo::Failed(_) => None,
    };
    view! {
        <div class="vstage-mask-stage" class:vstage-mask-stage--panning=move || panning.get() style:aspect-ratio=shape>
            <canvas
                node_ref=editor.canvas
                class="vstage-mask-canvas"
                tabindex="0"
                aria-label=move || td_string!(locale.get(), mask.stage_label)
                on:pointerdown=move |ev| pointer::pressed(editor, ev)
                on:pointermove=move |ev| pointer::moved(editor, ev)
                on:pointerup=move |ev| pointer::released(editor, ev)
                on:pointercancel=move |ev| pointer::released(editor, ev)
                on:pointerleave=move |_| pointer::left_canvas(editor)
                on:wheel=move |ev| pointer::wheeled(editor, ev)
                on:contextmenu=move |ev| ev.prevent_default()
            ></canvas>
            <PhotoStatus photo=editor.photo />
        </div>
    }
}
