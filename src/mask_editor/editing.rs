//! What input does to the mask and the view, apart from any browser type: strokes from mouse, pen (pressure sets
//! the width), touch and the keyboard (arrows move a brush, space paints), panning (space-drag, middle button),
//! pinch-zoom with two fingers, wheel and key zoom, whole-mask edits and the history asked for by a button or a key,
//! and the pixels each edit changed, collected for the next frame. Tested in the browser.

use vstage_mask::{Mask, Point, Rect, Tool};

use super::viewport::Viewport;

/// How much one zoom or brush-size step changes by.
pub const STEP: f64 = 1.25;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointerKind {
    Mouse,
    Pen,
    Touch,
}

/// One pointer sample, in CSS pixels of the canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointerInput {
    pub id: i32,
    pub kind: PointerKind,
    /// The button pressed (0 main, 1 middle), for presses.
    pub button: i16,
    pub x: f64,
    pub y: f64,
    /// 0 to 1; only a pen's is used.
    pub pressure: f64,
}

/// The pointer id of a stroke painted with the keyboard.
const KEYBOARD: i32 = -1;

/// What the pointers are doing.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Gesture {
    Idle,
    Stroke { pointer: i32, last: Point, radius: f64 },
    Pan { pointer: i32, x: f64, y: f64 },
    Pinch,
}

/// The settings input reads: chosen in the toolbar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Brush {
    pub tool: Tool,
    /// Diameter in photo pixels.
    pub size: f64,
    /// Space held: the main button pans.
    pub panning: bool,
}

impl Brush {
    fn radius(&self, input: &PointerInput) -> f64 {
        let radius = self.size / 2.0;
        match input.kind {
            // light touch: a fifth of the width; full pressure: all of it
            PointerKind::Pen => radius * (0.2 + 0.8 * input.pressure.clamp(0.0, 1.0)),
            _ => radius,
        }
    }
}

/// What a toolbar button or a shortcut asks of the mask or the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Undo,
    Redo,
    Clear,
    Invert,
    Fill,
    ZoomIn,
    ZoomOut,
    Fit,
}

impl Action {
    /// Whether it changes the mask's history (what follows it, as undo and redo, updates), not only the view.
    pub fn edits_history(self) -> bool {
        matches!(self, Action::Undo | Action::Redo | Action::Clear | Action::Invert | Action::Fill)
    }
}

/// The mask being edited, where the photo sits in the view, and what the pointers are doing.
pub struct EditorState {
    pub mask: Mask,
    viewport: Option<Viewport>,
    gesture: Gesture,
    /// Touches down, with their last positions.
    touches: Vec<(i32, f64, f64)>,
    /// Where the mouse or pen hovers, for the brush outline.
    hover: Option<(f64, f64)>,
    /// The keyboard brush, in photo pixels: shown once an arrow key moved it, until the mouse or pen moves.
    keyboard: Option<Point>,
    /// The view size the viewport was last fitted to, in CSS pixels.
    view: (f64, f64),
    /// Pixels changed since the last frame: the layer is updated once per frame, however many moves came in.
    pending: Rect,
}

impl EditorState {
    pub fn new(mask: Mask) -> Self {
        EditorState {
            mask,
            viewport: None,
            gesture: Gesture::Idle,
            touches: Vec::new(),
            hover: None,
            keyboard: None,
            view: (0.0, 0.0),
            pending: Rect::EMPTY,
        }
    }

    /// The smallest scale allowed: a quarter of the fitted one.
    fn min_scale(&self) -> f64 {
        Viewport::fit((self.mask.width(), self.mask.height()), self.view).scale / 4.0
    }

    /// Fits the photo to a view of this CSS size.
    pub fn fit(&mut self, view: (f64, f64)) {
        self.view = view;
        self.viewport = Some(Viewport::fit((self.mask.width(), self.mask.height()), view));
    }

    fn viewport(&self) -> Viewport {
        self.viewport.unwrap_or_else(|| Viewport::fit((self.mask.width(), self.mask.height()), self.view))
    }

    /// Zooms by `factor` about a CSS point (the view's centre when `None`).
    pub fn zoom(&mut self, factor: f64, at: Option<(f64, f64)>) {
        let (x, y) = at.unwrap_or((self.view.0 / 2.0, self.view.1 / 2.0));
        let min = self.min_scale();
        let mut viewport = self.viewport();
        viewport.zoom_at(factor, x, y, min);
        self.viewport = Some(viewport);
    }

    pub fn scale(&self) -> f64 {
        self.viewport().scale
    }

    /// Notes an edit's changed pixels, for the layer to copy on the next frame.
    pub fn changed(&mut self, rect: Rect) {
        self.pending = self.pending.union(rect);
    }

    /// Carries out a button's or a shortcut's action; `view` is the canvas's CSS size, which `Fit` fits the photo to.
    pub fn act(&mut self, action: Action, view: (f64, f64)) {
        let rect = match action {
            Action::Undo => self.mask.undo(),
            Action::Redo => self.mask.redo(),
            Action::Clear => self.mask.clear(),
            Action::Invert => self.mask.invert(),
            Action::Fill => self.mask.fill(),
            Action::ZoomIn => return self.zoom(STEP, None),
            Action::ZoomOut => return self.zoom(1.0 / STEP, None),
            Action::Fit => return self.fit(view),
        };
        self.changed(rect);
    }

    /// A press. Returns true when it started a stroke.
    pub fn pointer_down(&mut self, input: PointerInput, brush: Brush) -> bool {
        if input.kind == PointerKind::Touch {
            self.touches.retain(|(id, _, _)| *id != input.id);
            self.touches.push((input.id, input.x, input.y));
            if self.touches.len() >= 2 {
                // a second finger: the first one's stroke was the start of a pinch
                if matches!(self.gesture, Gesture::Stroke { .. }) {
                    let rect = self.mask.cancel_stroke();
                    self.changed(rect);
                }
                self.gesture = Gesture::Pinch;
                return false;
            }
        }
        if self.gesture != Gesture::Idle {
            return false;
        }
        if input.button == 1 || (input.button == 0 && brush.panning) {
            self.gesture = Gesture::Pan { pointer: input.id, x: input.x, y: input.y };
            return false;
        }
        if input.button != 0 {
            return false;
        }
        let at = self.viewport().to_photo(input.x, input.y);
        let radius = brush.radius(&input);
        self.mask.begin_stroke(brush.tool);
        let rect = self.mask.stroke_dab(at, radius);
        self.changed(rect);
        self.gesture = Gesture::Stroke { pointer: input.id, last: at, radius };
        true
    }

    /// A movement, with the samples the browser coalesced into it (oldest first; the event itself when none).
    pub fn pointer_move(&mut self, samples: &[PointerInput], brush: Brush) {
        let Some(latest) = samples.last().copied() else { return };
        if latest.kind != PointerKind::Touch {
            self.hover = Some((latest.x, latest.y));
            self.keyboard = None;
        }
        match self.gesture {
            Gesture::Stroke { pointer, mut last, mut radius } if pointer == latest.id => {
                let viewport = self.viewport();
                let mut rect = Rect::EMPTY;
                for sample in samples {
                    let at = viewport.to_photo(sample.x, sample.y);
                    let next = brush.radius(sample);
                    rect = rect.union(self.mask.stroke_segment(last, at, radius, next));
                    (last, radius) = (at, next);
                }
                self.changed(rect);
                self.gesture = Gesture::Stroke { pointer, last, radius };
            }
            Gesture::Pan { pointer, x, y } if pointer == latest.id => {
                let mut viewport = self.viewport();
                viewport.pan(latest.x - x, latest.y - y);
                self.viewport = Some(viewport);
                self.gesture = Gesture::Pan { pointer, x: latest.x, y: latest.y };
            }
            Gesture::Pinch => self.pinch(latest),
            _ => {}
        }
    }

    /// Two fingers: the middle between them pans, the distance between them zooms.
    fn pinch(&mut self, input: PointerInput) {
        let before = match self.touches.as_slice() {
            [a, b, ..] => (*a, *b),
            _ => return,
        };
        for touch in &mut self.touches {
            if touch.0 == input.id {
                (touch.1, touch.2) = (input.x, input.y);
            }
        }
        let after = (self.touches[0], self.touches[1]);
        let centre = |(a, b): ((i32, f64, f64), (i32, f64, f64))| ((a.1 + b.1) / 2.0, (a.2 + b.2) / 2.0);
        let distance = |(a, b): ((i32, f64, f64), (i32, f64, f64))| (a.1 - b.1).hypot(a.2 - b.2);
        let (from, to) = (centre(before), centre(after));
        let mut viewport = self.viewport();
        viewport.pan(to.0 - from.0, to.1 - from.1);
        if distance(before) > 1.0 {
            viewport.zoom_at(distance(after) / distance(before), to.0, to.1, self.min_scale());
        }
        self.viewport = Some(viewport);
    }

    /// A release (or the browser cancelling the pointer). Returns true when it ended a stroke.
    pub fn pointer_up(&mut self, input: PointerInput) -> bool {
        self.touches.retain(|(id, _, _)| *id != input.id);
        match self.gesture {
            Gesture::Stroke { pointer, .. } if pointer == input.id => {
                self.mask.end_stroke();
                self.gesture = Gesture::Idle;
                true
            }
            Gesture::Pan { pointer, .. } if pointer == input.id => {
                self.gesture = Gesture::Idle;
                false
            }
            // the pinch ends when the last finger lifts, so a remaining finger does not start a stroke
            Gesture::Pinch if self.touches.is_empty() => {
                self.gesture = Gesture::Idle;
                false
            }
            _ => false,
        }
    }

    pub fn pointer_left(&mut self) {
        self.hover = None;
    }

    /// Where the brush outline goes, in CSS pixels: the keyboard brush, else where the mouse or pen hovers.
    pub fn hover(&self) -> Option<(f64, f64)> {
        match self.keyboard {
            Some(at) => Some(self.viewport().to_css(at)),
            None => self.hover,
        }
    }

    /// Whether the keyboard brush is shown (an arrow key moved it since the mouse or pen last did).
    pub fn keyboard_brush(&self) -> bool {
        self.keyboard.is_some()
    }

    /// An arrow key: shows the keyboard brush in the middle of the photo, or moves it by steps of half the brush
    /// (never off the photo), painting on if a keyboard stroke is under way.
    pub fn key_move(&mut self, steps: (i8, i8), brush: Brush) {
        let (width, height) = (f64::from(self.mask.width()), f64::from(self.mask.height()));
        let step = (brush.size / 2.0).max(1.0);
        let to = match self.keyboard {
            None => Point::new(width / 2.0, height / 2.0),
            Some(at) => Point::new(
                (at.x + f64::from(steps.0) * step).clamp(0.0, width - 1.0),
                (at.y + f64::from(steps.1) * step).clamp(0.0, height - 1.0),
            ),
        };
        self.keyboard = Some(to);
        if let Gesture::Stroke { pointer: KEYBOARD, last, radius } = self.gesture {
            let rect = self.mask.stroke_segment(last, to, radius, radius);
            self.changed(rect);
            self.gesture = Gesture::Stroke { pointer: KEYBOARD, last: to, radius };
        }
    }

    /// Space pressed with the keyboard brush shown: a stroke starts under it (arrows then paint on). Returns
    /// true when it started one.
    pub fn key_paint(&mut self, brush: Brush) -> bool {
        let Some(at) = self.keyboard else { return false };
        if self.gesture != Gesture::Idle {
            return false;
        }
        let radius = brush.size / 2.0;
        self.mask.begin_stroke(brush.tool);
        let rect = self.mask.stroke_dab(at, radius);
        self.changed(rect);
        self.gesture = Gesture::Stroke { pointer: KEYBOARD, last: at, radius };
        true
    }

    /// Space released: the keyboard stroke ends (one undo step). Returns true when it ended one.
    pub fn key_release(&mut self) -> bool {
        if let Gesture::Stroke { pointer: KEYBOARD, .. } = self.gesture {
            self.mask.end_stroke();
            self.gesture = Gesture::Idle;
            return true;
        }
        false
    }

    /// The pixels changed since the last call, for the layer to copy.
    pub fn take_changes(&mut self) -> Rect {
        std::mem::take(&mut self.pending)
    }

    /// The viewport for a view of this CSS size: fitted again on the first call and whenever the size changed.
    pub fn viewport_for(&mut self, view: (f64, f64)) -> Viewport {
        if self.viewport.is_none() || view != self.view {
            self.fit(view);
        }
        self.viewport()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A 400x300 photo fitted to an 824x624 view: scale 2, the photo's top-left corner at (12, 12).
    fn editor() -> EditorState {
        let mut state = EditorState::new(Mask::new(400, 300).unwrap());
        state.fit((824.0, 624.0));
        state
    }

    fn brush(tool: Tool) -> Brush {
        Brush { tool, size: 20.0, panning: false }
    }

    fn input(id: i32, kind: PointerKind, button: i16, x: f64, y: f64) -> PointerInput {
        PointerInput { id, kind, button, x, y, pressure: 0.5 }
    }

    fn mouse(x: f64, y: f64) -> PointerInput {
        input(1, PointerKind::Mouse, 0, x, y)
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_stroke_paints_under_the_pointer_and_is_one_undo() {
        let mut state = editor();
        // CSS (212, 112) is photo (100, 50)
        assert!(state.pointer_down(mouse(212.0, 112.0), brush(Tool::Brush)));
        state.pointer_move(&[mouse(252.0, 112.0), mouse(292.0, 112.0)], brush(Tool::Brush));
        assert!(state.pointer_up(mouse(292.0, 112.0)));
        for x in [100, 120, 140] {
            assert!(state.mask.is_set(x, 50), "photo ({x}, 50) is painted");
        }
        assert!(!state.mask.is_set(100, 70), "the brush's radius is 10 photo pixels");
        let changed = state.take_changes();
        assert!(changed.x <= 90 && changed.x + changed.width >= 150, "{changed:?}");
        assert!(state.take_changes().is_empty(), "changes are handed over once");
        state.mask.undo();
        assert_eq!(state.mask.percentage(), 0.0);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_keyboard_brush_moves_by_half_brushes_and_paints_while_space_is_held() {
        let mut state = editor();
        assert!(!state.key_paint(brush(Tool::Brush)), "nothing to paint with before an arrow shows the brush");
        state.key_move((1, 0), brush(Tool::Brush));
        assert_eq!(state.hover(), Some((412.0, 312.0)), "the first arrow shows it in the middle: photo (200, 150)");
        state.key_move((-1, 0), brush(Tool::Brush));
        assert!(!state.mask.is_set(190, 150), "moving alone paints nothing");
        assert!(state.key_paint(brush(Tool::Brush)));
        state.key_move((-4, 0), brush(Tool::Brush));
        assert!(state.key_release());
        for x in [150, 170, 190] {
            assert!(state.mask.is_set(x, 150), "photo ({x}, 150) is painted");
        }
        assert!(!state.mask.is_set(210, 150));
        state.mask.undo();
        assert_eq!(state.mask.percentage(), 0.0, "the stroke was one undo step");
        // it never leaves the photo, and the mouse takes over
        state.key_move((-127, -127), brush(Tool::Brush));
        assert_eq!(state.hover(), Some((12.0, 12.0)));
        state.pointer_move(&[mouse(300.0, 300.0)], brush(Tool::Brush));
        assert!(!state.keyboard_brush());
        assert_eq!(state.hover(), Some((300.0, 300.0)));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_eraser_removes_and_another_pointer_does_nothing() {
        let mut state = editor();
        state.mask.fill();
        state.pointer_down(mouse(212.0, 112.0), brush(Tool::Eraser));
        state.pointer_move(&[input(7, PointerKind::Mouse, 0, 612.0, 412.0)], brush(Tool::Eraser));
        state.pointer_up(mouse(212.0, 112.0));
        assert!(!state.mask.is_set(100, 50));
        assert!(state.mask.is_set(300, 200), "a move of another pointer is not part of the stroke");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_pen_paints_as_wide_as_it_presses() {
        let mut state = editor();
        let light = PointerInput { pressure: 0.0, ..input(2, PointerKind::Pen, 0, 212.0, 112.0) };
        state.pointer_down(light, brush(Tool::Brush));
        state.pointer_up(light);
        // a fifth of the radius: 2 photo pixels
        assert!(state.mask.is_set(100, 50) && !state.mask.is_set(100, 54));
        let firm = PointerInput { pressure: 1.0, ..input(2, PointerKind::Pen, 0, 612.0, 412.0) };
        state.pointer_down(firm, brush(Tool::Brush));
        state.pointer_up(firm);
        assert!(state.mask.is_set(300, 209));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_middle_button_or_space_pans_without_painting() {
        let mut state = editor();
        let before = state.viewport_for((824.0, 624.0));
        assert!(!state.pointer_down(input(1, PointerKind::Mouse, 1, 100.0, 100.0), brush(Tool::Brush)));
        state.pointer_move(&[input(1, PointerKind::Mouse, 1, 130.0, 90.0)], brush(Tool::Brush));
        assert!(!state.pointer_up(input(1, PointerKind::Mouse, 1, 130.0, 90.0)));
        let after = state.viewport_for((824.0, 624.0));
        assert_eq!((after.x - before.x, after.y - before.y), (30.0, -10.0));

        let space = Brush { panning: true, ..brush(Tool::Brush) };
        assert!(!state.pointer_down(mouse(300.0, 300.0), space));
        state.pointer_move(&[mouse(310.0, 300.0)], space);
        state.pointer_up(mouse(310.0, 300.0));
        assert_eq!(state.viewport_for((824.0, 624.0)).x - after.x, 10.0);
        assert_eq!(state.mask.percentage(), 0.0);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_second_finger_turns_the_stroke_into_a_pinch() {
        let mut state = editor();
        let finger = |id, x, y| input(id, PointerKind::Touch, 0, x, y);
        assert!(state.pointer_down(finger(1, 312.0, 312.0), brush(Tool::Brush)));
        assert!(state.mask.percentage() > 0.0);
        assert!(!state.pointer_down(finger(2, 512.0, 312.0), brush(Tool::Brush)));
        assert_eq!(state.mask.percentage(), 0.0, "the first finger's dab is taken back");
        assert!(!state.mask.can_undo(), "and leaves nothing to undo");
        // the fingers move apart from 200 to 400 CSS pixels: twice the scale, about their middle
        state.pointer_move(&[finger(2, 712.0, 312.0)], brush(Tool::Brush));
        state.pointer_move(&[finger(1, 312.0, 312.0)], brush(Tool::Brush));
        assert_eq!(state.scale(), 4.0);
        // lifting one finger does not start a stroke with the other
        assert!(!state.pointer_up(finger(2, 712.0, 312.0)));
        state.pointer_move(&[finger(1, 300.0, 300.0)], brush(Tool::Brush));
        assert!(!state.pointer_up(finger(1, 300.0, 300.0)));
        assert_eq!(state.mask.percentage(), 0.0);
        assert!(state.pointer_down(finger(3, 312.0, 312.0), brush(Tool::Brush)), "a new touch paints again");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn zoom_stays_between_a_quarter_of_the_fit_and_the_maximum() {
        let mut state = editor();
        state.zoom(1e-6, None);
        assert_eq!(state.scale(), 0.5);
        let anchor = state.viewport_for((824.0, 624.0)).to_photo(100.0, 80.0);
        state.zoom(1e6, Some((100.0, 80.0)));
        assert_eq!(state.scale(), super::super::viewport::MAX_SCALE);
        // the photo point under the pointer stayed there
        assert_eq!(state.viewport_for((824.0, 624.0)).to_photo(100.0, 80.0), anchor);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_new_view_size_fits_the_photo_again_and_hover_follows_the_mouse() {
        let mut state = editor();
        state.zoom(3.0, None);
        assert_eq!(state.viewport_for((824.0, 624.0)).scale, 6.0);
        assert_eq!(state.viewport_for((424.0, 324.0)).scale, 1.0);
        state.pointer_move(&[mouse(40.0, 50.0)], brush(Tool::Brush));
        assert_eq!(state.hover(), Some((40.0, 50.0)));
        state.pointer_left();
        assert_eq!(state.hover(), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn whole_mask_edits_and_the_history_change_the_mask_and_zooming_the_view() {
        let mut state = editor();
        state.act(Action::Fill, (824.0, 624.0));
        assert_eq!(state.mask.percentage(), 100.0);
        assert!(!state.take_changes().is_empty(), "the filled pixels are drawn on the next frame");
        state.act(Action::Invert, (824.0, 624.0));
        state.act(Action::Undo, (824.0, 624.0));
        assert_eq!(state.mask.percentage(), 100.0);
        state.act(Action::Redo, (824.0, 624.0));
        assert_eq!(state.mask.percentage(), 0.0);
        state.act(Action::ZoomIn, (824.0, 624.0));
        assert_eq!(state.scale(), 2.0 * STEP);
        state.act(Action::ZoomOut, (824.0, 624.0));
        assert_eq!(state.scale(), 2.0);
        state.act(Action::Fit, (424.0, 324.0));
        assert_eq!(state.scale(), 1.0, "fitted to the view given");
        assert!(Action::Clear.edits_history() && Action::Undo.edits_history());
        assert!(!Action::ZoomIn.edits_history() && !Action::Fit.edits_history());
    }
}
