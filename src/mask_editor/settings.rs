//! The brush and overlay as the person set them: tool, size (and its largest for this photo), overlay colour and
//! opacity, and whether Space is held to pan. A state type with methods, shared by the editor and its toolbar,
//! tested in the browser.

use leptos::prelude::*;
use vstage_mask::Tool;

use super::editing::Brush;
use super::shortcuts::{Shortcut, larger, smaller};

/// The overlay's colour when a colour cannot be read.
const DEFAULT_COLOUR: [u8; 3] = [255, 45, 85];

#[derive(Debug, Clone, Copy)]
pub struct BrushSettings {
    pub tool: RwSignal<Tool>,
    /// Brush diameter in photo pixels.
    pub size: RwSignal<f64>,
    pub max_size: RwSignal<f64>,
    /// `#rrggbb`, as a colour input gives it.
    pub colour: RwSignal<String>,
    pub opacity: RwSignal<f64>,
    /// Space held: the main button pans.
    pub panning: RwSignal<bool>,
}

impl BrushSettings {
    pub fn new() -> Self {
        BrushSettings {
            tool: RwSignal::new(Tool::Brush),
            size: RwSignal::new(40.0),
            max_size: RwSignal::new(400.0),
            colour: RwSignal::new("#ff2d55".to_string()),
            opacity: RwSignal::new(0.55),
            panning: RwSignal::new(false),
        }
    }

    /// Sizes the brush for a photo of `width` x `height`: a fiftieth of its longer side (about a chair at the photo's
    /// scale), at most an eighth of it (and never under 100 px).
    pub fn fit_photo(&self, width: u32, height: u32) {
        let longer = f64::from(width.max(height));
        self.size.set((longer / 50.0).round().clamp(4.0, 200.0));
        self.max_size.set((longer / 8.0).max(100.0));
    }

    /// The brush as input reads it now.
    pub fn brush(&self) -> Brush {
        Brush {
            tool: self.tool.get_untracked(),
            size: self.size.get_untracked(),
            panning: self.panning.get_untracked(),
        }
    }

    /// The overlay colour as bytes.
    pub fn colour_bytes(&self) -> [u8; 3] {
        self.colour.with(|hex| parse_colour(hex))
    }

    /// Carries out a shortcut that changes the brush (size, tool, panning); the others are the editor's.
    pub fn apply(&self, shortcut: Shortcut) {
        match shortcut {
            Shortcut::SmallerBrush => self.size.update(|size| *size = smaller(*size)),
            Shortcut::LargerBrush => {
                let max = self.max_size.get_untracked();
                self.size.update(|size| *size = larger(*size, max));
            }
            Shortcut::Brush => self.tool.set(Tool::Brush),
            Shortcut::Eraser => self.tool.set(Tool::Eraser),
            Shortcut::Pan => self.panning.set(true),
            Shortcut::Undo
            | Shortcut::Redo
            | Shortcut::ZoomIn
            | Shortcut::ZoomOut
            | Shortcut::Fit
            | Shortcut::MoveBrush(..) => {}
        }
    }
}

/// `#rrggbb` as bytes; anything else is the default colour.
fn parse_colour(hex: &str) -> [u8; 3] {
    let byte = |i: usize| hex.get(i..i + 2).and_then(|s| u8::from_str_radix(s, 16).ok());
    match (hex.len(), hex.starts_with('#'), byte(1), byte(3), byte(5)) {
        (7, true, Some(red), Some(green), Some(blue)) => [red, green, blue],
        _ => DEFAULT_COLOUR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_brush_fits_the_photo_and_steps_within_it() {
        Owner::new().with(|| {
            let settings = BrushSettings::new();
            settings.fit_photo(4000, 3000);
            assert_eq!((settings.size.get_untracked(), settings.max_size.get_untracked()), (80.0, 500.0));
            settings.apply(Shortcut::LargerBrush);
            assert_eq!(settings.size.get_untracked(), 100.0);
            settings.fit_photo(300, 200);
            assert_eq!((settings.size.get_untracked(), settings.max_size.get_untracked()), (6.0, 100.0));
            settings.apply(Shortcut::Eraser);
            settings.apply(Shortcut::Pan);
            settings.apply(Shortcut::Undo);
            assert_eq!(settings.brush(), Brush { tool: Tool::Eraser, size: 6.0, panning: true }, "undo leaves it");
        });
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn colours_are_read_from_a_colour_input_and_nothing_else() {
        assert_eq!(parse_colour("#0a10ff"), [10, 16, 255]);
        assert_eq!(parse_colour("#zz0000"), DEFAULT_COLOUR);
        assert_eq!(parse_colour("red"), DEFAULT_COLOUR);
    }
}
