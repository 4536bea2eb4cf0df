//! Bringing images into the editor with the browser's own decoders: the photo (any format the browser shows) and
//! the service's analysis mask, drawn at the photo's size and read back as pixels for the model to threshold.

use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlImageElement;

use super::canvas::offscreen;

/// Loads and decodes an image. `readable` asks for CORS, which reading its pixels back needs.
pub async fn image(url: &str, readable: bool) -> Result<HtmlImageElement, String> {
    let image = HtmlImageElement::new().map_err(|_| "The browser could not load an image.".to_string())?;
    if readable {
        image.set_cross_origin(Some("anonymous"));
    }
    image.set_src(url);
    JsFuture::from(image.decode())
        .await
        .map_err(|_| "The image could not be loaded; check its address or choose another photo.".to_string())?;
    Ok(image)
}

/// The natural size of a loaded image.
pub fn size(image: &HtmlImageElement) -> (u32, u32) {
    (image.natural_width(), image.natural_height())
}

/// The mask image at `url` as RGBA pixels of exactly `width` x `height` (stretched without smoothing when the
/// service's mask has another size).
pub async fn mask_pixels(url: &str, width: u32, height: u32) -> Result<Vec<u8>, String> {
    let image = image(url, true).await.map_err(|_| {
        "The analysis mask could not be loaded (its host may not allow reading it); start from an empty mask instead."
            .to_string()
    })?;
    let (_canvas, context) = offscreen(width, height)?;
    context.set_image_smoothing_enabled(false);
    context
        .draw_image_with_html_image_element_and_dw_and_dh(&image, 0.0, 0.0, f64::from(width), f64::from(height))
        .map_err(|_| "The analysis mask could not be drawn; start from an empty mask instead.".to_string())?;
    let pixels = context.get_image_data(0.0, 0.0, f64::from(width), f64::from(height)).map_err(|_| {
        "The analysis mask's host does not allow reading it; start from an empty mask instead.".to_string()
    })?;
    Ok(pixels.data().0)
}
