//! The originals page's address as a QR code, for flyers and signs: SVG (scales to any print size) and PNG.

use image::{ImageFormat, Luma};
use qrcode::QrCode;
use qrcode::render::svg;

use crate::error::ServerError;

/// Each module at least this many pixels in the PNG: about 3 cm across at 300 dpi for a typical link.
const PNG_MODULE_PIXELS: u32 = 8;

fn code(address: &str) -> Result<QrCode, ServerError> {
    QrCode::new(address.as_bytes())
        .map_err(|error| ServerError::Internal(format!("the page's address does not fit a QR code: {error}")))
}

/// The code of `address` as an SVG document, black on white with the quiet zone readers need.
pub fn svg(address: &str) -> Result<String, ServerError> {
    let code = code(address)?;
    Ok(code.render::<svg::Color<'_>>().dark_color(svg::Color("#000000")).light_color(svg::Color("#ffffff")).build())
}

/// The code of `address` as a PNG image.
pub fn png(address: &str) -> Result<Vec<u8>, ServerError> {
    let code = code(address)?;
    let side = (code.width() as u32 + 8) * PNG_MODULE_PIXELS;
    let image = code.render::<Luma<u8>>().min_dimensions(side, side).build();
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), ImageFormat::Png)
        .map_err(|error| ServerError::Internal(format!("the QR code could not be written as PNG: {error}")))?;
    Ok(png)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read back by an independent decoder (rqrr), not the encoder's own.
    #[test]
    fn the_png_decodes_to_the_address() {
        let address = "https://vstage.example/disclosures/dsc_0123456789abcdef?sig=AbC-_123";
        let png = png(address).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_luma8();
        let mut prepared = rqrr::PreparedImage::prepare(image);
        let grids = prepared.detect_grids();
        assert_eq!(grids.len(), 1);
        let (_, content) = grids[0].decode().unwrap();
        assert_eq!(content, address);
        assert!(svg(address).unwrap().starts_with("<?xml"));
    }
}
