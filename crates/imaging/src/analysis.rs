//! Furniture analysis: what stands out from the floor and wall. Each row's background is modelled from the photo's
//! side strips (furniture rarely fills a row edge to edge); pixels far from both models are furniture-like, kept
//! when they form regions that stand in the lower part of the room (windows and pictures hang higher).

use image::{GrayImage, Luma, Rgb, RgbImage};
use imageproc::distance_transform::Norm;
use imageproc::region_labelling::{Connectivity, connected_components};

/// The share of the width each side strip takes.
const STRIP: f32 = 0.1;
/// A region must reach below this share of the height (furniture stands on the floor).
const STANDS_BELOW: f32 = 0.55;
/// Regions smaller than this share of the photo are noise.
const MIN_AREA: f64 = 0.002;

/// A row's background as one side strip sees it: its median colour and how far its own pixels stray from it.
struct RowModel {
    median: [f32; 3],
    tolerance: f32,
}

impl RowModel {
    fn of(pixels: impl Iterator<Item = [u8; 3]>) -> Option<Self> {
        let pixels: Vec<[u8; 3]> = pixels.collect();
        if pixels.is_empty() {
            return None;
        }
        let median = [0, 1, 2].map(|c| {
            let mut channel: Vec<u8> = pixels.iter().map(|p| p[c]).collect();
            channel.sort_unstable();
            f32::from(channel[channel.len() / 2])
        });
        let mut spread: Vec<f32> = pixels.iter().map(|p| distance(&median, p)).collect();
        spread.sort_by(f32::total_cmp);
        let typical = spread[spread.len() * 3 / 4];
        Some(RowModel { median, tolerance: (2.5 * typical + 12.0).max(30.0) })
    }

    fn explains(&self, pixel: &Rgb<u8>) -> bool {
        distance(&self.median, &pixel.0) <= self.tolerance
    }
}

fn distance(median: &[f32; 3], pixel: &[u8; 3]) -> f32 {
    (0..3).map(|c| (f32::from(pixel[c]) - median[c]).abs()).fold(0.0, f32::max)
}

/// White where the photo shows furniture-like regions; black elsewhere. The photo's size.
pub fn furniture_mask(image: &RgbImage) -> GrayImage {
    let (width, height) = image.dimensions();
    let strip = ((width as f32 * STRIP) as u32).max(1).min(width);
    let mut candidates = GrayImage::new(width, height);
    for y in 0..height {
        let left = RowModel::of((0..strip).map(|x| image.get_pixel(x, y).0));
        let right = RowModel::of((width - strip..width).map(|x| image.get_pixel(x, y).0));
        let models: Vec<&RowModel> = left.iter().chain(right.iter()).collect();
        for x in 0..width {
            let pixel = image.get_pixel(x, y);
            if !models.iter().any(|model| model.explains(pixel)) {
                candidates.put_pixel(x, y, Luma([255]));
            }
        }
    }
    // opening drops specks and thin lines (board edges, noise); closing joins a piece's parts
    let small = (width.min(height) / 240).clamp(1, 255) as u8;
    let candidates = imageproc::morphology::open(&candidates, Norm::LInf, small);
    let candidates = imageproc::morphology::close(&candidates, Norm::LInf, small.saturating_mul(4));
    fill_holes(&standing_regions(&candidates))
}

/// The regions of `mask` that are large enough and reach the lower part of the photo.
fn standing_regions(mask: &GrayImage) -> GrayImage {
    let (width, height) = mask.dimensions();
    let labels = connected_components(mask, Connectivity::Eight, Luma([0u8]));
    let regions = labels.pixels().map(|p| p.0[0]).max().unwrap_or(0) as usize;
    let mut area = vec![0u64; regions + 1];
    let mut lowest = vec![0u32; regions + 1];
    for (_, y, label) in labels.enumerate_pixels() {
        let label = label.0[0] as usize;
        if label > 0 {
            area[label] += 1;
            lowest[label] = lowest[label].max(y);
        }
    }
    let min_area = (f64::from(width) * f64::from(height) * MIN_AREA) as u64;
    let floor_line = (height as f32 * STANDS_BELOW) as u32;
    let keep: Vec<bool> = (0..=regions).map(|l| l > 0 && area[l] >= min_area && lowest[l] >= floor_line).collect();
    GrayImage::from_fn(width, height, |x, y| Luma([if keep[labels.get_pixel(x, y).0[0] as usize] { 255 } else { 0 }]))
}

/// Fills what a region encloses (the gaps between a sofa's cushions, a table's top and legs).
fn fill_holes(mask: &GrayImage) -> GrayImage {
    let (width, height) = mask.dimensions();
    let mut background = GrayImage::new(width, height);
    for (x, y, pixel) in mask.enumerate_pixels() {
        if pixel.0[0] == 0 {
            background.put_pixel(x, y, Luma([255]));
        }
    }
    let labels = connected_components(&background, Connectivity::Four, Luma([0u8]));
    let regions = labels.pixels().map(|p| p.0[0]).max().unwrap_or(0) as usize;
    let mut open = vec![false; regions + 1];
    for (x, y, label) in labels.enumerate_pixels() {
        if x == 0 || y == 0 || x == width - 1 || y == height - 1 {
            open[label.0[0] as usize] = true;
        }
    }
    GrayImage::from_fn(width, height, |x, y| {
        let label = labels.get_pixel(x, y).0[0] as usize;
        Luma([if label > 0 && open[label] { 0 } else { 255 }])
    })
}
