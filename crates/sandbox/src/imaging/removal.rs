//! Furniture removal: the masked area (slightly dilated) is filled from exemplars, row by row: the row's own
//! pixels beside the hole, mirrored into it and bent to meet both edges, so floor boards and wall gradients
//! continue across; what no row can fill is filled from its border inwards.

use image::{GrayImage, RgbImage};

/// The photo with the white area of `mask` filled.
pub fn remove(source: &RgbImage, mask: &GrayImage) -> RgbImage {
    let grow = (source.width().min(source.height()) / 300).clamp(1, 255) as u8;
    let mask = imageproc::morphology::dilate(mask, imageproc::distance_transform::Norm::LInf, grow);
    let mut image = source.clone();
    let mut unknown: Vec<bool> = mask.pixels().map(|p| p.0[0] > 127).collect();
    fill_rows(&mut image, &mut unknown);
    fill_rings(&mut image, unknown);
    image
}

/// Each masked run of a row is filled with the row's pixels beside it, mirrored (from the side with room for the
/// whole run), plus a linear ramp that makes the copy meet the known pixels at both ends.
fn fill_rows(image: &mut RgbImage, unknown: &mut [bool]) {
    let (width, height) = image.dimensions();
    let width = width as usize;
    for y in 0..height {
        let row_start = y as usize * width;
        let mut x = 0;
        while x < width {
            if !unknown[row_start + x] {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && unknown[row_start + x] {
                x += 1;
            }
            let end = x; // the run is start..end
            let run = end - start;
            let left_room = start >= run && (start - run..start).all(|i| !unknown[row_start + i]);
            let right_room = end + run <= width && (end..end + run).all(|i| !unknown[row_start + i]);
            let source = |i: usize| -> Option<usize> {
                match (left_room, right_room) {
                    (true, _) => Some(start - 1 - i),
                    (false, true) => Some(end + run - 1 - i),
                    _ => None,
                }
            };
            let (Some(_), true, true) = (source(0), start > 0, end < width) else { continue };
            let pixel = |image: &RgbImage, i: usize| image.get_pixel(i as u32, y).0.map(f32::from);
            let (left, right) = (pixel(image, start - 1), pixel(image, end));
            let (first, last) = (pixel(image, source(0).unwrap_or(0)), pixel(image, source(run - 1).unwrap_or(0)));
            for i in 0..run {
                let t = if run > 1 { i as f32 / (run - 1) as f32 } else { 0.5 };
                let copied = pixel(image, source(i).unwrap_or(0));
                let value: [u8; 3] = std::array::from_fn(|c| {
                    let ramp = (1.0 - t) * (left[c] - first[c]) + t * (right[c] - last[c]);
                    (copied[c] + ramp).round().clamp(0.0, 255.0) as u8
                });
                image.get_pixel_mut((start + i) as u32, y).0 = value;
                unknown[row_start + start + i] = false;
            }
        }
    }
}

/// What rows could not fill, ring by ring from the border: each pixel takes the mean of its known neighbours.
fn fill_rings(image: &mut RgbImage, mut unknown: Vec<bool>) {
    let (width, height) = image.dimensions();
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
