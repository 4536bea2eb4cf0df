//! The `add_virtually_staged_watermark` disclaimer: "Virtually Staged" in the lower right, white on a translucent
//! dark plate, sized to the photo so it stays legible. Set in DejaVu Sans Bold (`crates/imaging/assets/fonts`, with its licence).

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use image::RgbImage;

const FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf");
pub const TEXT: &str = "Virtually Staged";

/// Draws the disclaimer; returns the plate's box (left, top, width, height), or `None` when the photo is too
/// small to hold it legibly.
pub fn disclose(image: &mut RgbImage) -> Option<(u32, u32, u32, u32)> {
    label(image, TEXT)
}

/// Draws `text` as the disclaimer is drawn (the server labels its kept copies so, in the listing's language);
/// returns the plate's box, or `None` when the photo is too small to hold it legibly.
pub fn label(image: &mut RgbImage, text: &str) -> Option<(u32, u32, u32, u32)> {
    let font = FontRef::try_from_slice(FONT).ok()?;
    let (width, height) = image.dimensions();
    let size = (height as f32 * 0.035).max(14.0);
    let scaled = font.as_scaled(PxScale::from(size));
    let text_width: f32 = text.chars().map(|c| scaled.h_advance(font.glyph_id(c))).sum::<f32>();
    let padding = (size * 0.45).round() as u32;
    let margin = (size * 0.6).round() as u32;
    let plate_width = text_width.ceil() as u32 + 2 * padding;
    let plate_height = (scaled.ascent() - scaled.descent()).ceil() as u32 + 2 * padding;
    if plate_width + 2 * margin > width || plate_height + 2 * margin > height {
        return None;
    }
    let (left, top) = (width - margin - plate_width, height - margin - plate_height);
    for y in top..top + plate_height {
        for x in left..left + plate_width {
            let pixel = image.get_pixel_mut(x, y);
            pixel.0 = pixel.0.map(|v| (f32::from(v) * 0.35) as u8);
        }
    }
    let mut caret = left as f32 + padding as f32;
    let baseline = top as f32 + padding as f32 + scaled.ascent();
    for c in text.chars() {
        let glyph = font.glyph_id(c).with_scale_and_position(PxScale::from(size), point(caret, baseline));
        caret += scaled.h_advance(font.glyph_id(c));
        let Some(outlined) = font.outline_glyph(glyph) else { continue };
        let bounds = outlined.px_bounds();
        outlined.draw(|gx, gy, coverage| {
            let (x, y) = (bounds.min.x as i64 + i64::from(gx), bounds.min.y as i64 + i64::from(gy));
            if x < 0 || y < 0 || x >= i64::from(width) || y >= i64::from(height) {
                return;
            }
            let pixel = image.get_pixel_mut(x as u32, y as u32);
            pixel.0 = pixel.0.map(|v| (f32::from(v) * (1.0 - coverage) + 255.0 * coverage).round() as u8);
        });
    }
    Some((left, top, plate_width, plate_height))
}
