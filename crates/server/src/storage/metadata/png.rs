//! A PNG reduced to the chunks that draw it and its colour (`img-parts` reads the chunks, checks their CRCs and
//! stops at `IEND`, leaving what follows it behind); one without its `IEND` was cut short.

use img_parts::png::{Png, PngChunk};
use img_parts::{Bytes, ImageEXIF};

use super::{cut_short, no_image, orientation_only_exif, turning, unreadable};

/// The chunks kept: the header, palette and transparency, the colour (gamma, chromaticities, sRGB, ICC profile,
/// coding-independent code points, significant bits), the image data and the end. Text (`tEXt`, `zTXt`, `iTXt`
/// with XMP), `eXIf`, C2PA's `caBX`, times, sizes and anything else go.
const DRAWING: [&[u8; 4]; 11] =
    [b"IHDR", b"PLTE", b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"cICP", b"sBIT", b"IDAT", b"IEND"];

/// The PNG with only what draws it, and its orientation alone as `eXIf` when it turns the photo.
pub(super) fn drawing_only(bytes: Bytes) -> Result<Bytes, String> {
    let mut png = Png::from_bytes(bytes).map_err(unreadable)?;
    if png.chunks().last().map(|chunk| chunk.kind()) != Some(*b"IEND") {
        return Err(cut_short());
    }
    let orientation = turning(png.exif());
    png.chunks_mut().retain(|chunk| DRAWING.contains(&&chunk.kind()));
    // One colour profile, the first (PNG allows no other): the rest go unread, never inflated.
    let mut profiles = 0;
    png.chunks_mut().retain(|chunk| {
        profiles += usize::from(&chunk.kind() == b"iCCP");
        &chunk.kind() != b"iCCP" || profiles == 1
    });
    let colour_is_whole = |chunk: &PngChunk| match &chunk.kind() {
        b"iCCP" => profile_of(chunk.contents()).is_some_and(|profile| super::is_icc_profile(&profile)),
        b"sBIT" => chunk.contents().len() <= 4,
        _ => true,
    };
    png.chunks_mut().retain(colour_is_whole);
    if png.chunk_by_type(*b"IDAT").is_none() {
        return Err(no_image());
    }
    if let Some(orientation) = orientation {
        png.set_exif(Some(orientation_only_exif(orientation)));
    }
    Ok(png.encoder().bytes())
}

/// The ICC profile an `iCCP` chunk holds: after its name (1 to 79 bytes and a zero) and its compression method
/// (0, zlib), the profile compressed; at most a profile's room (16 MB) is inflated.
fn profile_of(contents: &[u8]) -> Option<Vec<u8>> {
    let name_end = contents.iter().take(80).position(|&byte| byte == 0).filter(|&end| end > 0)?;
    let (method, compressed) = (contents.get(name_end + 1)?, contents.get(name_end + 2..)?);
    if *method != 0 {
        return None;
    }
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(compressed, 16 << 20).ok()
}
