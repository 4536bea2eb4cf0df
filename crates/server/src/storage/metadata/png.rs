//! A PNG reduced to the chunks that draw it and its colour (`img-parts` reads the chunks, checks their CRCs and
//! stops at `IEND`, leaving what follows it behind); one without its `IEND` was cut short.

use img_parts::png::Png;
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
    if png.chunk_by_type(*b"IDAT").is_none() {
        return Err(no_image());
    }
    if let Some(orientation) = orientation {
        png.set_exif(Some(orientation_only_exif(orientation)));
    }
    Ok(png.encoder().bytes())
}
