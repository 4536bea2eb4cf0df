//! Furniture removal: a mask of furniture-like regions (what differs from the floor and wall around it), and
//! inpainting that fills the masked area from its border inwards, so floor and wall continue across it.

use image::{GrayImage, Luma, RgbImage};

use super::luminance;

/// Furniture-like regions: in the lower two thirds, pixels far from their row's median brightness, grown a little.
/// (A first heuristic; the analysis issue replaces it with floor and wall models.)
pub fn furniture_mask(image: &RgbImage) -> GrayImage {
    let (width, height) = image.dimensions();
    let mut mask = GrayImage::new(width, height);
    let mut row: Vec<f32> = Vec::with_capacity(width as usize);
    for y in height / 3..height {
        row.clear();
        row.extend((0..width).map(|x| luminance(image.get_pixel(x, y))));
        let mut sorted = row.clone();
        sorted.sort_by(f32::total_cmp);
        let median = sorted[sorted.len() / 2];
        for (x, value) in row.iter().enumerate() {
            if (value - median).abs() > 0.18 {
                mask.put_pixel(x as u32, y, Luma([255]));
            }
        }
    }
    dilate(&mask, 2)
}

/// Grows the white area by `radius` pixels (square neighbourhood).
fn dilate(mask: &GrayImage, radius: u32) -> GrayImage {
    let (width, height) = mask.dimensions();
    let mut grown = mask.clone();
    for (x, y, pixel) in mask.enumerate_pixels() {
        if pixel.0[0] == 0 {
            continue;
        }
        for ny in y.saturating_sub(radius)..(y + radius + 1).min(height) {
            for nx in x.saturating_sub(radius)..(x + radius + 1).min(width) {
                grown.put_pixel(nx, ny, Luma([255]));
            }
        }
    }
    grown
}

/// Fills the white area of `mask` (slightly dilated) ring by ring: each pixel takes the mean of its already known
/// neighbours, so the surrounding texture's colours flow in from every side.
pub fn remove(source: &RgbImage, mask: &GrayImage) -> RgbImage {
    let (width, height) = source.dimensions();
    let mask = dilate(mask, 1);
    let mut image = source.clone();
    let mut unknown: Vec<bool> = mask.pixels().map(|p| p.0[0] > 127).collect();
    let mut frontier: Vec<(u32, u32)> = Vec::new();
    loop {
        frontier.clear();
        for y in 0..height {
            for x in 0..width {
                if unknown[(y * width + x) as usize] && known_neighbours(&unknown, width, height, x, y).next().is_some()
                {
                    frontier.push((x, y));
                }
            }
        }
        if frontier.is_empty() {
            break;
        }
        let filled: Vec<[u8; 3]> = frontier
            .iter()
            .map(|&(x, y)| {
                let mut sum = [0u32; 3];
                let mut count = 0;
                for (nx, ny) in known_neighbours(&unknown, width, height, x, y) {
                    for (s, v) in sum.iter_mut().zip(image.get_pixel(nx, ny).0) {
                        *s += u32::from(v);
                    }
                    count += 1;
                }
                sum.map(|s| (s / count) as u8)
            })
            .collect();
        for (&(x, y), colour) in frontier.iter().zip(filled) {
            image.get_pixel_mut(x, y).0 = colour;
            unknown[(y * width + x) as usize] = false;
        }
    }
    image
}

fn known_neighbours(
    unknown: &[bool],
    width: u32,
    height: u32,
    x: u32,
    y: u32,
) -> impl Iterator<Item = (u32, u32)> + '_ {
    let candidates = [
        (x.wrapping_sub(1), y),
        (x + 1, y),
        (x, y.wrapping_sub(1)),
        (x, y + 1),
        (x.wrapping_sub(1), y.wrapping_sub(1)),
        (x + 1, y + 1),
        (x + 1, y.wrapping_sub(1)),
        (x.wrapping_sub(1), y + 1),
    ];
    candidates.into_iter().filter(move |&(nx, ny)| nx < width && ny < height && !unknown[(ny * width + nx) as usize])
}
