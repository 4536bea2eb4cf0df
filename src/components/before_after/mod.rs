//! A before/after slider: the result over the original, split where the handle is. Drag with a pointer (mouse,
//! pen, touch) or use the keyboard (arrows by 5 %, Shift+arrows by 1 %, Home and End); screen readers get a slider.
//! `model` works out the position and how it is shown; the handle is a component of its own.

mod model;
mod slider_handle;

use leptos::ev::PointerEvent;
use leptos::html;
use leptos::prelude::*;
use leptos_i18n::td_string;

use self::model::{before_clip, position_at};
use self::slider_handle::SliderHandle;
use crate::locale::use_locale;

#[component]
pub fn BeforeAfter(
    #[prop(into)] before: Signal<String>,
    #[prop(into)] after: Signal<String>,
    /// What the two images are, e.g. "the original photo" and "the staged result".
    #[prop(into)]
    before_label: Signal<String>,
    #[prop(into)] after_label: Signal<String>,
) -> impl IntoView {
    let locale = use_locale();
    let position = RwSignal::new(50.0_f64);
    let frame = NodeRef::<html::Div>::new();
    let dragging = RwSignal::new(false);
    let move_to = move |client_x: i32| {
        let Some(frame) = frame.get_untracked() else { return };
        let rect = frame.get_bounding_client_rect();
        if let Some(at) = position_at(f64::from(client_x), rect.left(), rect.width()) {
            position.set(at);
        }
    };
    let on_down = move |event: PointerEvent| {
        if let Some(frame) = frame.get_untracked() {
            let _ = frame.set_pointer_capture(event.pointer_id());
        }
        dragging.set(true);
        move_to(event.client_x());
    };
    let on_move = move |event: PointerEvent| {
        if dragging.get_untracked() {
            move_to(event.client_x());
        }
    };
    let on_up = move |_: PointerEvent| dragging.set(false);
    view! {
        <figure class="vstage-compare">
            <div
                class="vstage-compare__frame"
                node_ref=frame
                on:pointerdown=on_down
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointercancel=on_up
            >
                <img class="vstage-compare__after" src=after alt=after_label draggable="false" />
                <img
                    class="vstage-compare__before"
                    src=before
                    alt=before_label
                    draggable="false"
                    style:clip-path=move || before_clip(position.get())
                />
                <SliderHandle position before_label after_label />
            </div>
            <figcaption class="vstage-compare__caption">
                <span>{move || td_string!(locale.get(), studio.compare_before, label = before_label.get())}</span>
                <span>{move || td_string!(locale.get(), studio.compare_after, label = after_label.get())}</span>
            </figcaption>
        </figure>
    }
}
