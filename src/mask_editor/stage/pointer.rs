//! The stage's input: pointer, pen, touch and wheel events on the canvas, read as `PointerInput`s in CSS pixels of
//! the canvas (the canvas's position read once per event, not once per sample) and handed to the editing state,
//! then drawn on the next frame.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{PointerEvent, WheelEvent};

use crate::mask_editor::editing::{PointerInput, PointerKind};
use crate::mask_editor::handle::Editor;

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

/// A press: the canvas takes the focus and the pointer, and a stroke or a pan may start.
pub fn pressed(editor: Editor, ev: PointerEvent) {
    let Some(canvas) = editor.canvas.get_untracked() else { return };
    ev.prevent_default();
    let _ = canvas.focus();
    let _ = canvas.set_pointer_capture(ev.pointer_id());
    let input = pointer_input(&ev, origin(&canvas));
    editor.with(|core| core.state.pointer_down(input, editor.settings.brush()));
    editor.redraw();
}

/// A movement, with every sample the browser coalesced into it.
pub fn moved(editor: Editor, ev: PointerEvent) {
    let Some(canvas) = editor.canvas.get_untracked() else { return };
    let at = origin(&canvas);
    let coalesced = ev.get_coalesced_events();
    let mut samples: Vec<PointerInput> =
        coalesced.iter().filter_map(|e| e.dyn_into::<PointerEvent>().ok()).map(|e| pointer_input(&e, at)).collect();
    if samples.is_empty() {
        samples.push(pointer_input(&ev, at));
    }
    editor.with(|core| core.state.pointer_move(&samples, editor.settings.brush()));
    editor.redraw();
}

/// A release or a cancel: a stroke ends as one undo step.
pub fn released(editor: Editor, ev: PointerEvent) {
    let Some(canvas) = editor.canvas.get_untracked() else { return };
    let input = pointer_input(&ev, origin(&canvas));
    if editor.with(|core| core.state.pointer_up(input)) == Some(true) {
        editor.edited();
    } else {
        editor.redraw();
    }
}

/// The pointer left the canvas: the brush outline goes.
pub fn left_canvas(editor: Editor) {
    editor.with(|core| core.state.pointer_left());
    editor.redraw();
}

/// The wheel zooms about the pointer.
pub fn wheeled(editor: Editor, ev: WheelEvent) {
    let Some(canvas) = editor.canvas.get_untracked() else { return };
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
}
