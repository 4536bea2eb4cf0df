//! The stripper on phone-like photos of each format, read back by exiftool; what decoding needs kept byte for
//! byte; the scans and what lies between them; files cut short refused.

use image::ImageFormat;
use image::metadata::Orientation;
use img_parts::jpeg::Jpeg;
use img_parts::png::Png;
use img_parts::webp::WebP;
use img_parts::{Bytes, ImageEXIF, ImageICC};

use super::*;
use crate::testing::exiftool::{assert_drawing_only, tags};
use crate::testing::phone::{icc_profile, phone_jpeg, phone_png, phone_webp, plain_jpeg, samsung_motion_jpeg, scene};

#[test]
fn the_orientation_block_reads_back() {
    for orientation in [Orientation::Rotate90, Orientation::FlipHorizontal, Orientation::Rotate180] {
        assert_eq!(Orientation::from_exif_chunk(&orientation_only_exif(orientation)), Some(orientation));
    }
}

/// The ICC profile and EXIF block `bytes` carry, by the format's own reading.
fn profile_and_exif(bytes: &Bytes, format: ImageFormat) -> (Option<Bytes>, Option<Bytes>) {
    match format {
        ImageFormat::Jpeg => Jpeg::from_bytes(bytes.clone()).map(|f| (f.icc_profile(), f.exif())).unwrap(),
        ImageFormat::Png => Png::from_bytes(bytes.clone()).map(|f| (f.icc_profile(), f.exif())).unwrap(),
        _ => WebP::from_bytes(bytes.clone()).map(|f| (f.icc_profile(), f.exif())).unwrap(),
    }
}

#[test]
fn a_phone_photo_of_each_kind_keeps_what_draws_it_and_nothing_else() {
    for (photo, format) in
        [(phone_jpeg(), ImageFormat::Jpeg), (phone_png(), ImageFormat::Png), (phone_webp(), ImageFormat::WebP)]
    {
        // exiftool finds where it was taken, with which phone, in the photo as it came
        let found = tags(&photo);
        for group in ["GPS:GPSLatitude", "IFD0:Make", "ExifIFD:SerialNumber", "XMP-exif:GPSLatitude"] {
            assert!(found.contains_key(group), "{format:?}: the photo as built has {group}: {found:?}");
        }
        let stripped = strip(Bytes::from(photo.clone()), format).unwrap();
        assert_drawing_only(&stripped, &format!("{format:?}"));
        let (profile, exif) = profile_and_exif(&stripped, format);
        assert_eq!(profile.as_deref(), Some(&icc_profile()[..]), "{format:?}: the colour profile is kept");
        let orientation = Orientation::from_exif_chunk(&exif.expect("the orientation"));
        assert_eq!(orientation, Some(Orientation::Rotate90), "{format:?}: the photo still stands upright");
        assert_eq!(tags(&stripped)["IFD0:Orientation"], "Rotate 90 CW");
        let pixels = |bytes: &[u8]| image::load_from_memory_with_format(bytes, format).unwrap().to_rgba8();
        assert!(pixels(&photo) == pixels(&stripped), "{format:?}: the pixels decode identically");
    }
}

#[test]
fn a_samsung_motion_photo_loses_its_trailer() {
    let photo = samsung_motion_jpeg();
    let found = tags(&photo);
    assert!(found.keys().any(|name| name.ends_with(":EmbeddedVideoFile")), "the trailer as built is read: {found:?}");
    let stripped = strip(Bytes::from(photo.clone()), ImageFormat::Jpeg).unwrap();
    assert_drawing_only(&stripped, "a Samsung motion photo");
    assert!(!stripped.windows(4).any(|w| w == b"SEFT"), "the trailer is gone");
    let pixels = |bytes: &[u8]| image::load_from_memory(bytes).unwrap().to_rgb8();
    assert_eq!(pixels(&photo), pixels(&stripped));
}

#[test]
fn a_photo_without_metadata_comes_back_byte_for_byte() {
    let encoded = |format| {
        let mut file = Vec::new();
        scene().write_to(&mut std::io::Cursor::new(&mut file), format).unwrap();
        file
    };
    for format in [ImageFormat::Jpeg, ImageFormat::Png, ImageFormat::WebP] {
        let file = encoded(format);
        assert_eq!(strip(Bytes::from(file.clone()), format).unwrap(), file, "{format:?}");
    }
}

/// A JPEG's bytes with `segments` (marker, contents) put in before its frame, and `between` after its scan.
fn with_segments(segments: &[(u8, &[u8])], between: &[(u8, &[u8])]) -> Vec<u8> {
    let encode = |list: &[(u8, &[u8])]| -> Vec<u8> {
        list.iter()
            .flat_map(|(marker, contents)| {
                [&[0xFF, *marker][..], &((contents.len() + 2) as u16).to_be_bytes(), contents].concat()
            })
            .collect()
    };
    let plain = plain_jpeg();
    let frame = plain.windows(2).position(|w| w == [0xFF, 0xDB]).expect("a quantisation table");
    let end = plain.len() - 2;
    [&plain[..frame], &encode(segments), &plain[frame..end], &encode(between), &plain[end..]].concat()
}

#[test]
fn what_decoding_needs_is_kept_and_metadata_after_the_scan_goes() {
    // Adobe's colour transform (YCbCr) and a restart interval of 0 (none): both change how the file decodes
    let needed: [(u8, &[u8]); 2] = [(0xEE, b"Adobe\0\x64\0\0\0\0\x01"), (0xDD, &[0, 0])];
    let expected = with_segments(&needed, &[]);
    let metadata: [(u8, &[u8]); 2] =
        [(0xE1, b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>48.8584</x:xmpmeta>"), (0xFE, b"12 Home Street")];
    let photo = with_segments(&[needed[0], metadata[0], needed[1]], &metadata);
    let stripped = strip(Bytes::from(photo.clone()), ImageFormat::Jpeg).unwrap();
    assert_eq!(stripped, expected, "the needed segments in their place, the metadata gone");
    assert_drawing_only(&stripped, "a JPEG with Adobe's marker");
    assert_eq!(
        image::load_from_memory(&photo).unwrap().to_rgb8(),
        image::load_from_memory(&stripped).unwrap().to_rgb8()
    );
}

#[test]
fn what_is_carried_in_a_colour_segments_place_goes_unless_it_is_one() {
    // an ICC chunk holding an EXIF block with GPS, and Adobe's marker with text after its twelve bytes
    let exif_as_icc = [&b"ICC_PROFILE\0\x01\x01"[..], b"Exif\0\0MM\0\x2aGPS 37.7749 -122.4194"].concat();
    let adobe_and_more: &[u8] = b"Adobe\0\x64\0\0\0\0\x01GPS 37.7749";
    let photo = with_segments(&[(0xE2, &exif_as_icc), (0xEE, adobe_and_more)], &[]);
    let stripped = strip(Bytes::from(photo), ImageFormat::Jpeg).unwrap();
    assert_eq!(stripped, with_segments(&[(0xEE, &adobe_and_more[..12])], &[]), "no profile, Adobe's twelve bytes");
    // a whole profile in two chunks is kept; one of them alone is not
    let profile = icc_profile();
    let chunk = |number: u8, part: &[u8]| [&b"ICC_PROFILE\0"[..], &[number, 2], part].concat();
    let (first, second) = (chunk(1, &profile[..100]), chunk(2, &profile[100..]));
    let whole = with_segments(&[(0xE2, &first), (0xE2, &second)], &[]);
    assert_eq!(strip(Bytes::from(whole.clone()), ImageFormat::Jpeg).unwrap(), whole);
    let half = with_segments(&[(0xE2, &first)], &[]);
    assert_eq!(strip(Bytes::from(half), ImageFormat::Jpeg).unwrap(), with_segments(&[], &[]));

    // PNG: an iCCP chunk that inflates to no profile, an sBIT chunk with more than its bits
    let mut png = Png::from_bytes(Bytes::from(phone_png())).unwrap();
    let planted = [&b"PLANTICC\0\0"[..], &miniz_oxide::deflate::compress_to_vec_zlib(b"GPS 37.7749", 6)].concat();
    png.set_icc_profile(None);
    let at = png.chunks().len() - 1;
    png.chunks_mut().insert(1, img_parts::png::PngChunk::new(*b"iCCP", Bytes::from(planted)));
    png.chunks_mut()
        .insert(at, img_parts::png::PngChunk::new(*b"sBIT", Bytes::from_static(b"\x08\x08\x08GPS 37.7749")));
    let stripped = strip(png.encoder().bytes(), ImageFormat::Png).unwrap();
    let kinds: Vec<[u8; 4]> = Png::from_bytes(stripped.clone()).unwrap().chunks().iter().map(|c| c.kind()).collect();
    assert!(!kinds.contains(b"iCCP") && !kinds.contains(b"sBIT"), "{kinds:?}");
    assert!(!stripped.windows(7).any(|w| w == b"37.7749"));

    // WebP: an ICCP chunk that is no profile
    let mut webp = WebP::from_bytes(Bytes::from(phone_webp())).unwrap();
    webp.set_icc_profile(Some(Bytes::from_static(b"GPS 37.7749 and more")));
    let stripped = strip(webp.encoder().bytes(), ImageFormat::WebP).unwrap();
    assert_eq!(profile_and_exif(&stripped, ImageFormat::WebP).0, None);
}

#[test]
fn every_scan_is_kept_with_the_tables_between_them_up_to_the_end() {
    // the structure of a progressive JPEG: scans whose data holds stuffed zeros and restart markers, tables and
    // metadata between them, fill bytes before a marker, and a video after the end
    let head: &[u8] = b"\xFF\xD8\xFF\xC2\x00\x0B\x08\x00\x10\x00\x10\x01\x01\x11\x00\xFF\xC4\x00\x03\x00";
    let first: &[u8] = b"\xFF\xDA\x00\x08\x01\x01\x00\x00\x3F\x00\x12\xFF\x00\x34\xFF\xD0\x56";
    let between: &[u8] = b"\xFF\xE1\x00\x0648.8\xFF\xC4\x00\x03\x01\xFF\xFF\xFE\x00\x06Home";
    let second: &[u8] = b"\xFF\xDA\x00\x08\x01\x01\x00\x01\x3F\x00\x78\xFF\x00\xFF\xD7\x9A";
    let end: &[u8] = b"\xFF\xD9";
    let photo = [head, first, between, second, end, b"\x00\x00\x00\x18ftypmp42 +48.8584+002.2945/"].concat();
    let stripped = strip(Bytes::from(photo), ImageFormat::Jpeg).unwrap();
    let expected = [head, first, b"\xFF\xC4\x00\x03\x01", second, end].concat();
    assert_eq!(stripped, expected);
}

#[test]
fn a_photo_cut_short_is_refused_and_one_whose_trailer_is_cut_is_not() {
    let cut = |file: &[u8], at: usize, format| strip(Bytes::copy_from_slice(&file[..at]), format);
    let jpeg = plain_jpeg();
    for at in [jpeg.len() * 3 / 10, jpeg.len() * 6 / 10, jpeg.len() - 2, jpeg.len() - 1] {
        let refused = cut(&jpeg, at, ImageFormat::Jpeg).unwrap_err();
        assert!(refused.contains("cut short") && refused.contains("upload the whole file"), "{at}: {refused}");
    }
    let mut png = Vec::new();
    scene().write_to(&mut std::io::Cursor::new(&mut png), ImageFormat::Png).unwrap();
    // mid-chunk, and right before IEND (every chunk whole)
    for at in [png.len() / 2, png.len() - 12] {
        assert!(cut(&png, at, ImageFormat::Png).unwrap_err().contains("cut short"), "PNG cut at {at}");
    }
    let webp = phone_webp();
    let riff_end = 8 + u32::from_le_bytes(webp[4..8].try_into().unwrap()) as usize;
    for at in [webp.len() / 2, riff_end - 1] {
        assert!(cut(&webp, at, ImageFormat::WebP).unwrap_err().contains("cut short"), "WebP cut at {at}");
    }
    // the motion photo's video cut short: the photo itself is whole, and kept without it
    let phone = phone_jpeg();
    let kept = cut(&phone, phone.len() - 40, ImageFormat::Jpeg).unwrap();
    assert_drawing_only(&kept, "a motion photo whose video was cut");
}

#[test]
fn a_file_of_empty_segments_is_refused_before_it_makes_a_list_many_times_its_size() {
    let plain = plain_jpeg();
    let end = plain.len() - 2;
    let empty_tables = b"\xFF\xC4\x00\x02".repeat(5000);
    let photo = [&plain[..end], &empty_tables, &plain[end..]].concat();
    let refused = strip(Bytes::from(photo), ImageFormat::Jpeg).unwrap_err();
    assert!(refused.contains("segments before or after its first scan"), "{refused}");
    // before it, where the parser would list every one
    let empty_exif: &[u8] = b"";
    let photo = with_segments(&vec![(0xE1, empty_exif); 5000], &[]);
    let refused = strip(Bytes::from(photo), ImageFormat::Jpeg).unwrap_err();
    assert!(refused.contains("segments before or after its first scan"), "{refused}");
    // as many as a photo may have are read
    let photo = with_segments(&vec![(0xE1, empty_exif); 4000], &[]);
    assert_eq!(strip(Bytes::from(photo), ImageFormat::Jpeg).unwrap(), with_segments(&[], &[]));
}

#[test]
fn segments_no_decoder_here_reads_go_with_what_they_carry() {
    // a frame of a kind nothing here decodes, an expansion segment, a hierarchical one and a restart interval
    // longer than its two bytes, each carrying a place
    let gps: &[u8] = b"Exif\0\0MM\0\x2aGPS 37.7749 -122.4194";
    let carriers = [(0xCB, gps), (0xDF, gps), (0xDE, gps), (0xDD, &b"\0\0GPS 37.7749"[..]), (0xCC, gps)];
    let stripped = strip(Bytes::from(with_segments(&carriers, &carriers)), ImageFormat::Jpeg).unwrap();
    assert_eq!(stripped, with_segments(&[], &[]));

    // PNG: one colour profile, the first; another, even a whole one, is dropped unread (each could inflate to
    // 16 MiB, and a file could hold thousands)
    let mut png = Png::from_bytes(Bytes::from(phone_png())).unwrap();
    let another = [&b"second\0\0"[..], &miniz_oxide::deflate::compress_to_vec_zlib(&icc_profile(), 9)].concat();
    let at = png.chunks().iter().position(|chunk| &chunk.kind() == b"iCCP").unwrap() + 1;
    png.chunks_mut().insert(at, img_parts::png::PngChunk::new(*b"iCCP", Bytes::from(another)));
    let stripped = strip(png.encoder().bytes(), ImageFormat::Png).unwrap();
    let stripped = Png::from_bytes(stripped).unwrap();
    assert_eq!(stripped.chunks().iter().filter(|chunk| &chunk.kind() == b"iCCP").count(), 1);
    assert_eq!(stripped.icc_profile().as_deref(), Some(&icc_profile()[..]), "the first, whole");
}

/// An animated WebP of one frame (`frame`, 16x12), with XMP naming a place in the file and inside the frame.
fn animated_webp(frame: &image::RgbaImage) -> Vec<u8> {
    use img_parts::riff::{RiffChunk, RiffContent};
    let data = |bytes: &[u8]| RiffContent::Data(Bytes::copy_from_slice(bytes));
    let mut still = Vec::new();
    frame.write_to(&mut std::io::Cursor::new(&mut still), ImageFormat::WebP).unwrap();
    let still = WebP::from_bytes(still.into()).unwrap();
    let lossless = still.chunk_by_id(*b"VP8L").unwrap().clone();
    let xmp = RiffChunk::new(*b"XMP ", data(b"<x:xmpmeta>48.8584 N</x:xmpmeta>"));
    let mut anmf = vec![0, 0, 0, 0, 0, 0, 15, 0, 0, 11, 0, 0, 100, 0, 0, 0];
    anmf.extend_from_slice(&lossless.encoder().bytes());
    anmf.extend_from_slice(&xmp.clone().encoder().bytes());
    let chunks = vec![
        RiffChunk::new(*b"VP8X", data(&[0x02 | 0x04, 0, 0, 0, 15, 0, 0, 11, 0, 0])),
        RiffChunk::new(*b"ANIM", data(&[0, 0, 0, 0, 0, 0])),
        RiffChunk::new(*b"ANMF", data(&anmf)),
        xmp,
    ];
    let riff = RiffChunk::new(*b"RIFF", RiffContent::List { kind: Some(*b"WEBP"), subchunks: chunks });
    WebP::new(riff).unwrap().encoder().bytes().to_vec()
}

#[test]
fn an_animated_webp_keeps_its_frames_and_loses_what_they_carry() {
    let frame = image::RgbaImage::from_fn(16, 12, |x, y| image::Rgba([(x * 16) as u8, (y * 20) as u8, 77, 255]));
    let photo = animated_webp(&frame);
    let place = |file: &[u8]| file.windows(7).filter(|w| w == b"48.8584").count();
    assert_eq!(place(&photo), 2, "the animation as built names the place in the file and in its frame");
    let stripped = strip(Bytes::from(photo.clone()), ImageFormat::WebP).unwrap();
    assert_drawing_only(&stripped, "an animated WebP");
    assert_eq!(tags(&stripped)["RIFF:WebP_Flags"], "Animation");
    let first_frame = |file: &[u8]| image::load_from_memory(file).unwrap().to_rgba8();
    assert_eq!(first_frame(&stripped), first_frame(&photo));
}

#[test]
fn a_file_of_headers_alone_is_refused() {
    let plain = plain_jpeg();
    let scan = plain.windows(2).position(|w| w == [0xFF, 0xDA]).unwrap();
    let headers = [&plain[..scan], &[0xFF, 0xD9][..]].concat();
    let mut png = Vec::new();
    scene().write_to(&mut std::io::Cursor::new(&mut png), ImageFormat::Png).unwrap();
    let mut png = Png::from_bytes(png.into()).unwrap();
    png.remove_chunks_by_type(*b"IDAT");
    for (file, format) in [(headers, ImageFormat::Jpeg), (png.encoder().bytes().to_vec(), ImageFormat::Png)] {
        let refused = strip(Bytes::from(file), format).unwrap_err();
        assert!(refused.contains("no image data"), "{format:?}: {refused}");
    }
}

#[test]
fn no_cut_nor_changed_byte_makes_the_stripper_panic() {
    for (photo, format) in [
        (phone_jpeg(), ImageFormat::Jpeg),
        (samsung_motion_jpeg(), ImageFormat::Jpeg),
        (phone_png(), ImageFormat::Png),
        (phone_webp(), ImageFormat::WebP),
    ] {
        for at in (0..photo.len()).step_by(11) {
            let _ = strip(Bytes::copy_from_slice(&photo[..at]), format);
            let mut changed = photo.clone();
            changed[at] ^= 0xFF;
            let _ = strip(Bytes::from(changed), format);
        }
    }
}
