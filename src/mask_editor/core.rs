//! The editor's working state and what input does to it: strokes from mouse, pen (pressure sets the width) and
//! touch, panning (space-drag, middle button), pinch-zoom with two fingers, wheel and key zoom, and every edit
//! forwarded to the model, with the mask layer updated only where the model says pixels changed.

use vstage_mask::{Mask, Point, Rect, Tool};
use web_sys::{HtmlCanvasElement, HtmlImageElement};

use super::canvas::{self, Frame, MaskLayer};
use super::viewport::Viewport;

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

pub struct EditorCore {
    pub mask: Mask,
    pub layer: MaskLayer,
    pub photo: HtmlImageElement,
    pub viewport: Option<Viewport>,
    gesture: Gesture,
    /// Touches down, with their last positions.
    touches: Vec<(i32, f64, f64)>,
    /// Where the mouse or pen hovers, for the brush outline.
    hover: Option<(f64, f64)>,
    /// The view size the viewport was last fitted to, in CSS pixels.
    view: (f64, f64),
    /// Pixels changed since the last frame: the layer is updated once per frame, however many moves came in.
    pending: Rect,
}

impl EditorCore {
    pub fn new(mask: Mask, layer: MaskLayer, photo: HtmlImageElement) -> Self {
        EditorCore {
            mask,
            layer,
            photo,
            viewport: None,
            gesture: Gesture::Idle,
            touches: Vec::new(),
            hover: None,
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

    /// Draws the view; the photo is fitted on the first draw and whenever the canvas changes size.
    pub fn draw(&mut self, canvas: &HtmlCanvasElement, opacity: f64, brush: Brush) -> Result<(), String> {
        self.layer.update(&self.mask, std::mem::take(&mut self.pending));
        let view = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
        if self.viewport.is_none() || view != self.view {
            self.fit(view);
        }
        let frame = Frame {
            photo: &self.photo,
            layer: &self.layer,
            viewport: self.viewport(),
            opacity,
            brush: self.hover.filter(|_| !brush.panning).map(|(x, y)| (x, y, brush.size / 2.0)),
        };
        canvas::draw(canvas, &frame)
    }
}
