//! The sandbox's image processing: decoding with limits, one operation per processing type, the "SANDBOX"
//! mark on every result, and the three outputs (full, optimized, thumbnail); the drawn sample scenes and the forms'
//! example pictures made from them. Classical processing, no models.
//! A crate of its own so that it alone is optimised in debug builds (the root `Cargo.toml`): the sandbox's
//! workers use it, the server labels and shrinks its kept copies with it, `benches/imaging.rs` measures it.

mod adjust;
mod analysis;
pub mod examples;
mod mark;
mod removal;
pub mod scenes;
mod staging;
pub mod watermark;

use std::io::Cursor;

use image::imageops::FilterType;
use image::{DynamicImage, GrayImage, ImageFormat, ImageReader, Limits, RgbImage};
use vstage_api::{OutputResolution, RoomType, SkyStyle, Style};

use analysis::furniture_mask;
pub use staging::stage;

/// The largest image the sandbox processes.
pub const MAX_PIXELS: u64 = vstage_api::validate::MAX_PHOTO_PIXELS;

/// What to do to a photo.
#[derive(Debug, Clone)]
pub enum Operation {
    Stage { room_type: RoomType, style: Style, seed: u64 },
    Remove { mask: Option<GrayImage> },
    Dusk { sky: SkyStyle },
    Enhance,
}

/// The furniture mask of a photo and the percentage of the photo it covers.
pub fn furniture_analysis(photo: &RgbImage) -> (GrayImage, f64) {
    let mask = furniture_mask(photo);
    let white = mask.pixels().filter(|p| p.0[0] > 127).count();
    let percentage = white as f64 * 100.0 / (f64::from(mask.width()) * f64::from(mask.height()));
    (mask, percentage)
}

/// Reads an image, refusing what is not one or is larger than `MAX_PIXELS`.
pub fn decode(bytes: &[u8]) -> Result<RgbImage, String> {
    let reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    if reader.format().is_none() {
        return Err("The file is not an image the sandbox can read; send a JPEG, PNG or WebP.".into());
    }
    let (width, height) = reader
        .into_dimensions()
        .map_err(|e| format!("The image could not be read ({e}); send an undamaged JPEG, PNG or WebP."))?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!("The image is {width}x{height}, over the 50-megapixel limit; send a smaller image."));
    }
    let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_PIXELS * 4 + 64 * 1024 * 1024);
    reader.limits(limits);
    let image = reader
        .decode()
        .map_err(|e| format!("The image could not be decoded ({e}); send an undamaged JPEG, PNG or WebP."))?;
    Ok(image.to_rgb8())
}

/// Applies `operation`, adds the "Virtually Staged" disclaimer when asked, and marks the result as a sandbox image.
pub fn apply(source: &RgbImage, operation: &Operation, disclaimer: bool) -> RgbImage {
    let mut result = match operation {
        Operation::Stage { room_type, style, seed } => staging::stage(source, room_type, style, *seed),
        Operation::Remove { mask } => {
            let mask = match mask {
                Some(mask) => fit_mask(mask, source.width(), source.height()),
                None => furniture_mask(source),
            };
            removal::remove(source, &mask)
        }
        Operation::Dusk { sky } => adjust::dusk(source, sky),
        Operation::Enhance => adjust::enhance(source),
    };
    if disclaimer {
        watermark::disclose(&mut result);
    }
    mark::sandbox(&mut result);
    result
}

/// A mask at the photo's size, strictly black and white.
fn fit_mask(mask: &GrayImage, width: u32, height: u32) -> GrayImage {
    let mut mask = if mask.dimensions() == (width, height) {
        mask.clone()
    } else {
        image::imageops::resize(mask, width, height, FilterType::Triangle)
    };
    mask.pixels_mut().for_each(|p| p.0[0] = if p.0[0] > 127 { 255 } else { 0 });
    mask
}

/// The encoded results of one variation.
pub struct Outputs {
    pub full: Vec<u8>,
    pub optimized: Vec<u8>,
    pub thumbnail: Vec<u8>,
}

/// Full size (scaled for `4k`/`full-hd` or a number of pixels), an optimized copy, and a thumbnail of at most 400 px.
pub fn encode(image: &RgbImage, resolution: Option<&OutputResolution>) -> Result<Outputs, String> {
    let long_side = match resolution {
        Some(OutputResolution::FourK) => Some(3840),
        Some(OutputResolution::FullHd) => Some(1920),
        // bounded by the caller (`vstage_api::validate::SANDBOX_OUTPUT_PIXELS`)
        Some(OutputResolution::Pixels(side)) => Some(u32::try_from(*side).map_err(|_| "the resolution is too large")?),
        _ => None,
    };
    let full = match long_side {
        Some(side) => scale_to_long_side(image, side),
        None => image.clone(),
    };
    let full_bytes = encode_full(&full)?;
    Ok(Outputs {
        optimized: optimized_copy(&full, full_bytes.len() / 3)?,
        thumbnail: thumbnail(&full)?,
        full: full_bytes,
    })
}

/// The full-size JPEG alone (what a file-to-file job writes).
pub fn encode_full(image: &RgbImage) -> Result<Vec<u8>, String> {
    jpeg(image, 92)
}

/// The thumbnail alone: at most 400 px on the long side.
pub fn thumbnail(image: &RgbImage) -> Result<Vec<u8>, String> {
    jpeg(&shrink_to(image, 400), 75)
}

/// A smaller JPEG of at most `budget` bytes (a third of the full file): at most 1280 px on the long side, quality
/// 70, then lower quality, then smaller, until it fits.
pub fn optimized_copy(full: &RgbImage, budget: usize) -> Result<Vec<u8>, String> {
    let mut side = full.width().max(full.height()).min(1280);
    loop {
        let resized = shrink_to(full, side);
        for quality in [70, 55, 40] {
            let bytes = jpeg(&resized, quality)?;
            if bytes.len() <= budget || side <= 64 {
                return Ok(bytes);
            }
        }
        side = side * 3 / 4;
    }
}

fn scale_to_long_side(image: &RgbImage, side: u32) -> RgbImage {
    let (width, height) = image.dimensions();
    let scale = f64::from(side) / f64::from(width.max(height));
    let size = |n: u32| ((f64::from(n) * scale).round() as u32).max(1);
    image::imageops::resize(image, size(width), size(height), FilterType::Lanczos3)
}

fn shrink_to(image: &RgbImage, side: u32) -> RgbImage {
    if image.width().max(image.height()) <= side { image.clone() } else { scale_to_long_side(image, side) }
}

fn jpeg(image: &RgbImage, quality: u8) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality);
    DynamicImage::ImageRgb8(image.clone()).write_with_encoder(encoder).map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// A PNG of a mask, for analyses.
pub fn png(mask: &GrayImage) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    mask.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png).map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// Luminance of an sRGB pixel, 0 to 1.
fn luminance(pixel: &image::Rgb<u8>) -> f32 {
    let [r, g, b] = pixel.0;
    (0.2126 * f32::from(r) + 0.7152 * f32::from(g) + 0.0722 * f32::from(b)) / 255.0
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG whose header says `width` x `height`; only the header is real.
    fn png_claiming(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = png(&GrayImage::new(1, 1)).unwrap();
        // the IHDR chunk's data starts after the 8-byte signature, its length and its type
        bytes[16..20].copy_from_slice(&width.to_be_bytes());
        bytes[20..24].copy_from_slice(&height.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    #[test]
    fn images_over_fifty_megapixels_are_refused_before_decoding() {
        let error = decode(&png_claiming(10_000, 6_000)).unwrap_err();
        assert!(error.contains("10000x6000") && error.contains("50-megapixel"), "{error}");
    }

    #[test]
    fn what_is_not_an_image_or_is_damaged_gets_a_sentence() {
        assert!(decode(b"plain text").unwrap_err().contains("not an image"));
        let mut damaged = png(&GrayImage::new(8, 8)).unwrap();
        damaged.truncate(damaged.len() - 20);
        assert!(decode(&damaged).unwrap_err().contains("could not be"), "damaged PNGs are refused");
    }

    #[test]
    fn every_result_carries_the_sandbox_mark_and_outputs_have_their_sizes() {
        let photo = RgbImage::from_pixel(1200, 800, image::Rgb([128, 128, 128]));
        let result = apply(&photo, &Operation::Enhance, false);
        assert!(result.pixels().any(|p| p.0 == [255, 255, 255]), "the white letters of the mark");
        let outputs = encode(&result, Some(&OutputResolution::FullHd)).unwrap();
        let full = image::load_from_memory(&outputs.full).unwrap();
        assert_eq!((full.width(), full.height()), (1920, 1280));
        let thumbnail = image::load_from_memory(&outputs.thumbnail).unwrap();
        assert_eq!(thumbnail.width().max(thumbnail.height()), 400);
    }
}
