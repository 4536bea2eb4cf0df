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

/// Each masked run of a row is filled with the row's own pixels beside it, mirrored in: its left part from the
/// left, its right part from the right (each side gives what room it has), and bent with linear ramps so the copy
/// meets the known pixels at both ends and the two parts meet in the middle.
fn fill_rows(image: &mut RgbImage, unknown: &mut [bool]) {
    let (width, height) = image.dimensions();
    let width = width as usize;
    for y in 0..height {
        let row = y as usize * width;
        let mut x = 0;
        while x < width {
            if !unknown[row + x] {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && unknown[row + x] {
                x += 1;
            }
            let end = x; // the run is start..end
            let run = end - start;
            let room_left = (0..start).rev().take_while(|&i| !unknown[row + i]).count();
            let room_right = (end..width).take_while(|&i| !unknown[row + i]).count();
            if room_left + room_right < run || (room_left == 0 && room_right == 0) {
                continue; // the rings fill it
            }
            // the left part's length: half the run, within what each side can give
            let left_part = (run / 2).clamp(run.saturating_sub(room_right), room_left);
            let pixel = |image: &RgbImage, i: usize| image.get_pixel(i as u32, y).0.map(f32::from);
            let mut values: Vec<[f32; 3]> = (0..run)
                .map(|i| if i < left_part { pixel(image, start - 1 - i) } else { pixel(image, end + (run - 1 - i)) })
                .collect();
            // the seam between the parts meets at the average of both sides' copies
            if left_part > 0 && left_part < run {
                let (a, b) = (values[left_part - 1], values[left_part]);
                let meet: [f32; 3] = std::array::from_fn(|c| (a[c] + b[c]) / 2.0);
                for (i, value) in values.iter_mut().enumerate() {
                    let (t, from) = if i < left_part {
                        ((i + 1) as f32 / left_part as f32, a)
                    } else {
                        ((run - i) as f32 / (run - left_part) as f32, b)
                    };
                    (0..3).for_each(|c| value[c] += t * (meet[c] - from[c]));
                }
            } else if start > 0 && end < width {
                // one side gave it all: bend the far end to meet the other side's edge
                let far_edge = if left_part == run { pixel(image, end) } else { pixel(image, start - 1) };
                let far_copy = if left_part == run { values[run - 1] } else { values[0] };
                for (i, value) in values.iter_mut().enumerate() {
                    let t = if left_part == run { (i + 1) as f32 / run as f32 } else { (run - i) as f32 / run as f32 };
                    (0..3).for_each(|c| value[c] += t * (far_edge[c] - far_copy[c]));
                }
            }
            for (i, value) in values.into_iter().enumerate() {
                image.get_pixel_mut((start + i) as u32, y).0 = value.map(|v| v.round().clamp(0.0, 255.0) as u8);
                unknown[row + start + i] = false;
            }
        }
    }
}

/// What rows could not fill, ring by ring from the border: each pixel takes the mean of its known neighbours.
fn fill_rings(image: &mut RgbImage, mut unknown: Vec<bool>) {
    let (width, height) = image.dimensions();
    let mut frontier: Vec<(u32, u32)> = Vec::new();
    let mut pending: Vec<(u32, u32)> = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .filter(|&(x, y)| unknown[(y * width + x) as usize])
        .collect();
    loop {
        frontier.clear();
        frontier.extend(
            pending.iter().copied().filter(|&(x, y)| known_neighbours(&unknown, width, height, x, y).next().is_some()),
        );
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
        pending.retain(|&(x, y)| unknown[(y * width + x) as usize]);
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
