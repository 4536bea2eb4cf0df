//! Phone-like photos for the metadata tests, built here segment by segment as phones write them: a JPEG with a
//! JFIF thumbnail, EXIF (maker, model, serial, maker note, GPS), XMP of a Google motion photo with extended XMP, an
//! ICC profile, MPF, C2PA's JUMBF with a GPS assertion in APP11, IPTC in APP13 and a comment, followed after its end
//! by another EXIF block, the MPF's second image and the motion photo's video with its location; a Samsung motion
//! photo, whose video (and country code, and time) is in Samsung's trailer after the end; a PNG with
//! `eXIf`, XMP in `iTXt`, `tEXt`, `zTXt`, `tIME` and C2PA's `caBX`, data after `IEND`; a WebP with EXIF, XMP and a
//! C2PA chunk, data after its end. Each carries the words of `SECRETS` somewhere.

use std::io::Cursor;

use image::{ImageFormat, RgbImage, RgbaImage};
use img_parts::jpeg::{Jpeg, JpegSegment, markers};
use img_parts::png::{Png, PngChunk};
use img_parts::riff::{RiffChunk, RiffContent};
use img_parts::webp::WebP;
use img_parts::{Bytes, ImageEXIF, ImageICC};

/// What the metadata of the photos here say, each somewhere: where, the street, the phone's maker, model and
/// serial, the city (IPTC), the maker note's words.
pub const SECRETS: [&str; 7] = ["48.8584", "Home Street", "Googol", "Pixel 9 Pro", "SN4242XYZ", "Montmartre", "HDRP"];

/// A photo with detail enough that its JPEG has a scan of some kilobytes.
pub fn scene() -> RgbImage {
    RgbImage::from_fn(320, 240, |x, y| {
        let ripple = ((x * 7 + y * 13) % 31) as u8;
        image::Rgb([(x * 255 / 320) as u8 ^ ripple, (y * 255 / 240) as u8, ((x + y) % 256) as u8])
    })
}

/// `scene()` as a plain JPEG, as the encoder writes it.
pub fn plain_jpeg() -> Vec<u8> {
    let mut jpeg = Vec::new();
    scene().write_to(&mut Cursor::new(&mut jpeg), ImageFormat::Jpeg).unwrap();
    jpeg
}

/// One TIFF entry: tag, type (2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED), count, value.
type Entry = (u16, u16, u32, Vec<u8>);

fn ascii(tag: u16, text: &str) -> Entry {
    let mut value = text.as_bytes().to_vec();
    value.push(0);
    (tag, 2, value.len() as u32, value)
}

fn rationals(tag: u16, values: &[(u32, u32)]) -> Entry {
    let value = values.iter().flat_map(|(n, d)| [n.to_be_bytes(), d.to_be_bytes()].concat()).collect();
    (tag, 5, values.len() as u32, value)
}

/// The bytes one IFD takes at `offset`: its entries, the next IFD's offset (none), then the values over 4 bytes.
fn ifd(mut entries: Vec<Entry>, offset: usize) -> Vec<u8> {
    entries.sort_by_key(|entry| entry.0);
    let values_start = offset + 2 + 12 * entries.len() + 4;
    let (mut table, mut values) = ((entries.len() as u16).to_be_bytes().to_vec(), Vec::new());
    for (tag, kind, count, value) in entries {
        table.extend_from_slice(&[tag.to_be_bytes(), kind.to_be_bytes()].concat());
        table.extend_from_slice(&count.to_be_bytes());
        if value.len() <= 4 {
            table.extend(value.iter().copied().chain(std::iter::repeat(0)).take(4));
        } else {
            table.extend_from_slice(&((values_start + values.len()) as u32).to_be_bytes());
            values.extend_from_slice(&value);
            values.resize(values.len().div_ceil(2) * 2, 0);
        }
    }
    table.extend_from_slice(&0u32.to_be_bytes());
    table.extend(values);
    table
}

/// The size `ifd` gives `entries`.
fn ifd_size(entries: &[Entry]) -> usize {
    let values: usize = entries.iter().filter(|e| e.3.len() > 4).map(|e| e.3.len().div_ceil(2) * 2).sum();
    2 + 12 * entries.len() + 4 + values
}

/// A big-endian EXIF block as a phone writes it: maker, model, orientation 6 (rotate 90), software; an EXIF
/// directory with the time, the serial and a maker note; a GPS directory with latitude and longitude.
pub fn phone_exif() -> Vec<u8> {
    let mut ifd0 = vec![
        ascii(0x010F, "Googol"),
        ascii(0x0110, "Pixel 9 Pro"),
        (0x0112, 3, 1, vec![0, 6]),
        ascii(0x0131, "HDR+ 1.0.641377693d"),
        ascii(0x010E, "12 Home Street"),
    ];
    let exif = vec![
        ascii(0x9003, "2026:11:20 10:12:31"),
        (0x927C, 7, 28, b"HDRP\x02\x01HDRP-SN4242XYZ-48.8584".to_vec()),
        ascii(0xA431, "SN4242XYZ"),
        ascii(0xA434, "Pixel 9 Pro back camera 6.9mm f/1.68"),
    ];
    let gps = vec![
        ascii(0x0001, "N"),
        rationals(0x0002, &[(48, 1), (51, 1), (3024, 100)]),
        ascii(0x0003, "E"),
        rationals(0x0004, &[(2, 1), (17, 1), (4020, 100)]),
        ascii(0x001D, "2026:11:20"),
    ];
    let exif_at = 8 + ifd_size(&ifd0) + 24; // with the two pointers below
    let gps_at = exif_at + ifd_size(&exif);
    ifd0.push((0x8769, 4, 1, (exif_at as u32).to_be_bytes().to_vec()));
    ifd0.push((0x8825, 4, 1, (gps_at as u32).to_be_bytes().to_vec()));
    let mut tiff = b"MM\0\x2a\0\0\0\x08".to_vec();
    tiff.extend(ifd(ifd0, 8));
    assert_eq!(tiff.len(), exif_at);
    tiff.extend(ifd(exif, exif_at));
    tiff.extend(ifd(gps, gps_at));
    tiff
}

/// A small ICC profile (its header and a white point): what matters is that it is kept byte for byte.
pub fn icc_profile() -> Vec<u8> {
    let mut profile = vec![0u8; 164];
    profile[..4].copy_from_slice(&164u32.to_be_bytes());
    profile[8..12].copy_from_slice(&[2, 0x10, 0, 0]); // version 2.1
    profile[12..24].copy_from_slice(b"mntrRGB XYZ ");
    profile[36..40].copy_from_slice(b"acsp");
    let d50 = [0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D];
    profile[68..80].copy_from_slice(&d50);
    // one tag, the media white point, at 144 for 20 bytes
    profile[128..132].copy_from_slice(&1u32.to_be_bytes());
    profile[132..144].copy_from_slice(&[b'w', b't', b'p', b't', 0, 0, 0, 144, 0, 0, 0, 20]);
    profile[144..148].copy_from_slice(b"XYZ ");
    profile[152..164].copy_from_slice(&d50);
    profile
}

/// An ISO BMFF / JUMBF box.
fn iso_box(kind: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    [&((8 + payload.len()) as u32).to_be_bytes()[..], kind, payload].concat()
}

/// A JUMBF superbox of the type `uuid` (its first four letters, then ISO's suffix) labelled `label`, holding
/// `inside`.
fn jumbf(uuid: &[u8; 4], label: &str, inside: &[u8]) -> Vec<u8> {
    let description = [&uuid[..], b"\x00\x11\x00\x10\x80\x00\x00\xAA\x00\x38\x9B\x71", &[0x03], label.as_bytes(), &[0]];
    iso_box(b"jumb", &[iso_box(b"jumd", &description.concat()), inside.to_vec()].concat())
}

/// A C2PA manifest store whose one assertion (`stds.exif`) says where the photo was taken.
pub fn c2pa_store() -> Vec<u8> {
    let exif = r#"{"@context":{"exif":"http://ns.adobe.com/exif/1.0/"},"exif:GPSLatitude":"48,51.504N","exif:GPSLongitude":"2,17.67E","exif:GPSAltitude":"35.2","exif:Make":"Googol","exif:BodySerialNumber":"SN4242XYZ"}"#;
    let assertion = jumbf(b"json", "stds.exif", &iso_box(b"json", exif.as_bytes()));
    let assertions = jumbf(b"c2as", "c2pa.assertions", &assertion);
    let manifest = jumbf(b"c2ma", "urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", &assertions);
    jumbf(b"c2pa", "c2pa", &manifest)
}

/// The video of a Google motion photo: `ftyp`, a `moov` with the location (`©xyz`) in its user data, `mdat`.
pub fn motion_video() -> Vec<u8> {
    let location = b"+48.8584+002.2945/";
    let xyz = [&(location.len() as u16).to_be_bytes()[..], &0x15C7u16.to_be_bytes(), location].concat();
    let user_data = iso_box(b"udta", &iso_box(b"\xA9xyz", &xyz));
    [iso_box(b"ftyp", b"mp42\0\0\0\0isommp42"), iso_box(b"moov", &user_data), iso_box(b"mdat", &[0x55; 96])].concat()
}

/// The XMP packet of a Google motion photo of `video_length` bytes, naming its extended part `guid`.
fn motion_xmp(video_length: usize, guid: &str) -> String {
    format!(
        r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0" exif:GPSLatitude="48,51.504N" exif:GPSLongitude="2,17.67E" tiff:Make="Googol" xmpNote:HasExtendedXMP="{guid}"><Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="{video_length}" Item:Padding="0"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>"#
    )
}

/// Extended XMP: the rest of a packet too large for one segment, named by `guid`.
fn extended_xmp(guid: &str) -> Vec<u8> {
    let packet = r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exifEX="http://cipa.jp/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" exifEX:BodySerialNumber="SN4242XYZ" photoshop:City="Montmartre" photoshop:Headline="12 Home Street"/></rdf:RDF></x:xmpmeta>"#;
    let length = (packet.len() as u32).to_be_bytes();
    [&b"http://ns.adobe.com/xmp/extension/\0"[..], guid.as_bytes(), &length, &[0; 4], packet.as_bytes()].concat()
}

/// Photoshop's APP13 with an IPTC record naming the city and the street.
fn iptc() -> Vec<u8> {
    let dataset = |number: u8, text: &[u8]| [&[0x1C, 2, number][..], &(text.len() as u16).to_be_bytes(), text].concat();
    let mut record = [dataset(0, &[0, 4]), dataset(90, b"Montmartre"), dataset(92, b"12 Home Street")].concat();
    if record.len() % 2 == 1 {
        record.push(0);
    }
    [&b"Photoshop 3.0\x008BIM\x04\x04\0\0"[..], &(record.len() as u32).to_be_bytes(), &record].concat()
}

/// A JFIF header with a 2x2 thumbnail.
fn jfif_with_thumbnail() -> Vec<u8> {
    [&b"JFIF\0\x01\x02\0\0\x01\0\x01\x02\x02"[..], &[200, 10, 10, 10, 200, 10, 10, 10, 200, 90, 90, 90]].concat()
}

/// MPF's index of two images, their sizes and offsets left for `fill_mpf` to write.
fn mpf_index() -> Vec<u8> {
    let entries = vec![
        (0xB000, 7, 4, b"0100".to_vec()),
        (0xB001, 4, 1, 2u32.to_be_bytes().to_vec()),
        (0xB002, 7, 32, {
            let mut values = 0x2003_0000u32.to_be_bytes().to_vec(); // the primary, baseline
            values.resize(32, 0);
            values
        }),
    ];
    [&b"MPF\0MM\0\x2a\0\0\0\x08"[..], &ifd(entries, 8)].concat()
}

/// Writes into `file`'s MPF index the primary's size and the second image's (`second` bytes at `second_at`).
fn fill_mpf(file: &mut [u8], primary: usize, second_at: usize, second: usize) {
    let header = file.windows(4).position(|window| window == b"MPF\0").expect("an MPF segment") + 4;
    let entries = header + 8 + 2 + 12 * 3 + 4;
    file[entries + 4..entries + 8].copy_from_slice(&(primary as u32).to_be_bytes());
    file[entries + 20..entries + 24].copy_from_slice(&(second as u32).to_be_bytes());
    file[entries + 24..entries + 28].copy_from_slice(&((second_at - header) as u32).to_be_bytes());
}

fn segment(marker: u8, contents: Vec<u8>) -> JpegSegment {
    JpegSegment::new_with_contents(marker, Bytes::from(contents))
}

/// A second image, as MPF lists one (a gain map), with EXIF of its own.
fn second_image() -> Vec<u8> {
    let mut small = Vec::new();
    RgbImage::from_pixel(32, 24, image::Rgb([128, 128, 128]))
        .write_to(&mut Cursor::new(&mut small), ImageFormat::Jpeg)
        .unwrap();
    let mut jpeg = Jpeg::from_bytes(small.into()).unwrap();
    jpeg.set_exif(Some(phone_exif().into()));
    jpeg.encoder().bytes().to_vec()
}

/// `scene()` as a phone's motion photo: the JPEG with its metadata, then another EXIF block, the second image MPF
/// lists, and the video.
pub fn phone_jpeg() -> Vec<u8> {
    let (video, guid) = (motion_video(), "6A1B2C3D4E5F60718293A4B5C6D7E8F9");
    let mut jpeg = Jpeg::from_bytes(plain_jpeg().into()).unwrap();
    jpeg.remove_segments_by_marker(markers::APP0);
    let xmp = [&b"http://ns.adobe.com/xap/1.0/\0"[..], motion_xmp(video.len(), guid).as_bytes()].concat();
    let head = [
        segment(markers::APP0, jfif_with_thumbnail()),
        segment(markers::APP1, [&b"Exif\0\0"[..], &phone_exif()].concat()),
        segment(markers::APP1, xmp),
        segment(markers::APP1, extended_xmp(guid)),
        segment(markers::APP2, mpf_index()),
        segment(markers::APP11, [&b"JP\0\x01\0\0\0\x01"[..], &c2pa_store()].concat()),
        segment(markers::APP13, iptc()),
        segment(markers::COM, b"12 Home Street".to_vec()),
    ];
    jpeg.segments_mut().splice(0..0, head);
    jpeg.set_icc_profile(Some(icc_profile().into()));
    let mut file = jpeg.encoder().bytes().to_vec();
    let primary = file.len();
    let exif_after_end = [&b"Exif\0\0"[..], &phone_exif()].concat();
    file.extend(segment(markers::APP1, exif_after_end).encoder().bytes());
    let (second_at, second) = (file.len(), second_image());
    file.extend_from_slice(&second);
    file.extend_from_slice(&video);
    fill_mpf(&mut file, primary, second_at, second.len());
    file
}

/// A PNG chunk.
fn chunk(kind: &[u8; 4], contents: &[u8]) -> PngChunk {
    PngChunk::new(*kind, Bytes::copy_from_slice(contents))
}

/// `text` as a zlib stream of one stored block.
fn zlib_stored(text: &[u8]) -> Vec<u8> {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in text {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    let length = (text.len() as u16).to_le_bytes();
    let inverse = (!(text.len() as u16)).to_le_bytes();
    [&[0x78, 0x01, 0x01][..], &length, &inverse, text, &((b << 16) | a).to_be_bytes()].concat()
}

/// `scene()` as a PNG with its colour (ICC profile, gamma) and a phone's metadata chunks, and data after `IEND`.
pub fn phone_png() -> Vec<u8> {
    let mut plain = Vec::new();
    scene().write_to(&mut Cursor::new(&mut plain), ImageFormat::Png).unwrap();
    let mut png = Png::from_bytes(plain.into()).unwrap();
    png.set_icc_profile(Some(icc_profile().into()));
    let xmp = [&b"XML:com.adobe.xmp\0\0\0\0\0"[..], motion_xmp(0, "none").as_bytes()].concat();
    let location = [&b"Location\0\0"[..], &zlib_stored(b"48.8584 N, 2.2945 E")].concat();
    let metadata = [
        chunk(b"gAMA", &45455u32.to_be_bytes()),
        chunk(b"pHYs", &[0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1]),
        chunk(b"eXIf", &phone_exif()),
        chunk(b"iTXt", &xmp),
        chunk(b"tEXt", b"Comment\x0012 Home Street"),
        chunk(b"zTXt", &location),
        chunk(b"tIME", &[0x07, 0xEA, 11, 20, 10, 12, 31]),
        chunk(b"caBX", &c2pa_store()),
    ];
    png.chunks_mut().splice(2..2, metadata);
    let mut file = png.encoder().bytes().to_vec();
    file.extend([&b"Exif\0\0"[..], &phone_exif()].concat());
    file
}

/// `scene()` with an alpha channel as an extended WebP (lossless) with its ICC profile, EXIF, XMP and a C2PA
/// chunk, and data after its end.
pub fn phone_webp() -> Vec<u8> {
    let (mut plain, scene) = (Vec::new(), scene());
    let rgba = RgbaImage::from_fn(320, 240, |x, y| {
        let image::Rgb([r, g, b]) = *scene.get_pixel(x, y);
        image::Rgba([r, g, b, if x < 20 { 128 } else { 255 }])
    });
    rgba.write_to(&mut Cursor::new(&mut plain), ImageFormat::WebP).unwrap();
    let mut webp = WebP::from_bytes(plain.into()).unwrap();
    webp.set_icc_profile(Some(icc_profile().into()));
    webp.set_exif(Some(phone_exif().into()));
    let xmp = motion_xmp(0, "none").into_bytes();
    webp.chunks_mut().push(RiffChunk::new(*b"XMP ", RiffContent::Data(xmp.into())));
    webp.chunks_mut().push(RiffChunk::new(*b"C2PA", RiffContent::Data(c2pa_store().into())));
    if let Some(RiffContent::Data(header)) = webp.chunks_mut().first_mut().map(RiffChunk::content_mut) {
        let mut flags = header.to_vec();
        flags[0] |= 0x04; // XMP
        *header = flags.into();
    }
    let mut file = webp.encoder().bytes().to_vec();
    file.extend([&b"Exif\0\0"[..], &phone_exif()].concat());
    file
}

/// A Samsung trailer (little-endian): its blocks (type, name, data), then the `SEFH` directory that finds them
/// backwards from itself, its length and `SEFT`.
fn samsung_trailer(blocks: &[(u16, &str, &[u8])]) -> Vec<u8> {
    let mut data = Vec::new();
    let mut entries = Vec::new();
    for (kind, name, contents) in blocks {
        let block =
            [&[0, 0][..], &kind.to_le_bytes(), &(name.len() as u32).to_le_bytes(), name.as_bytes(), contents].concat();
        entries.push((*kind, data.len(), block.len()));
        data.extend(block);
    }
    let mut directory = [&b"SEFH"[..], &101u32.to_le_bytes(), &(entries.len() as u32).to_le_bytes()].concat();
    for (kind, at, size) in entries {
        let back = (data.len() - at) as u32; // from the directory's start back to the block's
        directory
            .extend([&[0, 0][..], &kind.to_le_bytes(), &back.to_le_bytes(), &(size as u32).to_le_bytes()].concat());
    }
    [&data[..], &directory, &(directory.len() as u32).to_le_bytes(), b"SEFT"].concat()
}

/// `scene()` as a Samsung motion photo: the JPEG with a phone's EXIF, then Samsung's trailer holding the video
/// (with its location), the network's country code and the time.
pub fn samsung_motion_jpeg() -> Vec<u8> {
    let mut jpeg = Jpeg::from_bytes(plain_jpeg().into()).unwrap();
    jpeg.set_exif(Some(phone_exif().into()));
    let video = [&b"MotionPhoto_Data"[..], &motion_video()].concat();
    let trailer = samsung_trailer(&[
        (0x0A30, "MotionPhoto_Data", &video),
        (0x0AA1, "MCC_Data", b"208"),
        (0x0A01, "Image_UTC_Data", b"1763633551000"),
    ]);
    [jpeg.encoder().bytes().to_vec(), trailer].concat()
}
