//! The furniture mask an agent edits before a removal: a binary bitmap at the photo's full resolution, brush and
//! eraser strokes, whole-mask edits, an undo history held within a memory bound, and export as a black-and-white PNG.
//!
//! Pure Rust with no browser types, so the same code runs in the widget (wasm) and in native tests; the widget's
//! canvas only shows what this model holds (see `Mask::paint_rgba`).

mod bitmap;
mod brush;
mod history;
mod png_io;

use bitmap::Bitmap;
pub use bitmap::Rect;
use history::{History, Snapshot};

/// The largest mask edited: 64 megapixels (an 8000x8000 photo), 64 MB of bitmap plus the browser's canvas.
pub const MAX_PIXELS: u64 = 64_000_000;
/// The most memory the undo history keeps; the oldest steps are forgotten beyond it.
pub const DEFAULT_HISTORY_BUDGET: usize = 48 * 1024 * 1024;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MaskError {
    #[error("The photo has no pixels to mask ({width}x{height}); choose another photo.")]
    Empty { width: u32, height: u32 },
    #[error(
        "The photo is too large to edit its mask ({width}x{height}, over 64 megapixels); use a smaller copy of it."
    )]
    TooLarge { width: u32, height: u32 },
    #[error("The mask image has {got} bytes where {width}x{height} pixels need {expected}; it could not be read.")]
    WrongLength { width: u32, height: u32, expected: usize, got: usize },
    #[error("The mask could not be written as a PNG ({0}); try again.")]
    Encode(String),
    #[error("The mask image could not be read ({0}); use a black-and-white PNG.")]
    Decode(String),
}

/// What a stroke does to the pixels it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Adds to the mask (these pixels will be removed).
    Brush,
    /// Takes away from the mask (these pixels are kept).
    Eraser,
}

/// A point in the photo's pixel coordinates: (0, 0) is the top-left corner of the top-left pixel, whose centre is
/// (0.5, 0.5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
}

/// A stroke in progress: the tool, and the tiles it has changed so far (saved the first time it touched them).
struct Stroke {
    value: u8,
    snapshot: Snapshot,
}

/// The mask being edited, with its history.
pub struct Mask {
    bitmap: Bitmap,
    history: History,
    stroke: Option<Stroke>,
}

impl Mask {
    /// An empty mask (nothing selected) of the photo's size.
    pub fn new(width: u32, height: u32) -> Result<Self, MaskError> {
        Ok(Self::with_bitmap(Bitmap::new(width, height)?))
    }

    /// A mask read from decoded RGBA pixels (a canvas's `getImageData`): a pixel is selected when it is opaque and
    /// light (luma and alpha at least `threshold`), so a grey or antialiased analysis mask becomes strictly binary.
    pub fn from_rgba(width: u32, height: u32, rgba: &[u8], threshold: u8) -> Result<Self, MaskError> {
        Ok(Self::with_bitmap(Bitmap::from_rgba(width, height, rgba, threshold)?))
    }

    /// A mask read from a PNG (any colour type or depth), thresholded as in `from_rgba`.
    pub fn from_png(png: &[u8], threshold: u8) -> Result<Self, MaskError> {
        Ok(Self::with_bitmap(png_io::decode(png, threshold)?))
    }

    fn with_bitmap(bitmap: Bitmap) -> Self {
        Self { bitmap, history: History::new(DEFAULT_HISTORY_BUDGET), stroke: None }
    }

    pub fn width(&self) -> u32 {
        self.bitmap.width()
    }

    pub fn height(&self) -> u32 {
        self.bitmap.height()
    }

    /// The whole mask, as a rectangle.
    pub fn bounds(&self) -> Rect {
        self.bitmap.bounds()
    }

    /// Whether the pixel at (x, y) is selected; false outside the mask.
    pub fn is_set(&self, x: u32, y: u32) -> bool {
        self.bitmap.get(x, y)
    }

    /// The share of the photo selected, from 0 to 100 (as the service's `percentage_masked`).
    pub fn percentage(&self) -> f64 {
        let total = f64::from(self.width()) * f64::from(self.height());
        self.bitmap.count_set() as f64 * 100.0 / total
    }

    /// Sets the most memory the history keeps (forgetting the oldest steps now if it holds more).
    pub fn set_history_budget(&mut self, bytes: usize) {
        self.history.set_budget(bytes);
    }

    /// The memory the history holds now, in bytes.
    pub fn history_bytes(&self) -> usize {
        self.history.bytes()
    }

    /// How many steps can be undone.
    pub fn undo_steps(&self) -> usize {
        self.history.undo_steps()
    }

    pub fn can_undo(&self) -> bool {
        self.history.undo_steps() > 0 && self.stroke.is_none()
    }

    pub fn can_redo(&self) -> bool {
        self.history.redo_steps() > 0 && self.stroke.is_none()
    }

    /// Starts a stroke; a stroke still open is finished first.
    pub fn begin_stroke(&mut self, tool: Tool) {
        self.end_stroke();
        let value = match tool {
            Tool::Brush => bitmap::SET,
            Tool::Eraser => bitmap::CLEAR,
        };
        self.stroke = Some(Stroke { value, snapshot: Snapshot::new(&self.bitmap) });
    }

    /// Paints the segment from `from` to `to` with the open stroke's tool, as a brush of radius `from_radius` at
    /// `from` changing evenly to `to_radius` at `to` (pen pressure), leaving no gap however long the segment.
    /// Returns the pixels changed (empty when there is no open stroke or nothing is inside the photo).
    pub fn stroke_segment(&mut self, from: Point, to: Point, from_radius: f64, to_radius: f64) -> Rect {
        let Some(stroke) = self.stroke.as_mut() else { return Rect::EMPTY };
        let (bitmap, value) = (&mut self.bitmap, stroke.value);
        let snapshot = &mut stroke.snapshot;
        brush::segment(from, to, from_radius, to_radius, bitmap.width(), bitmap.height(), |y, x0, x1| {
            snapshot.save_span(bitmap, y, x0, x1);
            bitmap.fill_span(y, x0, x1, value);
        })
    }

    /// Paints one dab (a press without movement).
    pub fn stroke_dab(&mut self, at: Point, radius: f64) -> Rect {
        self.stroke_segment(at, at, radius, radius)
    }

    /// Ends the open stroke and keeps it in the history (a stroke that changed nothing is not kept).
    pub fn end_stroke(&mut self) {
        if let Some(stroke) = self.stroke.take() {
            self.history.push(stroke.snapshot, &self.bitmap);
        }
    }

    /// Takes the open stroke back as if it never happened (a second finger turned it into a pinch); returns the
    /// pixels restored.
    pub fn cancel_stroke(&mut self) -> Rect {
        match self.stroke.take() {
            Some(stroke) => stroke.snapshot.restore(&mut self.bitmap),
            None => Rect::EMPTY,
        }
    }

    /// Undoes the last step; returns the pixels changed (empty when there is nothing to undo).
    pub fn undo(&mut self) -> Rect {
        self.end_stroke();
        self.history.undo(&mut self.bitmap)
    }

    /// Redoes the last undone step; returns the pixels changed.
    pub fn redo(&mut self) -> Rect {
        self.end_stroke();
        self.history.redo(&mut self.bitmap)
    }

    /// Selects nothing.
    pub fn clear(&mut self) -> Rect {
        self.whole(|bitmap| bitmap.fill_all(bitmap::CLEAR))
    }

    /// Selects everything.
    pub fn fill(&mut self) -> Rect {
        self.whole(|bitmap| bitmap.fill_all(bitmap::SET))
    }

    /// Selects what was not selected and the reverse.
    pub fn invert(&mut self) -> Rect {
        self.whole(Bitmap::invert)
    }

    /// Replaces the whole mask with decoded RGBA pixels of the same size, thresholded as in `from_rgba` (one step
    /// of history: the furniture analysis loaded over a mask being edited can be undone).
    pub fn replace_from_rgba(&mut self, rgba: &[u8], threshold: u8) -> Result<Rect, MaskError> {
        let other = Bitmap::from_rgba(self.width(), self.height(), rgba, threshold)?;
        Ok(self.whole(|bitmap| bitmap.copy_from(&other)))
    }

    /// A whole-mask edit as one step of history.
    fn whole(&mut self, edit: impl FnOnce(&mut Bitmap)) -> Rect {
        self.end_stroke();
        let mut snapshot = Snapshot::new(&self.bitmap);
        snapshot.save_all(&self.bitmap);
        edit(&mut self.bitmap);
        self.history.push(snapshot, &self.bitmap);
        self.bounds()
    }

    /// The mask as a black-and-white PNG of exactly the photo's size: white where selected (to be removed), black
    /// elsewhere, nothing in between.
    pub fn to_png(&self) -> Result<Vec<u8>, MaskError> {
        png_io::encode(&self.bitmap)
    }

    /// Writes the pixels of `rect` as RGBA rows into `out` (resized to fit), `colour` where selected and transparent
    /// elsewhere: what the editor's canvas shows over the photo.
    pub fn paint_rgba(&self, rect: Rect, colour: [u8; 4], out: &mut Vec<u8>) {
        self.bitmap.paint_rgba(rect, colour, out);
    }
}
