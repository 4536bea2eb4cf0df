//! A JPEG reduced to its frame, tables, scans and colour (the JFIF header without its thumbnail, the ICC profile,
//! Adobe's colour transform), up to its end-of-image marker and nothing after it.
//!
//! `img-parts` reads the segments up to the first scan and leaves the rest of the file as that scan's data (the
//! other scans of a progressive JPEG, the tables and metadata between them, the end-of-image marker and whatever
//! a phone appends after it: an MPF second image, a motion photo's video, another EXIF block). The rest is read
//! here, into `img-parts`' own segments: the scan's data ends at the first marker that is neither a stuffed
//! `FF 00` nor a restart marker, and what follows is a marker with its length, up to the end-of-image marker.

use img_parts::jpeg::{Jpeg, JpegSegment, markers};
use img_parts::{Bytes, ImageEXIF};

use super::{cut_short, no_image, orientation_only_exif, turning, unreadable};

/// The most segments read before the first scan, and after it (a photo has a dozen before, and a progressive JPEG
/// a few dozen after: a scan and its tables at a time), so that a file of empty segments cannot make a list many
/// times its size.
const MOST_SEGMENTS: usize = 4096;
/// What a JFIF header holds before its thumbnail: identifier, version, units, densities, thumbnail size.
const JFIF_WITHOUT_THUMBNAIL: usize = 14;
/// What Adobe's APP14 segment holds (Adobe's technical note 5116): its identifier and five more fields.
const ADOBE: usize = 12;
/// An ICC profile's chunk: this identifier, its number and the count of chunks (ICC.1, annex B.4), then its part.
const ICC_CHUNK: &[u8] = b"ICC_PROFILE\0";

/// Keeps the ICC profile's chunks only when, put together in their order, they are one whole profile; else none.
fn keep_a_whole_profile_only(kept: &mut Vec<JpegSegment>) {
    let is_chunk = |segment: &JpegSegment| segment.marker() == markers::APP2;
    let mut chunks: Vec<(u8, u8, Bytes)> = kept
        .iter()
        .filter(|segment| is_chunk(segment))
        .filter_map(|segment| {
            let contents = segment.contents();
            let (number, count) = (*contents.get(ICC_CHUNK.len())?, *contents.get(ICC_CHUNK.len() + 1)?);
            Some((number, count, contents.slice(ICC_CHUNK.len() + 2..)))
        })
        .collect();
    if chunks.is_empty() {
        return;
    }
    chunks.sort_by_key(|(number, _, _)| *number);
    let count = chunks[0].1;
    let numbered =
        chunks.iter().enumerate().all(|(at, (number, of, _))| usize::from(*number) == at + 1 && *of == count);
    let profile: Vec<u8> = chunks.iter().flat_map(|(_, _, part)| part.iter().copied()).collect();
    if !(numbered && chunks.len() == usize::from(count) && super::is_icc_profile(&profile)) {
        kept.retain(|segment| !is_chunk(segment));
    }
}

/// The JPEG with only what draws it, and its orientation alone as EXIF when it turns the photo.
pub(super) fn drawing_only(bytes: Bytes) -> Result<Bytes, String> {
    head_within_bounds(&bytes)?;
    let head = Jpeg::from_bytes(bytes.clone()).map_err(unreadable)?;
    let mut kept = Vec::with_capacity(head.segments().len());
    for segment in head.segments() {
        if segment.has_entropy() {
            // the first scan, whose data img-parts runs to the end of the file
            let rest = bytes.slice(bytes.len() - (segment.len_with_entropy() - segment.len())..);
            scans(segment.contents().clone(), rest, &mut kept)?;
        } else if let Some(segment) = drawing(segment.marker(), segment.contents()) {
            kept.push(segment);
        }
    }
    keep_a_whole_profile_only(&mut kept);
    let orientation = turning(head.exif());
    let mut jpeg = Jpeg::from_bytes(Bytes::from_static(&[markers::P, markers::SOI, markers::P, markers::EOI]))
        .map_err(unreadable)?;
    if !kept.iter().any(|segment| segment.marker() == markers::SOS) {
        return Err(no_image());
    }
    let scanned = kept.iter().any(JpegSegment::has_entropy);
    *jpeg.segments_mut() = kept;
    if let Some(orientation) = orientation {
        jpeg.set_exif(Some(orientation_only_exif(orientation)));
    }
    if scanned {
        // a scan's data no longer runs to the end of the file: the end-of-image marker is written after it
        jpeg.segments_mut().push(JpegSegment::new(markers::EOI));
    }
    Ok(jpeg.encoder().bytes())
}

/// The scans from the first one's header on, each with its data, and the segments between them that drawing
/// needs, into `kept`, up to the end-of-image marker. `data` starts with the first scan's data.
fn scans(header: Bytes, data: Bytes, kept: &mut Vec<JpegSegment>) -> Result<(), String> {
    let mut at = scan_end(&data).ok_or_else(cut_short)?;
    kept.push(JpegSegment::new_with_entropy(markers::SOS, header, data.slice(..at)));
    for _ in 0..MOST_SEGMENTS {
        let (marker, after) = next_marker(&data, at).ok_or_else(cut_short)?;
        if marker == markers::EOI {
            return Ok(());
        }
        if !has_length(marker) {
            at = after;
            continue;
        }
        let contents = contents_at(&data, after)?;
        at = after + 2 + contents.len();
        if marker == markers::SOS {
            let scan = scan_end(&data[at..]).ok_or_else(cut_short)?;
            kept.push(JpegSegment::new_with_entropy(markers::SOS, contents, data.slice(at..at + scan)));
            at += scan;
        } else {
            kept.extend(drawing(marker, &contents));
        }
    }
    Err(too_many_segments())
}

/// The contents of the segment whose length is at `at`.
fn contents_at(data: &Bytes, at: usize) -> Result<Bytes, String> {
    let length = data.get(at..at + 2).map(|b| usize::from(u16::from_be_bytes([b[0], b[1]]))).ok_or_else(cut_short)?;
    if length < 2 {
        return Err("The file's structure is damaged (a segment's length is wrong); export the photo again.".into());
    }
    if at + length > data.len() {
        return Err(cut_short());
    }
    Ok(data.slice(at + 2..at + length))
}

/// Refuses a file with more than `MOST_SEGMENTS` segments before its first scan, walked as `img-parts` reads them
/// (which lists every one): what else is wrong with it is `img-parts`' to say.
fn head_within_bounds(bytes: &[u8]) -> Result<(), String> {
    let mut at = 2; // after the start-of-image marker
    for _ in 0..MOST_SEGMENTS {
        let Some((marker, after)) = next_marker(bytes, at) else { return Ok(()) };
        if matches!(marker, markers::SOS | markers::EOI) {
            return Ok(());
        }
        at = after;
        if has_length(marker) {
            let Some(length) = bytes.get(after..after + 2) else { return Ok(()) };
            at += usize::from(u16::from_be_bytes([length[0], length[1]]));
        }
    }
    Err(too_many_segments())
}

fn too_many_segments() -> String {
    format!(
        "The file has more than {MOST_SEGMENTS} segments before or after its first scan, which no photo has; export \
         the photo again."
    )
}

/// Where a scan's entropy-coded data at the start of `data` ends: at the first `FF` that is neither a stuffed
/// zero nor a restart marker (nor a fill byte before a marker). `None` when the file ends first.
fn scan_end(data: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        let ff = at + data[at..].iter().position(|&b| b == markers::P)?;
        match *data.get(ff + 1)? {
            markers::Z | markers::RST0..=markers::RST7 => at = ff + 2,
            _ => return Some(ff),
        }
    }
}

/// The marker at or after `at` (bytes that are not a marker skipped, as `img-parts` does, and fill bytes), and
/// where what follows it starts.
fn next_marker(data: &[u8], at: usize) -> Option<(u8, usize)> {
    let ff = at + data.get(at..)?.iter().position(|&b| b == markers::P)?;
    let marker = ff + data[ff..].iter().position(|&b| b != markers::P)?;
    Some((data[marker], marker + 1))
}

/// Whether `marker` is followed by a length and contents (as `img-parts` reads them).
fn has_length(marker: u8) -> bool {
    matches!(marker, markers::SOF0..=markers::SOF15 | markers::SOS..=markers::EXP | markers::APP0..=markers::COM)
}

/// The segment as kept, when drawing needs it: the frame of the kinds browsers and this server decode (baseline,
/// extended and progressive Huffman), the Huffman and quantisation tables, the restart interval and the number of
/// lines (each two bytes, as they are), the JFIF header (without its thumbnail), the ICC profile and Adobe's colour
/// transform. Anything else (EXIF, XMP, MPF, FlashPix, IPTC, JUMBF, comments, and the frames and segments of the
/// kinds no decoder here reads, which would carry whatever they hold unread) goes.
fn drawing(marker: u8, contents: &Bytes) -> Option<JpegSegment> {
    let kept = match marker {
        markers::SOF0 | markers::SOF1 | markers::SOF2 | markers::DHT | markers::DQT => contents.clone(),
        markers::DRI | markers::DNL if contents.len() == 2 => contents.clone(),
        markers::APP0 if contents.starts_with(b"JFIF\0") && contents.len() >= JFIF_WITHOUT_THUMBNAIL => {
            let mut header = contents[..JFIF_WITHOUT_THUMBNAIL].to_vec();
            header[12..].fill(0); // a thumbnail of no pixels
            Bytes::from(header)
        }
        markers::APP2 if contents.starts_with(ICC_CHUNK) => contents.clone(),
        // "Adobe", version, two flags and the colour transform: nothing after them
        markers::APP14 if contents.starts_with(b"Adobe") && contents.len() >= ADOBE => contents.slice(..ADOBE),
        _ => return None,
    };
    Some(JpegSegment::new_with_contents(marker, kept))
}
