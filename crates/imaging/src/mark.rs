//! The "SANDBOX" mark in the lower-left corner of every result, so no sandbox image can pass for a real one.
//! Drawn from a built-in 5x7 bitmap of the seven letters it needs, white on a dark plate, scaled with the image.

use image::{Rgb, RgbImage};

/// Rows of each letter, five bits wide, top to bottom.
const GLYPHS: [(char, [u8; 7]); 6] = [
    ('S', [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110]),
    ('A', [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001]),
    ('N', [0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001, 0b10001]),
    ('D', [0b11110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11110]),
    ('B', [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110]),
    ('O', [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110]),
];
const X: [u8; 7] = [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001];

fn glyph(letter: char) -> [u8; 7] {
    GLYPHS.iter().find(|(c, _)| *c == letter).map_or(X, |(_, rows)| *rows)
}

pub fn sandbox(image: &mut RgbImage) {
    let (width, height) = image.dimensions();
    let scale = (width.min(height) / 160).max(1);
    let text = "SANDBOX";
    let margin = 2 * scale;
    let plate_width = (text.len() as u32 * 6 + 1) * scale + 2 * margin;
    let plate_height = 9 * scale + 2 * margin;
    if plate_width > width || plate_height > height {
        return;
    }
    let left = margin;
    let top = height - plate_height - margin;
    for y in top..top + plate_height {
        for x in left..left + plate_width {
            let pixel = image.get_pixel_mut(x, y);
            pixel.0 = pixel.0.map(|c| c / 4);
        }
    }
    for (index, letter) in text.chars().enumerate() {
        let origin_x = left + margin + (index as u32 * 6 + 1) * scale;
        let origin_y = top + margin + scale;
        for (row, bits) in glyph(letter).iter().enumerate() {
            for column in 0..5 {
                if bits & (1 << (4 - column)) != 0 {
                    for dy in 0..scale {
                        for dx in 0..scale {
                            image.put_pixel(
                                origin_x + column * scale + dx,
                                origin_y + row as u32 * scale + dy,
                                Rgb([255, 255, 255]),
                            );
                        }
                    }
                }
            }
        }
    }
}
