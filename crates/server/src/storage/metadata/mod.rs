//! A photo reduced to what draws it, without touching its pixels: each format keeps a list of the parts that
//! decoding needs (and the colour profile), everything else goes, whatever it is called (EXIF with GPS, XMP,
//! IPTC, C2PA/JUMBF, maker data, comments, thumbnails, second images, a video appended after the end). Only the
//! EXIF orientation is written back, alone, so the photo still stands upright. A file that ends before its image
//! does is refused: it would not decode whole.

mod jpeg;
mod png;
mod webp;

use image::ImageFormat;
use image::metadata::Orientation;
use img_parts::Bytes;

/// The file without its metadata, in the same format; a sentence for a person when it is damaged or cut short.
pub fn strip(bytes: Bytes, format: ImageFormat) -> Result<Bytes, String> {
    match format {
        ImageFormat::Jpeg => jpeg::drawing_only(bytes),
        ImageFormat::Png => png::drawing_only(bytes),
        ImageFormat::WebP => webp::drawing_only(bytes),
        other => Err(format!("{other:?} files are not accepted; upload a JPEG, PNG or WebP image.")),
    }
}

/// What a file that ends before its image does is told.
fn cut_short() -> String {
    "The photo is cut short: the file ends before its image does, so it was not saved or sent whole. Export or \
     copy the photo again and upload the whole file."
        .to_string()
}

/// What a file whose structure holds no picture is told.
fn no_image() -> String {
    "The file holds no image data, only headers; export the photo again.".to_string()
}

/// What the parser's refusal is told: cut short, or damaged otherwise.
fn unreadable(error: img_parts::Error) -> String {
    match error {
        img_parts::Error::Truncated => cut_short(),
        other => format!("The file's structure is damaged ({other}); export the photo again."),
    }
}

/// Whether `profile` is an ICC colour profile, whole (ICC.1:2022, 7.2 and 7.3): its size as its header declares
/// it, the `acsp` signature, and a tag table whose every tag lies inside it. Anything else carried in a colour
/// profile's place (an EXIF block, text) is not one, and goes.
fn is_icc_profile(profile: &[u8]) -> bool {
    let word =
        |at: usize| profile.get(at..at + 4).map(|bytes| u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
    let (Some(size), Some(count)) = (word(0), word(128)) else { return false };
    if size as usize != profile.len() || profile.get(36..40) != Some(b"acsp") {
        return false;
    }
    let table_end = 132usize.saturating_add((count as usize).saturating_mul(12));
    table_end <= profile.len()
        && (0..count as usize).all(|tag| {
            let entry = 132 + tag * 12;
            match (word(entry + 4), word(entry + 8)) {
                (Some(offset), Some(length)) => {
                    (offset as usize) >= table_end && (offset as usize).saturating_add(length as usize) <= profile.len()
                }
                _ => false,
            }
        })
}

/// The orientation an EXIF block gives, when it turns or flips the photo.
fn turning(exif: Option<Bytes>) -> Option<Orientation> {
    exif.and_then(|exif| Orientation::from_exif_chunk(&exif)).filter(|o| *o != Orientation::NoTransforms)
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
mod tests;
