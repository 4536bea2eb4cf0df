//! A before/after slider: the result over the original, split where the handle is. Drag with a pointer (mouse,
//! pen, touch) or use the keyboard (arrows by 5 %, Shift+arrows by 1 %, Home and End); screen readers get a slider.

use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html;
use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;

/// The new position after `key` at `position` (0 to 100), or `None` when the key does nothing here.
pub fn key_step(position: f64, key: &str, fine: bool) -> Option<f64> {
    let step = if fine { 1.0 } else { 5.0 };
    let next = match key {
        "ArrowLeft" | "ArrowDown" => position - step,
        "ArrowRight" | "ArrowUp" => position + step,
        "PageDown" => position - 25.0,
        "PageUp" => position + 25.0,
        "Home" => 0.0,
        "End" => 100.0,
        _ => return None,
    };
    Some(next.clamp(0.0, 100.0))
}

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
        if let Some(frame) = frame.get_untracked() {
            let rect = frame.get_bounding_client_rect();
            if rect.width() > 0.0 {
                position.set(((f64::from(client_x) - rect.left()) / rect.width() * 100.0).clamp(0.0, 100.0));
            }
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
    let on_key = move |event: KeyboardEvent| {
        if let Some(next) = key_step(position.get_untracked(), &event.key(), event.shift_key()) {
            event.prevent_default();
            position.set(next);
        }
    };
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
                    style:clip-path=move || format!("inset(0 {:.2}% 0 0)", 100.0 - position.get())
                />
                <div
                    class="vstage-compare__handle"
                    style:left=move || format!("{:.2}%", position.get())
                    role="slider"
                    tabindex="0"
                    aria-label=move || td_string!(locale.get(), studio.compare_slider, before = before_label.get(), after = after_label.get())
                    aria-valuemin="0"
                    aria-valuemax="100"
                    aria-valuenow=move || format!("{:.0}", position.get())
                    aria-valuetext=move || {
                        let percent = format!("{:.0}", position.get());
                        td_string!(locale.get(), studio.compare_shown, percent = percent, before = before_label.get())
                    }
                    on:keydown=on_key
                ></div>
            </div>
            <figcaption class="vstage-compare__caption">
                <span>{move || td_string!(locale.get(), studio.compare_before, label = before_label.get())}</span>
                <span>{move || td_string!(locale.get(), studio.compare_after, label = after_label.get())}</span>
            </figcaption>
        </figure>
    }
}
