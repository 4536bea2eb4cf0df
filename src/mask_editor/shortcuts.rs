//! The mask editor's keyboard shortcuts as pure functions of the key, its modifiers and where it was pressed, and
//! the brush sizes they step through; the editor only carries out what this says. Tested in the browser.

use super::editing::{Action, STEP};

/// The smallest brush, in photo pixels.
pub const MIN_BRUSH: f64 = 2.0;

/// What a key press asks of the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shortcut {
    Undo,
    Redo,
    SmallerBrush,
    LargerBrush,
    ZoomIn,
    ZoomOut,
    Fit,
    Brush,
    Eraser,
    /// Space held: dragging pans instead of painting; with the keyboard brush shown, it paints.
    Pan,
    /// An arrow key: the keyboard brush moves this many steps across and down (four with Shift).
    MoveBrush(i8, i8),
}

/// How many steps an arrow moves the keyboard brush with Shift.
pub const LONG_MOVE: i8 = 4;

/// The shortcut of `key` (the `KeyboardEvent.key` value) with Ctrl or Cmd (`command`) and Shift; `None` for a key
/// the editor leaves to the page.
pub fn shortcut(key: &str, command: bool, shift: bool) -> Option<Shortcut> {
    Some(match (key, command, shift) {
        ("z" | "Z", true, false) => Shortcut::Undo,
        ("z" | "Z", true, true) | ("y" | "Y", true, _) => Shortcut::Redo,
        ("[", false, _) => Shortcut::SmallerBrush,
        ("]", false, _) => Shortcut::LargerBrush,
        ("+" | "=", false, _) => Shortcut::ZoomIn,
        ("-", false, _) => Shortcut::ZoomOut,
        ("0", false, _) => Shortcut::Fit,
        ("b" | "B", false, _) => Shortcut::Brush,
        ("e" | "E", false, _) => Shortcut::Eraser,
        (" ", false, _) => Shortcut::Pan,
        ("ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown", false, shift) => {
            let steps = if shift { LONG_MOVE } else { 1 };
            match key {
                "ArrowLeft" => Shortcut::MoveBrush(-steps, 0),
                "ArrowRight" => Shortcut::MoveBrush(steps, 0),
                "ArrowUp" => Shortcut::MoveBrush(0, -steps),
                _ => Shortcut::MoveBrush(0, steps),
            }
        }
        _ => return None,
    })
}

/// Where a key was pressed, as far as the shortcuts care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// A field to type in: no key is a shortcut there.
    TextField,
    /// The canvas: arrows move the keyboard brush, and space paints with it.
    Canvas,
    /// A button or a link: space presses it, as everywhere else.
    Control,
    /// Anywhere else in the editor (a slider or a list keeps its own arrows).
    Elsewhere,
}

impl Focus {
    /// An `<input>` of this `type`: a field to type in, unless it is a slider, a colour, a box or a radio button.
    pub fn of_input(kind: &str) -> Focus {
        match kind {
            "range" | "color" | "checkbox" | "radio" => Focus::Elsewhere,
            _ => Focus::TextField,
        }
    }
}

/// What a key press does in the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPress {
    /// Nothing: the key is the focused element's or the page's.
    Ignored,
    /// The keyboard brush moves this many steps across and down.
    MoveBrush(i8, i8),
    /// A keyboard stroke starts under the keyboard brush (space, unless it is held and repeating).
    Paint,
    /// A whole-mask edit, undo or redo, or zoom.
    Act(Action),
    /// The brush changes (size, tool, panning): `BrushSettings::apply` carries it out.
    Brush(Shortcut),
}

/// What `key` with Ctrl or Cmd (`command`) and Shift does, pressed on `focus` with the keyboard brush shown or not.
pub fn key_press(key: &str, command: bool, shift: bool, focus: Focus, keyboard_brush: bool) -> KeyPress {
    if focus == Focus::TextField {
        return KeyPress::Ignored;
    }
    let Some(shortcut) = shortcut(key, command, shift) else { return KeyPress::Ignored };
    match shortcut {
        Shortcut::MoveBrush(across, down) if focus == Focus::Canvas => KeyPress::MoveBrush(across, down),
        Shortcut::MoveBrush(..) => KeyPress::Ignored,
        Shortcut::Pan if focus == Focus::Control => KeyPress::Ignored,
        Shortcut::Pan if focus == Focus::Canvas && keyboard_brush => KeyPress::Paint,
        Shortcut::Undo => KeyPress::Act(Action::Undo),
        Shortcut::Redo => KeyPress::Act(Action::Redo),
        Shortcut::ZoomIn => KeyPress::Act(Action::ZoomIn),
        Shortcut::ZoomOut => KeyPress::Act(Action::ZoomOut),
        Shortcut::Fit => KeyPress::Act(Action::Fit),
        brush => KeyPress::Brush(brush),
    }
}

/// The brush one step smaller, never under `MIN_BRUSH`.
pub fn smaller(size: f64) -> f64 {
    (size / STEP).max(MIN_BRUSH).round()
}

/// The brush one step larger, never over `max`.
pub fn larger(size: f64, max: f64) -> f64 {
    (size * STEP).min(max).round()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn command_z_undoes_and_shift_or_y_redoes() {
        assert_eq!(shortcut("z", true, false), Some(Shortcut::Undo));
        assert_eq!(shortcut("Z", true, true), Some(Shortcut::Redo), "Shift turns the key upper-case");
        assert_eq!(shortcut("y", true, false), Some(Shortcut::Redo));
        assert_eq!(shortcut("z", false, false), None, "a plain z is the page's");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn plain_keys_pick_tools_zoom_and_pan_but_not_with_command() {
        let plain = |key| shortcut(key, false, false);
        assert_eq!(plain("b"), Some(Shortcut::Brush));
        assert_eq!(plain("E"), Some(Shortcut::Eraser));
        assert_eq!(plain("="), Some(Shortcut::ZoomIn));
        assert_eq!(plain("-"), Some(Shortcut::ZoomOut));
        assert_eq!(plain("0"), Some(Shortcut::Fit));
        assert_eq!(plain(" "), Some(Shortcut::Pan));
        assert_eq!(plain("["), Some(Shortcut::SmallerBrush));
        assert_eq!(plain("]"), Some(Shortcut::LargerBrush));
        assert_eq!(shortcut("0", true, false), None, "Ctrl+0 is the browser's zoom");
        assert_eq!(plain("Tab"), None, "focus moves as usual");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn arrows_move_the_keyboard_brush_further_with_shift() {
        assert_eq!(shortcut("ArrowLeft", false, false), Some(Shortcut::MoveBrush(-1, 0)));
        assert_eq!(shortcut("ArrowDown", false, true), Some(Shortcut::MoveBrush(0, LONG_MOVE)));
        assert_eq!(shortcut("ArrowUp", true, false), None, "Ctrl+arrows are the page's");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn brush_steps_stay_within_bounds() {
        assert_eq!(smaller(40.0), 32.0);
        assert_eq!(smaller(2.0), MIN_BRUSH);
        assert_eq!(larger(40.0, 400.0), 50.0);
        assert_eq!(larger(390.0, 400.0), 400.0);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn where_a_key_is_pressed_decides_what_it_does() {
        let on = |key, focus, keyboard_brush| key_press(key, false, false, focus, keyboard_brush);
        assert_eq!(on("b", Focus::of_input("text"), false), KeyPress::Ignored, "typing in a field");
        assert_eq!(on("b", Focus::of_input("range"), false), KeyPress::Brush(Shortcut::Brush), "a slider is no field");
        assert_eq!(on("ArrowLeft", Focus::Canvas, false), KeyPress::MoveBrush(-1, 0));
        assert_eq!(on("ArrowLeft", Focus::Elsewhere, false), KeyPress::Ignored, "a slider keeps its arrows");
        assert_eq!(on(" ", Focus::Control, true), KeyPress::Ignored, "space presses the button");
        assert_eq!(on(" ", Focus::Canvas, true), KeyPress::Paint);
        assert_eq!(on(" ", Focus::Canvas, false), KeyPress::Brush(Shortcut::Pan), "no keyboard brush: space pans");
        assert_eq!(on(" ", Focus::Elsewhere, true), KeyPress::Brush(Shortcut::Pan));
        assert_eq!(key_press("z", true, false, Focus::Control, false), KeyPress::Act(Action::Undo));
        assert_eq!(on("0", Focus::Canvas, false), KeyPress::Act(Action::Fit));
        assert_eq!(on("]", Focus::Elsewhere, false), KeyPress::Brush(Shortcut::LargerBrush));
        assert_eq!(on("Tab", Focus::Canvas, false), KeyPress::Ignored);
    }
}
