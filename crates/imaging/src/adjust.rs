//! Whole-image adjustments: enhancement (white balance, levels, vibrance, unsharp mask) and day-to-dusk
//! (the sky found from the top edge and replaced by a gradient, the rest darkened and tinted, lights made warm).

use image::{Rgb, RgbImage};
use vstage_api::SkyStyle;

use super::luminance;

/// Automatic white balance (grey world, half strength), levels stretched from the 0.5 and 99.5 luminance
/// percentiles into 12..243 (headroom, so large flat areas at a percentile do not clip), vibrance, an unsharp
/// mask, and a soft knee at both ends so that almost nothing reaches 0 or 255.
pub fn enhance(source: &RgbImage) -> RgbImage {
    let mut image = source.clone();
    let count = f64::from(image.width()) * f64::from(image.height());
    let mut sums = [0f64; 3];
    for pixel in image.pixels() {
        for (sum, value) in sums.iter_mut().zip(pixel.0) {
            *sum += f64::from(value);
        }
    }
    let grey = sums.iter().sum::<f64>() / 3.0;
    // half of the grey-world correction, bounded: rooms are rarely grey on average
    let gains =
        sums.map(|sum| if sum > 0.0 { (1.0 + ((grey / sum) - 1.0) * 0.5).clamp(0.85, 1.15) as f32 } else { 1.0 });
    for pixel in image.pixels_mut() {
        for (value, gain) in pixel.0.iter_mut().zip(gains) {
            *value = (f32::from(*value) * gain).round().clamp(0.0, 255.0) as u8;
        }
    }
    let (low, high) = percentiles(&image, count);
    let span = f32::from(high.saturating_sub(low).max(1));
    let (floor, ceiling) = (12.0_f32, 243.0_f32);
    for pixel in image.pixels_mut() {
        let stretched = pixel.0.map(|v| floor + (f32::from(v) - f32::from(low)) / span * (ceiling - floor));
        let mean = stretched.iter().sum::<f32>() / 3.0;
        let saturation = stretched.iter().fold(0f32, |m, v| m.max((v - mean).abs())) / 255.0;
        let boost = 1.0 + 0.35 * (1.0 - saturation);
        pixel.0 = stretched.map(|v| soft_clip(mean + (v - mean) * boost));
    }
    unsharp(&image, 0.6)
}

/// Values pass unchanged between 16 and 239; beyond, they bend smoothly toward 1 and 254.
fn soft_clip(value: f32) -> u8 {
    let bent = if value > 239.0 {
        239.0 + 15.0 * ((value - 239.0) / 15.0).tanh()
    } else if value < 16.0 {
        16.0 - 15.0 * ((16.0 - value) / 15.0).tanh()
    } else {
        value
    };
    bent.round().clamp(0.0, 255.0) as u8
}

/// The luminance levels below which 0.5 % and above which 0.5 % of the pixels lie.
fn percentiles(image: &RgbImage, count: f64) -> (u8, u8) {
    let mut histogram = [0u64; 256];
    for pixel in image.pixels() {
        histogram[(luminance(pixel) * 255.0).round() as usize] += 1;
    }
    let cut = (count * 0.005) as u64;
    let mut seen = 0;
    let low = histogram.iter().position(|&n| {
        seen += n;
        seen > cut
    });
    seen = 0;
    let high = histogram.iter().rposition(|&n| {
        seen += n;
        seen > cut
    });
    (low.unwrap_or(0) as u8, high.unwrap_or(255) as u8)
}

/// `image + amount * (image - blur(image))` with a 3x3 box blur.
fn unsharp(image: &RgbImage, amount: f32) -> RgbImage {
    let blurred = image::imageops::blur(image, 1.0);
    let mut sharp = image.clone();
    for (out, soft) in sharp.pixels_mut().zip(blurred.pixels()) {
        for (value, smooth) in out.0.iter_mut().zip(soft.0) {
            let detail = f32::from(*value) - f32::from(smooth);
            *value = soft_clip(f32::from(*value) + amount * detail);
        }
    }
    sharp
}

/// The sky's colours from its top to the horizon, for each style.
pub(super) fn sky_gradient(sky: &SkyStyle) -> ([f32; 3], [f32; 3]) {
    match sky {
        SkyStyle::Golden => ([70.0, 60.0, 120.0], [250.0, 165.0, 80.0]),
        SkyStyle::Blue => ([20.0, 40.0, 110.0], [90.0, 140.0, 210.0]),
        _ => ([25.0, 20.0, 60.0], [205.0, 110.0, 120.0]),
    }
}

/// Day to dusk: the sky (bright, smooth, connected to the top edge) becomes the style's gradient; the rest is
/// darkened and tinted; windows and lamps (the brightest remaining pixels) glow warm.
pub fn dusk(source: &RgbImage, sky_style: &SkyStyle) -> RgbImage {
    let (width, height) = source.dimensions();
    let sky = sky_mask(source);
    let (top, horizon) = sky_gradient(sky_style);
    let tint = horizon.map(|c| c / 255.0);
    let mut image = source.clone();
    for (x, y, pixel) in image.enumerate_pixels_mut() {
        if sky[(y * width + x) as usize] {
            let t = y as f32 / (height as f32 * 0.6).max(1.0);
            let t = t.min(1.0);
            pixel.0 = std::array::from_fn(|c| (top[c] * (1.0 - t) + horizon[c] * t).round() as u8);
        } else if lights_up(pixel) {
            *pixel = Rgb([255, 196, 110]);
        } else {
            pixel.0 = std::array::from_fn(|c| (f32::from(pixel.0[c]) * 0.45 * (0.6 + 0.4 * tint[c])).round() as u8);
        }
    }
    image
}

/// What glows at dusk: lamps and bright spots, and window glass (dark, cool panes that reflect the day's sky).
fn lights_up(pixel: &Rgb<u8>) -> bool {
    let [r, g, b] = pixel.0.map(i16::from);
    let brightness = luminance(pixel);
    brightness > 0.85 || (brightness < 0.4 && b > r + 15 && b + 10 >= g)
}

/// Sky-coloured: bright, and blue or neutral rather than warm (walls and roofs are warmer).
fn sky_like(pixel: &Rgb<u8>) -> bool {
    let [r, _, b] = pixel.0;
    luminance(pixel) > 0.45 && b >= r
}

/// Pixels of the sky: flood-filled from the top edge over sky-coloured pixels with small steps between neighbours.
fn sky_mask(image: &RgbImage) -> Vec<bool> {
    let (width, height) = image.dimensions();
    let mut sky = vec![false; (width * height) as usize];
    let mut stack: Vec<(u32, u32)> =
        (0..width).map(|x| (x, 0)).filter(|&(x, y)| sky_like(image.get_pixel(x, y))).collect();
    for &(x, y) in &stack {
        sky[(y * width + x) as usize] = true;
    }
    while let Some((x, y)) = stack.pop() {
        let here = luminance(image.get_pixel(x, y));
        let neighbours = [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)];
        for (nx, ny) in neighbours {
            if nx >= width || ny >= height || sky[(ny * width + nx) as usize] {
                continue;
            }
            let there = luminance(image.get_pixel(nx, ny));
            if sky_like(image.get_pixel(nx, ny)) && (there - here).abs() < 0.06 {
                sky[(ny * width + nx) as usize] = true;
                stack.push((nx, ny));
            }
        }
    }
    sky
}
