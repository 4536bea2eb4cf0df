//! The mask's pixels: one byte per pixel, 0 or 255, row by row, so a stroke's span is one `fill` and the PNG is the
//! buffer as it is. Also the rectangles edits report, and the 64x64 tiles the history saves.

use crate::{MAX_PIXELS, MaskError};

pub const SET: u8 = 255;
pub const CLEAR: u8 = 0;
/// The side of a history tile, in pixels.
pub const TILE: u32 = 64;

/// A rectangle of pixels: columns `x..x + width`, rows `y..y + height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl Rect {
    pub const EMPTY: Rect = Rect { x: 0, y: 0, width: 0, height: 0 };

    pub fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0
    }

    /// The smallest rectangle holding both.
    pub fn union(self, other: Rect) -> Rect {
        if self.is_empty() {
            return other;
        }
        if other.is_empty() {
            return self;
        }
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let right = (self.x + self.width).max(other.x + other.width);
        let bottom = (self.y + self.height).max(other.y + other.height);
        Rect { x, y, width: right - x, height: bottom - y }
    }

    /// Grows the rectangle to hold the pixel (x, y).
    pub fn include(self, x: u32, y: u32) -> Rect {
        self.union(Rect { x, y, width: 1, height: 1 })
    }
}

pub struct Bitmap {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Bitmap {
    pub fn new(width: u32, height: u32) -> Result<Self, MaskError> {
        check_size(width, height)?;
        Ok(Self { width, height, pixels: vec![CLEAR; width as usize * height as usize] })
    }

    pub fn from_rgba(width: u32, height: u32, rgba: &[u8], threshold: u8) -> Result<Self, MaskError> {
        check_size(width, height)?;
        let expected = width as usize * height as usize * 4;
        if rgba.len() != expected {
            return Err(MaskError::WrongLength { width, height, expected, got: rgba.len() });
        }
        let pixels = rgba
            .chunks_exact(4)
            .map(|p| {
                // Rec. 601 luma in integers: 0.299 R + 0.587 G + 0.114 B
                let luma = (u32::from(p[0]) * 299 + u32::from(p[1]) * 587 + u32::from(p[2]) * 114) / 1000;
                if luma >= u32::from(threshold) && p[3] >= threshold { SET } else { CLEAR }
            })
            .collect();
        Ok(Self { width, height, pixels })
    }

    /// Grey pixels, one byte each, thresholded.
    pub fn from_luma(width: u32, height: u32, luma: &[u8], threshold: u8) -> Result<Self, MaskError> {
        check_size(width, height)?;
        let expected = width as usize * height as usize;
        if luma.len() != expected {
            return Err(MaskError::WrongLength { width, height, expected, got: luma.len() });
        }
        let pixels = luma.iter().map(|&v| if v >= threshold { SET } else { CLEAR }).collect();
        Ok(Self { width, height, pixels })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn bounds(&self) -> Rect {
        Rect { x: 0, y: 0, width: self.width, height: self.height }
    }

    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    pub fn get(&self, x: u32, y: u32) -> bool {
        x < self.width && y < self.height && self.pixels[self.index(x, y)] == SET
    }

    pub fn count_set(&self) -> usize {
        self.pixels.iter().filter(|&&v| v == SET).count()
    }

    fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// Sets columns `x0..=x1` of row `y` (inside the bitmap) to `value`.
    pub fn fill_span(&mut self, y: u32, x0: u32, x1: u32, value: u8) {
        let start = self.index(x0, y);
        self.pixels[start..=start + (x1 - x0) as usize].fill(value);
    }

    pub fn fill_all(&mut self, value: u8) {
        self.pixels.fill(value);
    }

    /// Takes the pixels of a bitmap of the same size.
    pub fn copy_from(&mut self, other: &Bitmap) {
        self.pixels.copy_from_slice(&other.pixels);
    }

    pub fn invert(&mut self) {
        self.pixels.iter_mut().for_each(|v| *v = !*v);
    }

    /// How many tiles across and down.
    pub fn tiles(&self) -> (u32, u32) {
        (self.width.div_ceil(TILE), self.height.div_ceil(TILE))
    }

    /// The pixels of tile `index` (row-major over the tiles).
    pub fn tile_rect(&self, index: u32) -> Rect {
        let across = self.tiles().0;
        let (x, y) = ((index % across) * TILE, (index / across) * TILE);
        Rect { x, y, width: TILE.min(self.width - x), height: TILE.min(self.height - y) }
    }

    /// The tile's pixels, one bit each (row by row; eight pixels a byte, the first in the lowest bit).
    pub fn pack_tile(&self, index: u32) -> Box<[u8]> {
        let rect = self.tile_rect(index);
        let row_bytes = rect.width.div_ceil(8) as usize;
        let mut bits = vec![0u8; row_bytes * rect.height as usize];
        for (y, out) in (rect.y..rect.y + rect.height).zip(bits.chunks_exact_mut(row_bytes)) {
            let start = self.index(rect.x, y);
            for (pixels, byte) in self.pixels[start..start + rect.width as usize].chunks(8).zip(out) {
                *byte = gather(pixels);
            }
        }
        bits.into_boxed_slice()
    }

    /// Puts back a tile packed by `pack_tile`.
    pub fn unpack_tile(&mut self, index: u32, bits: &[u8]) {
        let rect = self.tile_rect(index);
        let row_bytes = rect.width.div_ceil(8) as usize;
        for (y, packed) in (rect.y..rect.y + rect.height).zip(bits.chunks_exact(row_bytes)) {
            let start = self.index(rect.x, y);
            for (pixels, byte) in self.pixels[start..start + rect.width as usize].chunks_mut(8).zip(packed) {
                let spread = scatter(*byte).to_le_bytes();
                pixels.copy_from_slice(&spread[..pixels.len()]);
            }
        }
    }

    /// RGBA rows of `rect`: `colour` where set, transparent elsewhere.
    pub fn paint_rgba(&self, rect: Rect, colour: [u8; 4], out: &mut Vec<u8>) {
        let rect = clip(rect, self.bounds());
        out.clear();
        out.reserve(rect.width as usize * rect.height as usize * 4);
        for y in rect.y..rect.y + rect.height {
            let start = self.index(rect.x, y);
            for &v in &self.pixels[start..start + rect.width as usize] {
                out.extend_from_slice(if v == SET { &colour } else { &[0, 0, 0, 0] });
            }
        }
    }
}

/// Up to eight pixels (0 or 255) as the bits of a byte, the first pixel in the lowest bit: one multiplication
/// gathers the top bit of each byte of a word.
fn gather(pixels: &[u8]) -> u8 {
    let mut word = [0u8; 8];
    word[..pixels.len()].copy_from_slice(pixels);
    let tops = u64::from_le_bytes(word) & 0x8080_8080_8080_8080;
    (tops.wrapping_mul(0x0002_0408_1020_4081) >> 56) as u8
}

/// The reverse of `gather`: each bit of the byte as a byte of 0 or 255.
fn scatter(byte: u8) -> u64 {
    // put bit i at the lowest bit of byte i, then widen each to 0xff
    let spread = (u64::from(byte).wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201)
        .wrapping_add(0x7f7f_7f7f_7f7f_7f7f ^ 0x7f3f_1f0f_0703_0100);
    ((spread >> 7) & 0x0101_0101_0101_0101) * 0xff
}

/// The part of `rect` inside `bounds`.
fn clip(rect: Rect, bounds: Rect) -> Rect {
    let x = rect.x.min(bounds.width);
    let y = rect.y.min(bounds.height);
    let width = rect.width.min(bounds.width - x);
    let height = rect.height.min(bounds.height - y);
    Rect { x, y, width, height }
}

fn check_size(width: u32, height: u32) -> Result<(), MaskError> {
    if width == 0 || height == 0 {
        return Err(MaskError::Empty { width, height });
    }
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(MaskError::TooLarge { width, height });
    }
    Ok(())
}
