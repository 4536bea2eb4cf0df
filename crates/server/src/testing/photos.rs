//! Photos for the tests: one whose metadata names where it was taken (EXIF with GPS, XMP, a comment), to check
//! what the server strips before anything leaves; and the pictures a ZIP of results holds.

use std::io::{Cursor, Read};

use image::{ImageFormat, RgbImage};
use img_parts::jpeg::{Jpeg, JpegSegment, markers};
use img_parts::{Bytes, ImageEXIF};

/// A big-endian EXIF block: a description naming a place, orientation 6 (rotate 90), and a GPS directory.
fn exif_with_location() -> Vec<u8> {
    let mut tiff = b"MM\0\x2a\0\0\0\x08".to_vec();
    let entry = |tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        [&tag.to_be_bytes()[..], &kind.to_be_bytes(), &count.to_be_bytes(), &value].concat()
    };
    tiff.extend_from_slice(&3u16.to_be_bytes());
    tiff.extend(entry(0x010E, 2, 14, 50u32.to_be_bytes())); // ImageDescription at offset 50
    tiff.extend(entry(0x0112, 3, 1, [0, 6, 0, 0])); // Orientation: rotate 90
    tiff.extend(entry(0x8825, 4, 1, 64u32.to_be_bytes())); // GPS directory at offset 64
    tiff.extend_from_slice(&0u32.to_be_bytes());
    tiff.extend_from_slice(b"Lat 48.8584 N\0");
    tiff.extend_from_slice(&1u16.to_be_bytes());
    tiff.extend(entry(0x0001, 2, 2, *b"N\0\0\0")); // GPSLatitudeRef
    tiff.extend_from_slice(&0u32.to_be_bytes());
    tiff
}

/// A small photo of a gradient.
pub fn photo() -> RgbImage {
    RgbImage::from_fn(64, 48, |x, y| image::Rgb([(x * 4) as u8, (y * 5) as u8, 128]))
}

/// A JPEG of `photo()` whose metadata names a place: EXIF (with GPS), XMP and a comment.
pub fn jpeg_with_location() -> Vec<u8> {
    let mut plain = Vec::new();
    photo().write_to(&mut Cursor::new(&mut plain), ImageFormat::Jpeg).unwrap();
    let mut jpeg = Jpeg::from_bytes(plain.into()).unwrap();
    jpeg.set_exif(Some(Bytes::from(exif_with_location())));
    let xmp = b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude></x:xmpmeta>";
    jpeg.segments_mut().insert(1, JpegSegment::new_with_contents(markers::APP1, Bytes::from_static(xmp)));
    jpeg.segments_mut().insert(1, JpegSegment::new_with_contents(markers::COM, Bytes::from_static(b"12 Home Street")));
    jpeg.encoder().bytes().to_vec()
}

/// Whether `needle` is somewhere in `haystack`.
pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// The sorted entry names of a ZIP of results, each checked to be a decodable picture.
pub fn pictures_in(zip: &[u8]) -> Vec<String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(zip)).expect("a ZIP");
    let mut names: Vec<String> = archive.file_names().map(|name| name.expect("a name").into_owned()).collect();
    // the board's record of disclosed results is the one entry that is not a picture
    names.retain(|name| name != "disclosures.csv");
    names.sort();
    for name in &names {
        let mut image = Vec::new();
        archive.by_name(name).expect("the entry").read_to_end(&mut image).expect("its bytes");
        assert!(image::load_from_memory(&image).is_ok(), "{name} is a picture");
    }
    names
}
