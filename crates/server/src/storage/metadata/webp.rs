//! A WebP reduced to the chunks that draw it and its colour profile, with its extended header's flags saying what
//! is left (`img-parts` reads the RIFF chunks within the size the file declares, so what follows is left behind,
//! and a file shorter than it declares was cut short).

use img_parts::riff::{RiffChunk, RiffContent};
use img_parts::webp::{
    CHUNK_ALPH, CHUNK_ANIM, CHUNK_ANMF, CHUNK_EXIF, CHUNK_ICCP, CHUNK_VP8, CHUNK_VP8L, CHUNK_VP8X, WebP,
};
use img_parts::{Bytes, ImageEXIF};

use super::{orientation_only_exif, turning, unreadable};

/// The chunks kept: the image (lossy, lossless, its alpha), the extended header, the animation and its frames,
/// the ICC profile. `EXIF`, `XMP ` and anything else go.
const DRAWING: [[u8; 4]; 7] = [CHUNK_VP8, CHUNK_VP8L, CHUNK_VP8X, CHUNK_ALPH, CHUNK_ANIM, CHUNK_ANMF, CHUNK_ICCP];
/// An animation frame's header before its image chunks: position, size, duration and flags.
const FRAME_HEADER: usize = 16;
/// The extended header's flags (its first byte).
const ICC: u8 = 0x20;
const ALPHA: u8 = 0x10;
const EXIF: u8 = 0x08;
const ANIMATION: u8 = 0x02;

/// The WebP with only what draws it, and its orientation alone as EXIF when it turns the photo (an extended
/// file's only: a simple one cannot carry EXIF).
pub(super) fn drawing_only(bytes: Bytes) -> Result<Bytes, String> {
    let mut webp = WebP::from_bytes(bytes).map_err(unreadable)?;
    let orientation = turning(webp.exif());
    webp.chunks_mut().retain(|chunk| DRAWING.contains(&chunk.id()));
    webp.chunks_mut().retain(|chunk| match (chunk.id(), chunk.content()) {
        (CHUNK_ICCP, RiffContent::Data(profile)) => super::is_icc_profile(profile),
        (CHUNK_ICCP, _) => false,
        _ => true,
    });
    if ![CHUNK_VP8, CHUNK_VP8L, CHUNK_ANMF].iter().any(|id| webp.has_chunk(*id)) {
        return Err(super::no_image());
    }
    for chunk in webp.chunks_mut().iter_mut().filter(|chunk| chunk.id() == CHUNK_ANMF) {
        if let RiffContent::Data(frame) = chunk.content_mut() {
            *frame = frame_drawing_only(frame)?;
        }
    }
    if let Some(orientation) = orientation.filter(|_| webp.has_chunk(CHUNK_VP8X)) {
        webp.set_exif(Some(orientation_only_exif(orientation)));
    }
    let flags = flags_of(&webp);
    if let Some(RiffContent::Data(header)) =
        webp.chunks_mut().iter_mut().find(|chunk| chunk.id() == CHUNK_VP8X).map(RiffChunk::content_mut)
    {
        let mut rewritten = header.to_vec();
        let reserved = rewritten.len().min(4);
        if let Some(first) = rewritten.get_mut(0) {
            *first = (*first & ALPHA) | flags; // what the image says of its alpha, the rest as the chunks are
            rewritten[1..reserved].fill(0);
        }
        *header = Bytes::from(rewritten);
    }
    Ok(webp.encoder().bytes())
}

/// The extended header's flags for what `webp` holds now: no XMP, EXIF only for the orientation.
fn flags_of(webp: &WebP) -> u8 {
    let mut flags = 0;
    if webp.has_chunk(CHUNK_ICCP) {
        flags |= ICC;
    }
    if webp.has_chunk(CHUNK_EXIF) {
        flags |= EXIF;
    }
    if webp.has_chunk(CHUNK_ANIM) || webp.has_chunk(CHUNK_ANMF) {
        flags |= ANIMATION;
    }
    flags
}

/// An animation frame with its header and image chunks alone (a frame may carry chunks of any kind after them).
fn frame_drawing_only(frame: &Bytes) -> Result<Bytes, String> {
    let Some(chunks) = frame.get(FRAME_HEADER..) else { return Err(super::cut_short()) };
    // read as a file of its own, by the same parser
    let mut file = Vec::with_capacity(12 + chunks.len());
    file.extend_from_slice(b"RIFF");
    file.extend_from_slice(&u32::try_from(4 + chunks.len()).unwrap_or(u32::MAX).to_le_bytes());
    file.extend_from_slice(b"WEBP");
    file.extend_from_slice(chunks);
    let inner = WebP::from_bytes(Bytes::from(file)).map_err(unreadable)?;
    let mut kept = frame[..FRAME_HEADER].to_vec();
    for chunk in inner.chunks().iter().filter(|chunk| matches!(chunk.id(), CHUNK_ALPH | CHUNK_VP8 | CHUNK_VP8L)) {
        kept.extend_from_slice(&chunk.clone().encoder().bytes());
    }
    Ok(Bytes::from(kept))
}
