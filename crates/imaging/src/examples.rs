//! The pictures the studio's forms show for each style and each sky, made by this crate's own processing from its
//! drawn samples (`scenes`): the empty living room staged in the style, the house in daylight turned to the sky.
//! Small JPEGs (`WIDTH` pixels wide), without the sandbox's mark: they are examples of a choice, not results, and
//! the same whichever service renders.

use image::RgbImage;
use image::imageops::FilterType;
use vstage_api::{RoomType, SkyStyle, Style};

/// How wide an example is, in pixels.
pub const WIDTH: u32 = 160;

/// The arrangement of the staged room: a seed whose furniture stands large and near the middle of the room.
const SEED: u64 = 3;

/// The JPEG quality of an example: small files whose furniture still reads at the size shown.
const QUALITY: u8 = 82;

/// The sample's empty living room staged in `style`, as a small JPEG.
pub fn style(style: &Style) -> Result<Vec<u8>, String> {
    let staged = crate::stage(&crate::scenes::empty_living_room(), &RoomType::Living, style, SEED);
    small_jpeg(&staged)
}

/// The sample's house in daylight turned to `sky`, as a small JPEG.
pub fn sky(sky: &SkyStyle) -> Result<Vec<u8>, String> {
    small_jpeg(&crate::adjust::dusk(&crate::scenes::house_in_daylight(), sky))
}

fn small_jpeg(image: &RgbImage) -> Result<Vec<u8>, String> {
    let height = (u64::from(image.height()) * u64::from(WIDTH) / u64::from(image.width().max(1))).max(1) as u32;
    let small = image::imageops::resize(image, WIDTH, height, FilterType::Lanczos3);
    crate::jpeg(&small, QUALITY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_example_is_a_small_jpeg_of_its_own() {
        let mut seen = Vec::new();
        for style in [Style::Modern, Style::Scandinavian, Style::Industrial, Style::Luxury, Style::Coastal] {
            let bytes = super::style(&style).unwrap();
            let image = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).unwrap();
            assert_eq!((image.width(), image.height()), (WIDTH, WIDTH * 2 / 3), "{style}");
            assert!(bytes.len() < 8 * 1024, "{style}: {} bytes", bytes.len());
            assert!(!seen.contains(&bytes), "{style} looks like another style");
            seen.push(bytes);
        }
        for sky in SkyStyle::KNOWN {
            let bytes = super::sky(sky).unwrap();
            assert!(image::load_from_memory(&bytes).is_ok() && bytes.len() < 8 * 1024, "{sky}");
            assert!(!seen.contains(&bytes), "{sky} looks like another example");
            seen.push(bytes);
        }
    }
}
