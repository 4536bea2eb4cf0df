//! The editor's stage: the canvas that takes pointer, pen, touch and wheel input (turned into `PointerInput`s in
//! CSS pixels of the canvas) and shows the loading or failure of the photo over it.

use leptos::prelude::*;
use leptos_i18n::td_string;
use wasm_bindgen::JsCast;
use web_sys::{PointerEvent, WheelEvent};

use super::editing::{PointerInput, PointerKind};
use super::handle::{Editor, Photo};
use crate::locale::use_locale;

/// The canvas's top-left corner in the viewport: read once per event (it forces layout), not once per sample.
fn origin(canvas: &web_sys::Element) -> (f64, f64) {
    let rect = canvas.get_bounding_client_rect();
    (rect.left(), rect.top())
}

fn pointer_input(event: &PointerEvent, (left, top): (f64, f64)) -> PointerInput {
    PointerInput {
        id: event.pointer_id(),
        kind: match event.pointer_type().as_str() {
            "pen" => PointerKind::Pen,
            "touch" => PointerKind::Touch,
            _ => PointerKind::Mouse,
        },
        button: event.button(),
        x: f64::from(event.client_x()) - left,
        y: f64::from(event.client_y()) - top,
        pressure: f64::from(event.pressure()),
    }
}

#[component]
pub fn MaskStage(editor: Editor) -> impl IntoView {
    let locale = use_locale();
    let canvas_ref = editor.canvas;
    let settings = editor.settings;

    let on_pointer_down = move |ev: PointerEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        ev.prevent_default();
        let _ = canvas.focus();
        let _ = canvas.set_pointer_capture(ev.pointer_id());
        let input = pointer_input(&ev, origin(&canvas));
        editor.with(|core| core.state.pointer_down(input, settings.brush()));
        editor.redraw();
    };
    let on_pointer_move = move |ev: PointerEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        let at = origin(&canvas);
        let coalesced = ev.get_coalesced_events();
        let mut samples: Vec<PointerInput> =
            coalesced.iter().filter_map(|e| e.dyn_into::<PointerEvent>().ok()).map(|e| pointer_input(&e, at)).collect();
        if samples.is_empty() {
            samples.push(pointer_input(&ev, at));
        }
        editor.with(|core| core.state.pointer_move(&samples, settings.brush()));
        editor.redraw();
    };
    let on_pointer_up = move |ev: PointerEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        let input = pointer_input(&ev, origin(&canvas));
        if editor.with(|core| core.state.pointer_up(input)) == Some(true) {
            editor.edited();
        } else {
            editor.redraw();
        }
    };
    let on_wheel = move |ev: WheelEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        ev.prevent_default();
        let unit = match ev.delta_mode() {
            WheelEvent::DOM_DELTA_LINE => 16.0,
            WheelEvent::DOM_DELTA_PAGE => 400.0,
            _ => 1.0,
        };
        let factor = (-ev.delta_y() * unit * 0.0015).exp();
        let (left, top) = origin(&canvas);
        let at = (f64::from(ev.client_x()) - left, f64::from(ev.client_y()) - top);
        editor.with(|core| core.state.zoom(factor, Some(at)));
        editor.redraw();
    };

    view! {
        <div class="vstage-mask-stage" class:vstage-mask-stage--panning=move || settings.panning.get()>
            <canvas
                node_ref=canvas_ref
                class="vstage-mask-canvas"
                tabindex="0"
                aria-label=move || td_string!(locale.get(), mask.stage_label)
                on:pointerdown=on_pointer_down
                on:pointermove=on_pointer_move
                on:pointerup=on_pointer_up
                on:pointercancel=on_pointer_up
                on:pointerleave=move |_| {
                    editor.with(|core| core.state.pointer_left());
                    editor.redraw();
                }
                on:wheel=on_wheel
                on:contextmenu=move |ev| ev.prevent_default()
            ></canvas>
            {move || match editor.photo.get() {
                Photo::Loading => Some(view! {
                    <p class="vstage-mask-stage__status" aria-busy="true">
                        {move || td_string!(locale.get(), mask.stage_loading)}
                    </p>
                }.into_any()),
                Photo::Failed(problem) => Some(view! {
                    <p class="vstage-error vstage-mask-stage__status" role="alert">
                        {move || problem.sentence(locale.get())}
                    </p>
                }.into_any()),
                Photo::Ready => None,
            }}
        </div>
    }
}
