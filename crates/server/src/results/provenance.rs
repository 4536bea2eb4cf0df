//! Provenance inside a kept copy (the disclosure's fourth part): an XMP packet saying how the photo was made (IPTC's digital source type) with
//! a description of what was changed, written in place of whatever metadata the file carried (the photo's own
//! EXIF, location included, is stripped as uploads are).

use image::ImageFormat;
use img_parts::Bytes;
use img_parts::jpeg::{Jpeg, JpegSegment, markers};
use img_parts::png::{Png, PngChunk};
use vstage_api::vocabulary::VariationType;
use xmp_writer::{CustomNamespace, Namespace, XmpWriter};

use crate::storage::metadata;

/// IPTC's vocabulary of digital source types (cv.iptc.org/newscodes/digitalsourcetype).
const COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA: &str =
    "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia";
const ALGORITHMICALLY_ENHANCED: &str = "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicallyEnhanced";
const IPTC_EXTENSION: &str = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/";
/// What a JPEG's APP1 segment starts with when it holds XMP.
const JPEG_XMP_HEADER: &[u8] = b"http://ns.adobe.com/xap/1.0/\0";

/// The digital source type of a result of `kind`: a composite of the photo and trained models' output, or, for
/// enhancement alone, the photo algorithmically enhanced.
pub fn source_type(kind: Option<&VariationType>) -> &'static str {
    match kind {
        Some(VariationType::Enhancement) => ALGORITHMICALLY_ENHANCED,
        _ => COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA,
    }
}

/// The English description written into the file (the listing's language is for the page; a file is read by
/// tools).
pub fn description(kind: Option<&VariationType>) -> &'static str {
    match kind {
        Some(VariationType::Staging) => "Virtually staged: furniture and decor were added digitally to this photo.",
        Some(VariationType::Removal) => "Digitally altered: furniture was removed from this photo.",
        Some(VariationType::DayToDusk) => "Digitally altered: the daytime sky of this photo was changed to dusk.",
        Some(VariationType::Enhancement) => {
            "Digitally enhanced: light, colour and exposure of this photo were adjusted."
        }
        _ => "Digitally altered with trained algorithmic media.",
    }
}

/// The format of a result whose metadata this server can clear (a JPEG, PNG or WebP), or why it cannot.
pub fn clearable(bytes: &[u8]) -> Result<ImageFormat, String> {
    match image::guess_format(bytes) {
        Ok(format @ (ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP)) => Ok(format),
        Ok(format) => Err(format!("the service sent a {format:?} result, which this server cannot clear of metadata")),
        Err(_) => Err("the service sent a result that is not an image".into()),
    }
}

/// The XMP packet for a result of `kind`.
pub fn packet(kind: Option<&VariationType>) -> String {
    let mut writer = XmpWriter::new();
    writer.description([(None, description(kind))]);
    writer.creator_tool("vstage");
    let iptc = CustomNamespace::new("IPTC Extension", "Iptc4xmpExt", IPTC_EXTENSION);
    writer.element("DigitalSourceType", Namespace::Custom(Box::new(iptc))).value(source_type(kind));
    writer.finish(None)
}

/// `bytes` (a JPEG, PNG or WebP) without its own metadata and, for a JPEG or PNG, with the packet of `kind` (a WebP
/// would need its extended header rewritten for it, and the service's results are JPEGs). A file of another format
/// is not kept: what it holds besides its image could not be cleared.
pub fn mark(bytes: Bytes, kind: Option<&VariationType>) -> Result<Bytes, String> {
    let format = clearable(&bytes)?;
    let stripped = metadata::strip(bytes, format)?;
    let xmp = packet(kind);
    let damaged = |e: img_parts::Error| format!("a kept copy's structure is damaged ({e})");
    Ok(match format {
        ImageFormat::Jpeg => {
            let mut jpeg = Jpeg::from_bytes(stripped).map_err(damaged)?;
            let mut contents = JPEG_XMP_HEADER.to_vec();
            contents.extend_from_slice(xmp.as_bytes());
            // after the file's first segment (JFIF), where readers look for it
            let at = usize::from(!jpeg.segments().is_empty());
            jpeg.segments_mut().insert(at, JpegSegment::new_with_contents(markers::APP1, contents.into()));
            jpeg.encoder().bytes()
        }
        ImageFormat::Png => {
            let mut png = Png::from_bytes(stripped).map_err(damaged)?;
            // iTXt: keyword, NUL, no compression (flag and method), empty language and translated keyword
            let mut contents = b"XML:com.adobe.xmp\0\0\0\0\0".to_vec();
            contents.extend_from_slice(xmp.as_bytes());
            let at = png.chunks().len().saturating_sub(1);
            png.chunks_mut().insert(at, PngChunk::new(*b"iTXt", contents.into()));
            png.encoder().bytes()
        }
        _ => stripped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packet_names_the_source_type_and_what_was_done() {
        let packet = packet(Some(&VariationType::Staging));
        assert!(packet.contains("xmlns:Iptc4xmpExt=\"http://iptc.org/std/Iptc4xmpExt/2008-02-29/\""), "{packet}");
        assert!(packet.contains(&format!("<Iptc4xmpExt:DigitalSourceType>{COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA}")));
        assert!(packet.contains("Virtually staged"));
        assert_eq!(source_type(Some(&VariationType::Enhancement)), ALGORITHMICALLY_ENHANCED);
    }

    #[test]
    fn a_jpeg_keeps_its_pixels_and_loses_its_own_metadata() {
        let mut photo = Vec::new();
        image::RgbImage::from_pixel(8, 8, image::Rgb([200, 100, 50]))
            .write_to(&mut std::io::Cursor::new(&mut photo), ImageFormat::Jpeg)
            .unwrap();
        let mut jpeg = Jpeg::from_bytes(photo.into()).unwrap();
        jpeg.segments_mut().insert(1, JpegSegment::new_with_contents(markers::COM, Bytes::from_static(b"GPS 51.5")));
        let marked = mark(jpeg.encoder().bytes(), Some(&VariationType::Removal)).unwrap();
        let text = String::from_utf8_lossy(&marked);
        assert!(!text.contains("GPS 51.5"));
        assert!(text.contains("furniture was removed"));
        assert_eq!(image::load_from_memory(&marked).unwrap().width(), 8);
    }

    #[test]
    fn a_result_whose_metadata_cannot_be_cleared_is_not_kept() {
        let gif = Bytes::from_static(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;");
        assert!(mark(gif, None).unwrap_err().contains("Gif result, which this server cannot clear of metadata"));
        assert!(mark(Bytes::from_static(b"<html>"), None).unwrap_err().contains("not an image"));
    }
}
