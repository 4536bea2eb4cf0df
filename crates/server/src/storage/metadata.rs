//! Location and other personal metadata taken out of uploaded photos without touching their pixels: EXIF (GPS),
//! XMP, IPTC and comments go; only the EXIF orientation of a JPEG is kept, so the photo still stands upright.

use image::ImageFormat;
use image::metadata::Orientation;
use img_parts::jpeg::{Jpeg, markers};
use img_parts::png::Png;
use img_parts::webp::WebP;
use img_parts::{Bytes, ImageEXIF};

/// The file without its metadata, in the same format.
pub fn strip(bytes: Bytes, format: ImageFormat) -> Result<Bytes, String> {
    let damaged = |e: img_parts::Error| format!("The file's structure is damaged ({e}); export the photo again.");
    match format {
        ImageFormat::Jpeg => {
            let mut jpeg = Jpeg::from_bytes(bytes).map_err(damaged)?;
            let orientation = jpeg.exif().and_then(|exif| Orientation::from_exif_chunk(&exif));
            // APP1 holds EXIF and XMP, APP13 IPTC and Photoshop data, COM free text.
            jpeg.segments_mut()
                .retain(|segment| !matches!(segment.marker(), markers::APP1 | markers::APP13 | markers::COM));
            if let Some(orientation) = orientation.filter(|o| *o != Orientation::NoTransforms) {
                jpeg.set_exif(Some(orientation_only_exif(orientation)));
            }
            Ok(jpeg.encoder().bytes())
        }
        ImageFormat::Png => {
            let mut png = Png::from_bytes(bytes).map_err(damaged)?;
            png.chunks_mut().retain(|chunk| !matches!(&chunk.kind(), b"eXIf" | b"tEXt" | b"zTXt" | b"iTXt"));
            Ok(png.encoder().bytes())
        }
        ImageFormat::WebP => {
            let mut webp = WebP::from_bytes(bytes).map_err(damaged)?;
            webp.set_exif(None);
            webp.remove_chunks_by_id(*b"XMP ");
            Ok(webp.encoder().bytes())
        }
        other => Err(format!("{other:?} files are not accepted; upload a JPEG, PNG or WebP image.")),
    }
}

/// A big-endian TIFF block with one entry: Orientation (tag 0x0112, SHORT, count 1).
fn orientation_only_exif(orientation: Orientation) -> Bytes {
    let value = u16::from(orientation.to_exif());
    let mut tiff = Vec::with_capacity(26);
    tiff.extend_from_slice(b"MM\0\x2a\0\0\0\x08"); // header, first IFD at offset 8
    tiff.extend_from_slice(&1u16.to_be_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_be_bytes());
    tiff.extend_from_slice(&3u16.to_be_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_be_bytes());
    tiff.extend_from_slice(&value.to_be_bytes());
    tiff.extend_from_slice(&[0, 0]); // padding of the 4-byte value field
    tiff.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    Bytes::from(tiff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_orientation_block_reads_back() {
        for orientation in [Orientation::Rotate90, Orientation::FlipHorizontal, Orientation::Rotate180] {
            assert_eq!(Orientation::from_exif_chunk(&orientation_only_exif(orientation)), Some(orientation));
        }
    }
}
