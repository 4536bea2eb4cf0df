//! What the editor shows: an off-screen canvas of the photo's full size holding the coloured mask (updated only
//! where an edit changed it), and the visible canvas that draws photo and mask through the viewport, sharp at any
//! device pixel ratio, with the brush outline under the pointer.

use vstage_mask::{Mask, Rect};
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlImageElement, ImageData};

use super::problem::Problem;
use super::viewport::Viewport;

/// Rows painted at once on a full repaint, so a 12-megapixel mask never needs a 48 MB buffer.
const BAND_ROWS: u32 = 256;

/// A canvas of this size, not attached to the page, and its 2D context.
pub fn offscreen(width: u32, height: u32) -> Result<(HtmlCanvasElement, CanvasRenderingContext2d), Problem> {
    let canvas: HtmlCanvasElement = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.create_element("canvas").ok())
        .and_then(|element| element.dyn_into().ok())
        .ok_or(Problem::NoCanvas)?;
    canvas.set_width(width);
    canvas.set_height(height);
    let context = context_2d(&canvas)?;
    Ok((canvas, context))
}

fn context_2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, Problem> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|context| context.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or(Problem::NoDrawing)
}

/// The coloured mask at the photo's resolution.
pub struct MaskLayer {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    colour: [u8; 4],
    buffer: Vec<u8>,
}

impl MaskLayer {
    pub fn new(width: u32, height: u32, colour: [u8; 3]) -> Result<Self, Problem> {
        let (canvas, context) = offscreen(width, height)?;
        Ok(Self { canvas, context, colour: [colour[0], colour[1], colour[2], 255], buffer: Vec::new() })
    }

    pub fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    /// Copies the pixels of `rect` from the model.
    pub fn update(&mut self, mask: &Mask, rect: Rect) {
        if rect.is_empty() {
            return;
        }
        mask.paint_rgba(rect, self.colour, &mut self.buffer);
        let pixels = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&self.buffer), rect.width, rect.height);
        if let Ok(pixels) = pixels {
            let _ = self.context.put_image_data(&pixels, f64::from(rect.x), f64::from(rect.y));
        }
    }

    /// Reads one pixel back, which makes the browser apply the updates now (as a frame would): for measuring.
    pub fn read_one_pixel(&self, at: vstage_mask::Point) {
        let _ = self.context.get_image_data(at.x.max(0.0), at.y.max(0.0), 1.0, 1.0);
    }

    /// Repaints everything, band by band.
    pub fn repaint(&mut self, mask: &Mask) {
        let (width, height) = (mask.width(), mask.height());
        for y in (0..height).step_by(BAND_ROWS as usize) {
            self.update(mask, Rect { x: 0, y, width, height: BAND_ROWS.min(height - y) });
        }
    }

    /// Recolours the whole layer.
    pub fn set_colour(&mut self, mask: &Mask, colour: [u8; 3]) {
        let colour = [colour[0], colour[1], colour[2], 255];
        if colour != self.colour {
            self.colour = colour;
            self.repaint(mask);
        }
    }
}

/// What one frame shows.
pub struct Frame<'a> {
    pub photo: &'a HtmlImageElement,
    pub layer: &'a MaskLayer,
    pub viewport: Viewport,
    pub opacity: f64,
    /// The brush under the pointer: centre in CSS pixels and radius in photo pixels.
    pub brush: Option<(f64, f64, f64)>,
}

/// Draws a frame on the visible canvas, resizing its backing store to its CSS size x the device pixel ratio.
pub fn draw(canvas: &HtmlCanvasElement, frame: &Frame) -> Result<(), Problem> {
    let ratio = web_sys::window().map(|window| window.device_pixel_ratio()).unwrap_or(1.0).max(1.0);
    let (css_width, css_height) = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
    let (width, height) = ((css_width * ratio).round() as u32, (css_height * ratio).round() as u32);
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
    let context = context_2d(canvas)?;
    let view = frame.viewport;
    let _ = context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    context.clear_rect(0.0, 0.0, f64::from(width), f64::from(height));
    let _ = context.set_transform(ratio * view.scale, 0.0, 0.0, ratio * view.scale, ratio * view.x, ratio * view.y);
    // a smooth photo when shrunk, crisp pixels when magnified
    context.set_image_smoothing_enabled(view.scale < 2.0);
    context.set_global_alpha(1.0);
    let _ = context.draw_image_with_html_image_element(frame.photo, 0.0, 0.0);
    context.set_image_smoothing_enabled(view.scale < 1.0);
    context.set_global_alpha(frame.opacity);
    let _ = context.draw_image_with_html_canvas_element(frame.layer.canvas(), 0.0, 0.0);
    context.set_global_alpha(1.0);
    if let Some((x, y, radius)) = frame.brush {
        let _ = context.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
        let radius = (radius * view.scale).max(1.0);
        for (colour, width) in [("rgba(0, 0, 0, 0.7)", 3.0), ("rgba(255, 255, 255, 0.95)", 1.5)] {
            context.begin_path();
            let _ = context.arc(x, y, radius, 0.0, std::f64::consts::TAU);
            context.set_stroke_style_str(colour);
            context.set_line_width(width);
            context.stroke();
        }
    }
    Ok(())
}
