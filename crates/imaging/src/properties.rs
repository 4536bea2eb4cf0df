//! The imaging's properties as a person would check them, measured on the sample scenes (drawn by code, so the
//! truth is known): furniture found where it is, removed toward the empty room, skies turned to dusk, contrast
//! gained without clipping, staging on the floor, seeded and stable.

use image::{GrayImage, RgbImage};
use vstage_api::{RoomType, SkyStyle, Style};

use super::{adjust, decode, encode, furniture_analysis, luminance, removal, staging};
use crate::scenes::{Scene, scenes};

fn scene(name: &str) -> Scene {
    scenes().into_iter().find(|scene| scene.name == name).expect("a sample scene")
}

/// The photo as the service would receive it: through its JPEG file.
fn as_served(photo: &RgbImage) -> RgbImage {
    decode(&encode(photo, None).unwrap().full).unwrap()
}

/// Where furnished and empty differ: the furniture (and its shadow).
fn ground_truth(furnished: &RgbImage, empty: &RgbImage) -> Vec<bool> {
    furnished.pixels().zip(empty.pixels()).map(|(a, b)| (0..3).any(|c| a.0[c].abs_diff(b.0[c]) > 40)).collect()
}

fn intersection_over_union(mask: &GrayImage, truth: &[bool]) -> f64 {
    let (mut both, mut either) = (0u64, 0u64);
    for (pixel, &truth) in mask.pixels().zip(truth) {
        let found = pixel.0[0] > 127;
        both += u64::from(found && truth);
        either += u64::from(found || truth);
    }
    both as f64 / either.max(1) as f64
}

/// Mean absolute difference per channel over the pixels where `inside` holds.
fn mean_difference(a: &RgbImage, b: &RgbImage, inside: &[bool]) -> f64 {
    let (mut sum, mut count) = (0f64, 0u64);
    for ((p, q), &inside) in a.pixels().zip(b.pixels()).zip(inside) {
        if inside {
            sum += (0..3).map(|c| f64::from(p.0[c].abs_diff(q.0[c]))).sum::<f64>() / 3.0;
            count += 1;
        }
    }
    sum / count.max(1) as f64
}

#[test]
fn the_analysis_finds_the_furniture_of_each_furnished_sample() {
    for name in ["living-furnished.jpg", "bedroom-furnished.jpg"] {
        let scene = scene(name);
        let truth = ground_truth(&scene.photo, scene.empty.as_ref().unwrap());
        let (mask, percentage) = furniture_analysis(&as_served(&scene.photo));
        assert_eq!(mask.dimensions(), scene.photo.dimensions());
        assert!(mask.pixels().all(|p| p.0[0] == 0 || p.0[0] == 255), "strictly black and white");
        let iou = intersection_over_union(&mask, &truth);
        println!("{name}: intersection over union {iou:.3}");
        assert!(iou >= 0.6, "{name}: intersection over union {iou:.3} with the furniture");
        assert!(percentage > 2.0, "{name}: {percentage:.1} % masked");
    }
}

#[test]
fn an_empty_room_is_almost_all_unmasked() {
    let (_, percentage) = furniture_analysis(&as_served(&scene("living-empty.jpg").photo));
    assert!(percentage < 2.0, "{percentage:.2} % of the empty room masked");
}

#[test]
fn removal_brings_the_masked_area_toward_the_empty_room() {
    for name in ["living-furnished.jpg", "bedroom-furnished.jpg"] {
        let scene = scene(name);
        let empty = scene.empty.as_ref().unwrap();
        let truth = ground_truth(&scene.photo, empty);
        let served = as_served(&scene.photo);
        let (mask, _) = furniture_analysis(&served);
        let result = removal::remove(&served, &mask);
        let before = mean_difference(&served, empty, &truth);
        let after = mean_difference(&result, empty, &truth);
        println!("{name}: {before:.1} before, {after:.1} after removal");
        assert!(after < before * 0.25, "{name}: {before:.1} before, {after:.1} after removal (per channel)");
    }
}

#[test]
fn dusk_turns_the_sky_to_each_style_darkens_the_rest_and_lights_the_windows() {
    let scene = scene("exterior-day.jpg");
    let sky: Vec<bool> = scene.sky.as_ref().unwrap().pixels().map(|p| p.0[0] > 127).collect();
    let rest: Vec<bool> = sky.iter().map(|s| !s).collect();
    let windows: Vec<bool> = scene.windows.as_ref().unwrap().pixels().map(|p| p.0[0] > 127).collect();
    let served = as_served(&scene.photo);
    let mean = |image: &RgbImage, inside: &[bool]| -> [f64; 3] {
        let mut sum = [0f64; 3];
        let mut count = 0f64;
        for (pixel, &inside) in image.pixels().zip(inside) {
            if inside {
                (0..3).for_each(|c| sum[c] += f64::from(pixel.0[c]));
                count += 1.0;
            }
        }
        sum.map(|s| s / count)
    };
    let brightness = |image: &RgbImage, inside: &[bool]| -> f64 {
        let values: Vec<f64> =
            image.pixels().zip(inside).filter(|(_, i)| **i).map(|(p, _)| f64::from(luminance(p))).collect();
        values.iter().sum::<f64>() / values.len() as f64
    };
    for style in [SkyStyle::Dusk, SkyStyle::Golden, SkyStyle::Blue] {
        let result = adjust::dusk(&served, &style);
        assert_eq!(result.dimensions(), served.dimensions());
        let (top, horizon) = adjust::sky_gradient(&style);
        let palette: [f64; 3] = std::array::from_fn(|c| f64::from(top[c] + horizon[c]) / 2.0);
        let distance = |colour: [f64; 3]| (0..3).map(|c| (colour[c] - palette[c]).powi(2)).sum::<f64>().sqrt();
        let (before, after) = (distance(mean(&served, &sky)), distance(mean(&result, &sky)));
        assert!(after < before * 0.5, "{style:?}: the sky is {before:.0} then {after:.0} from the palette");
        assert!(brightness(&result, &rest) < brightness(&served, &rest) * 0.8, "{style:?}: the rest is darker");
        let [r, _, b] = mean(&result, &windows);
        assert!(r > 200.0 && r > b + 60.0, "{style:?}: the windows glow warm ({r:.0} red, {b:.0} blue)");
    }
}

#[test]
fn enhancement_gains_contrast_with_little_clipping() {
    let scene = scene("living-empty.jpg");
    // a flat, washed-out copy: every value squeezed into 90..170
    let flat = RgbImage::from_fn(scene.photo.width(), scene.photo.height(), |x, y| {
        image::Rgb(scene.photo.get_pixel(x, y).0.map(|v| 90 + (u16::from(v) * 80 / 255) as u8))
    });
    let spread = |image: &RgbImage| {
        let values: Vec<f64> = image.pixels().map(|p| f64::from(luminance(p))).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt()
    };
    let result = adjust::enhance(&flat);
    assert!(spread(&result) > spread(&flat) * 1.5, "contrast {:.3} -> {:.3}", spread(&flat), spread(&result));
    let clipped = result.pixels().filter(|p| p.0.iter().any(|&v| v == 0 || v == 255)).count();
    let share = clipped as f64 / f64::from(result.width() * result.height());
    assert!(share < 0.01, "{:.2} % of the pixels clipped", share * 100.0);
}

#[test]
fn staging_changes_the_floor_and_lower_wall_and_is_seeded() {
    let empty = scene("living-empty.jpg").photo;
    let staged = staging::stage(&empty, &RoomType::Living, &Style::Modern, 41);
    let height = empty.height();
    let mut changed = 0u64;
    let mut high = 0u64;
    for (x, y, pixel) in staged.enumerate_pixels() {
        if (0..3).any(|c| pixel.0[c].abs_diff(empty.get_pixel(x, y).0[c]) > 30) {
            changed += 1;
            high += u64::from(y < height * 35 / 100);
        }
    }
    assert!(changed > u64::from(empty.width() * height) / 50, "the furniture is visible");
    assert_eq!(high, 0, "nothing above the lower wall changes ({high} of {changed})");
    assert_eq!(staged, staging::stage(&empty, &RoomType::Living, &Style::Modern, 41), "one seed, one image");
    assert_ne!(staged, staging::stage(&empty, &RoomType::Living, &Style::Modern, 42), "two seeds differ");
}

#[test]
fn the_disclaimer_is_legible_in_the_lower_right_only() {
    let photo = scene("living-empty.jpg").photo;
    let mut marked = photo.clone();
    let (left, top, width, height) = super::watermark::disclose(&mut marked).expect("room for the disclaimer");
    assert!(left > photo.width() / 2 && top > photo.height() * 3 / 4, "lower right: {left},{top}");
    assert!(height >= 14, "at least 14 px tall");
    let mut white = 0;
    for (x, y, pixel) in marked.enumerate_pixels() {
        let inside = (left..left + width).contains(&x) && (top..top + height).contains(&y);
        if !inside {
            assert_eq!(pixel, photo.get_pixel(x, y), "nothing changes outside the plate");
        } else if pixel.0.iter().all(|&v| v > 230) {
            white += 1;
        }
    }
    assert!(white > (width * height / 20) as usize, "white letters on the dark plate ({white} px)");
    assert!(super::watermark::disclose(&mut RgbImage::new(120, 80)).is_none(), "no room, no disclaimer");
}

#[test]
fn the_optimized_copy_is_at_most_a_third_and_the_thumbnail_at_most_400_px() {
    for scene in scenes() {
        let outputs = encode(&scene.photo, None).unwrap();
        assert!(
            outputs.optimized.len() * 3 <= outputs.full.len(),
            "{}: optimized {} of {} bytes",
            scene.name,
            outputs.optimized.len(),
            outputs.full.len()
        );
        let thumbnail = image::load_from_memory(&outputs.thumbnail).unwrap();
        assert!(thumbnail.width().max(thumbnail.height()) <= 400);
        let full = image::load_from_memory(&outputs.full).unwrap();
        assert_eq!((full.width(), full.height()), scene.photo.dimensions(), "default keeps the size");
    }
}
