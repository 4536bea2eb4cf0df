//! The editor's keyboard: where a key was pressed, read from its event, and what `shortcuts` says it does carried
//! out on the editor (the keyboard brush, a whole-mask edit or zoom, the brush settings).

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{EventTarget, HtmlAnchorElement, HtmlButtonElement, HtmlCanvasElement, HtmlInputElement, KeyboardEvent};

use super::handle::Editor;
use super::shortcuts::{Focus, KeyPress, key_press};

/// Where the event's target is, as the shortcuts see it.
fn focus(target: Option<EventTarget>) -> Focus {
    let Some(target) = target else { return Focus::Elsewhere };
    if let Some(input) = target.dyn_ref::<HtmlInputElement>() {
        Focus::of_input(&input.type_())
    } else if target.has_type::<HtmlCanvasElement>() {
        Focus::Canvas
    } else if target.has_type::<HtmlButtonElement>() || target.has_type::<HtmlAnchorElement>() {
        Focus::Control
    } else {
        Focus::Elsewhere
    }
}

/// A key pressed anywhere in the editor.
pub fn pressed(editor: Editor, ev: &KeyboardEvent) {
    let keyboard_brush = editor.read(|core| core.state.keyboard_brush()) == Some(true);
    let command = ev.ctrl_key() || ev.meta_key();
    let press = key_press(&ev.key(), command, ev.shift_key(), focus(ev.target()), keyboard_brush);
    if press != KeyPress::Ignored {
        ev.prevent_default();
    }
    match press {
        KeyPress::Ignored => {}
        KeyPress::MoveBrush(across, down) => {
            editor.with(|core| core.state.key_move((across, down), editor.settings.brush()));
            editor.redraw();
        }
        // held down, the key repeats: the stroke goes on
        KeyPress::Paint if ev.repeat() => {}
        KeyPress::Paint => {
            editor.with(|core| core.state.key_paint(editor.settings.brush()));
            editor.redraw();
        }
        KeyPress::Act(action) => editor.act(action),
        KeyPress::Brush(shortcut) => editor.settings.apply(shortcut),
    }
}

/// A key let go: space ends panning, and the keyboard stroke (one undo step).
pub fn released(editor: Editor, ev: &KeyboardEvent) {
    if ev.key() == " " {
        editor.settings.panning.set(false);
        if editor.with(|core| core.state.key_release()) == Some(true) {
            editor.edited();
        }
    }
}
