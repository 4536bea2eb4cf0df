//! Where the photo sits in the editor's canvas: a scale and an offset in CSS pixels, fitted to the canvas, zoomed
//! about a point (wheel, pinch, keys) and panned. Pure arithmetic, so the mapping from a pointer to a photo pixel is
//! exact and tested.

use vstage_mask::Point;

/// The most a photo pixel is magnified: 32 CSS pixels.
pub const MAX_SCALE: f64 = 32.0;
/// Space left around a fitted photo, in CSS pixels.
const FIT_MARGIN: f64 = 12.0;

/// CSS position = photo position x `scale` + (`x`, `y`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub scale: f64,
    pub x: f64,
    pub y: f64,
}

impl Viewport {
    /// The whole photo, as large as fits in the view, centred.
    pub fn fit(photo: (u32, u32), view: (f64, f64)) -> Viewport {
        let (width, height) = (f64::from(photo.0.max(1)), f64::from(photo.1.max(1)));
        let room = ((view.0 - 2.0 * FIT_MARGIN).max(1.0), (view.1 - 2.0 * FIT_MARGIN).max(1.0));
        let scale = (room.0 / width).min(room.1 / height);
        Viewport { scale, x: (view.0 - width * scale) / 2.0, y: (view.1 - height * scale) / 2.0 }
    }

    /// The photo position under a CSS position of the canvas.
    pub fn to_photo(&self, css_x: f64, css_y: f64) -> Point {
        Point::new((css_x - self.x) / self.scale, (css_y - self.y) / self.scale)
    }

    /// The CSS position of the canvas over a photo position.
    pub fn to_css(&self, at: Point) -> (f64, f64) {
        (at.x * self.scale + self.x, at.y * self.scale + self.y)
    }

    /// Multiplies the scale by `factor` keeping the photo point under (`css_x`, `css_y`) where it is; the scale stays
    /// between a quarter of the fitted one (`min_scale`) and `MAX_SCALE`.
    pub fn zoom_at(&mut self, factor: f64, css_x: f64, css_y: f64, min_scale: f64) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let anchor = self.to_photo(css_x, css_y);
        self.scale = (self.scale * factor).clamp(min_scale.min(MAX_SCALE), MAX_SCALE);
        self.x = css_x - anchor.x * self.scale;
        self.y = css_y - anchor.y * self.scale;
    }

    pub fn pan(&mut self, dx: f64, dy: f64) {
        if dx.is_finite() && dy.is_finite() {
            self.x += dx;
            self.y += dy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn a_fitted_photo_is_centred_and_whole() {
        let view = Viewport::fit((4000, 3000), (824.0, 824.0));
        assert_eq!(view.scale, 0.2);
        assert_eq!((view.x, view.y), (12.0, 112.0));
        assert_eq!(view.to_photo(12.0, 112.0), Point::new(0.0, 0.0));
        assert_eq!(view.to_photo(812.0, 712.0), Point::new(4000.0, 3000.0));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn zooming_keeps_the_point_under_the_pointer() {
        let mut view = Viewport::fit((4000, 3000), (800.0, 600.0));
        let before = view.to_photo(300.0, 200.0);
        view.zoom_at(3.0, 300.0, 200.0, 0.01);
        let after = view.to_photo(300.0, 200.0);
        assert!((before.x - after.x).abs() < 1e-9 && (before.y - after.y).abs() < 1e-9);
        view.zoom_at(1e6, 0.0, 0.0, 0.01);
        assert_eq!(view.scale, MAX_SCALE);
        view.zoom_at(1e-9, 0.0, 0.0, 0.05);
        assert_eq!(view.scale, 0.05);
        view.zoom_at(f64::NAN, 0.0, 0.0, 0.05);
        assert_eq!(view.scale, 0.05);
    }
}
