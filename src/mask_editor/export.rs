//! The finished mask leaves the editor as a black-and-white PNG of the photo's size, uploaded through
//! `/api/uploads` so the service can fetch it as `remove_furniture.mask_url`.

use vstage_mask::Mask;
use web_sys::{Blob, BlobPropertyBag};

use super::problem::Problem;

/// The mask as a PNG blob.
pub fn png_blob(mask: &Mask) -> Result<Blob, Problem> {
    let bytes = mask.to_png()?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes.as_slice()));
    let options = BlobPropertyBag::new();
    options.set_type("image/png");
    Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(|_| Problem::NotPrepared)
}
