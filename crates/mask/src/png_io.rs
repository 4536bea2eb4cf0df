//! The mask as a PNG: written as 8-bit greyscale (0 or 255, nothing between) with the `png` crate's fast deflate,
//! and read from any PNG the service may send (any colour type or depth), thresholded to binary.

use std::io::Cursor;

use crate::MaskError;
use crate::bitmap::Bitmap;

pub fn encode(bitmap: &Bitmap) -> Result<Vec<u8>, MaskError> {
    let failed = |e: png::EncodingError| MaskError::Encode(e.to_string());
    // Masks are long runs of equal bytes: a few kilobytes per megapixel.
    let mut out = Vec::with_capacity(bitmap.pixels().len() / 64 + 1024);
    let mut encoder = png::Encoder::new(&mut out, bitmap.width(), bitmap.height());
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    // identical rows (most of a mask) filter to zeros, which deflate folds to almost nothing
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(bitmap.pixels()).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}

pub fn decode(bytes: &[u8], threshold: u8) -> Result<Bitmap, MaskError> {
    let failed = |e: png::DecodingError| MaskError::Decode(e.to_string());
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(failed)?;
    let (width, height) = (reader.info().width, reader.info().height);
    // checked before the pixel buffer is allocated
    Bitmap::new(width, height)?;
    let size = reader.output_buffer_size().ok_or(MaskError::TooLarge { width, height })?;
    let mut pixels = vec![0; size];
    let frame = reader.next_frame(&mut pixels).map_err(failed)?;
    let pixels = &pixels[..frame.buffer_size()];
    match frame.color_type {
        png::ColorType::Grayscale => Bitmap::from_luma(width, height, pixels, threshold),
        png::ColorType::GrayscaleAlpha => {
            let rgba: Vec<u8> = pixels.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect();
            Bitmap::from_rgba(width, height, &rgba, threshold)
        }
        png::ColorType::Rgb => {
            let rgba: Vec<u8> = pixels.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect();
            Bitmap::from_rgba(width, height, &rgba, threshold)
        }
        png::ColorType::Rgba => Bitmap::from_rgba(width, height, pixels, threshold),
        png::ColorType::Indexed => Err(MaskError::Decode("an indexed PNG that was not expanded".into())),
    }
}
