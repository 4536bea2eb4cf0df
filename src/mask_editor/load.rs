//! Bringing images into the editor with the browser's own decoders: the photo (any format the browser shows) and
//! the service's analysis mask, drawn at the photo's size and read back as pixels for the model to threshold.

use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlImageElement;

use super::canvas::offscreen;
use super::problem::Problem;

/// Pixels of the analysis mask at or above this grey level are furniture.
pub const THRESHOLD: u8 = 128;

/// Loads and decodes an image. `readable` asks for CORS, which reading its pixels back needs.
pub async fn image(url: &str, readable: bool) -> Result<HtmlImageElement, Problem> {
    let image = HtmlImageElement::new().map_err(|_| Problem::NoImage)?;
    if readable {
        image.set_cross_origin(Some("anonymous"));
    }
    image.set_src(url);
    JsFuture::from(image.decode()).await.map_err(|_| Problem::PhotoNotLoaded)?;
    Ok(image)
}

/// The natural size of a loaded image.
pub fn size(image: &HtmlImageElement) -> (u32, u32) {
    (image.natural_width(), image.natural_height())
}

/// The mask image at `url` as RGBA pixels of exactly `width` x `height` (stretched without smoothing when the
/// service's mask has another size).
pub async fn mask_pixels(url: &str, width: u32, height: u32) -> Result<Vec<u8>, Problem> {
    let image = image(url, true).await.map_err(|_| Problem::AnalysisNotLoaded)?;
    let (_canvas, context) = offscreen(width, height)?;
    context.set_image_smoothing_enabled(false);
    context
        .draw_image_with_html_image_element_and_dw_and_dh(&image, 0.0, 0.0, f64::from(width), f64::from(height))
        .map_err(|_| Problem::AnalysisNotDrawn)?;
    let pixels = context
        .get_image_data(0.0, 0.0, f64::from(width), f64::from(height))
        .map_err(|_| Problem::AnalysisNotReadable)?;
    Ok(pixels.data().0)
}
