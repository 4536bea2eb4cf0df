//! The mask model's behaviour, run natively and as wasm in headless Chromium: brush coverage against a
//! brute-force reference, gapless interpolation, history, whole-mask edits, loading and exporting.

use vstage_mask::{Mask, MaskError, Point, Rect, Tool};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Every pixel whose centre is within `radius` of the segment `a`–`b`: the definition the brush must match.
fn brute_force(width: u32, height: u32, a: Point, b: Point, radius: f64) -> Vec<(u32, u32)> {
    let mut covered = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let length_squared = dx * dx + dy * dy;
            let t = if length_squared == 0.0 {
                0.0
            } else {
                (((px - a.x) * dx + (py - a.y) * dy) / length_squared).clamp(0.0, 1.0)
            };
            let (cx, cy) = (a.x + t * dx, a.y + t * dy);
            if (px - cx).powi(2) + (py - cy).powi(2) <= radius * radius {
                covered.push((x, y));
            }
        }
    }
    covered
}

fn set_pixels(mask: &Mask) -> Vec<(u32, u32)> {
    let mut set = Vec::new();
    for y in 0..mask.height() {
        for x in 0..mask.width() {
            if mask.is_set(x, y) {
                set.push((x, y));
            }
        }
    }
    set
}

fn stroke(mask: &mut Mask, tool: Tool, points: &[(f64, f64)], radius: f64) -> Rect {
    mask.begin_stroke(tool);
    let mut changed = mask.stroke_dab(Point::new(points[0].0, points[0].1), radius);
    for pair in points.windows(2) {
        let (from, to) = (Point::new(pair[0].0, pair[0].1), Point::new(pair[1].0, pair[1].1));
        changed = changed.union(mask.stroke_segment(from, to, radius, radius));
    }
    mask.end_stroke();
    changed
}

macro_rules! model_test {
    ($(#[$meta:meta])* fn $name:ident() $body:block) => {
        $(#[$meta])*
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        fn $name() $body
    };
}

model_test! {
    fn a_stroke_covers_exactly_the_pixels_within_the_brush_of_its_path() {
        let cases = [
            ((20.0, 50.0), (80.0, 50.0), 10.0), // horizontal: 60x20 band and two half discs
            ((10.3, 12.7), (87.9, 71.2), 7.5),  // diagonal, off the pixel grid
            ((50.0, 10.0), (50.0, 90.0), 4.0),  // vertical
            ((40.5, 40.5), (40.5, 40.5), 12.0), // a dab
            ((-20.0, -5.0), (30.0, 140.0), 9.0), // partly outside the photo
        ];
        for (a, b, radius) in cases {
            let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
            let mut mask = Mask::new(100, 100).unwrap();
            mask.begin_stroke(Tool::Brush);
            let changed = mask.stroke_segment(a, b, radius, radius);
            mask.end_stroke();
            let expected = brute_force(100, 100, a, b, radius);
            assert_eq!(set_pixels(&mask), expected, "segment {a:?} to {b:?}, radius {radius}");
            let (xs, ys): (Vec<u32>, Vec<u32>) = expected.iter().copied().unzip();
            let bounds = Rect {
                x: *xs.iter().min().unwrap(),
                y: *ys.iter().min().unwrap(),
                width: xs.iter().max().unwrap() - xs.iter().min().unwrap() + 1,
                height: ys.iter().max().unwrap() - ys.iter().min().unwrap() + 1,
            };
            assert_eq!(changed, bounds, "the changed rectangle of {a:?} to {b:?}");
        }
        // the horizontal case, counted: 60 columns x 20 rows, plus a disc of radius 10 split over the two ends
        let mut mask = Mask::new(100, 100).unwrap();
        stroke(&mut mask, Tool::Brush, &[(20.0, 50.0), (80.0, 50.0)], 10.0);
        let count = set_pixels(&mask).len();
        assert!((1200 + 300..1200 + 330).contains(&count), "{count} pixels");
    }
}

model_test! {
    fn a_fast_movement_leaves_no_gap() {
        // three pointer events far apart, as a quick flick gives them
        let mut mask = Mask::new(400, 300).unwrap();
        stroke(&mut mask, Tool::Brush, &[(5.0, 5.0), (390.0, 40.0), (20.0, 290.0)], 2.0);
        for (from, to) in [((5.0, 5.0), (390.0, 40.0)), ((390.0, 40.0), (20.0, 290.0))] {
            for step in 0..=1000 {
                let t = f64::from(step) / 1000.0;
                let (x, y) = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
                assert!(mask.is_set(x as u32, y as u32), "gap at ({x:.1}, {y:.1})");
            }
        }
    }
}

model_test! {
    fn pen_pressure_tapers_the_stroke() {
        let mut mask = Mask::new(200, 100).unwrap();
        mask.begin_stroke(Tool::Brush);
        mask.stroke_segment(Point::new(20.0, 50.0), Point::new(180.0, 50.0), 2.0, 20.0);
        mask.end_stroke();
        let height_at = |x: u32| (0..100).filter(|&y| mask.is_set(x, y)).count();
        assert!(height_at(25) <= 8, "thin where the pen was light: {}", height_at(25));
        assert!(height_at(175) >= 36, "wide where the pen pressed: {}", height_at(175));
        for x in 20..180 {
            assert!(mask.is_set(x, 50), "continuous at x = {x}");
        }
    }
}

model_test! {
    fn undo_and_redo_step_through_strokes() {
        let mut mask = Mask::new(300, 200).unwrap();
        stroke(&mut mask, Tool::Brush, &[(20.0, 20.0), (280.0, 180.0)], 15.0);
        let after_first = set_pixels(&mask);
        stroke(&mut mask, Tool::Eraser, &[(150.0, 0.0), (150.0, 200.0)], 20.0);
        let after_second = set_pixels(&mask);
        assert!(after_second.len() < after_first.len(), "the eraser took pixels away");
        assert_eq!(mask.undo_steps(), 2);

        let undone = mask.undo();
        assert_eq!(set_pixels(&mask), after_first);
        let inside = |&(x, y): &(u32, u32)| {
            (undone.x..undone.x + undone.width).contains(&x) && (undone.y..undone.y + undone.height).contains(&y)
        };
        let erased: Vec<_> = after_first.iter().filter(|p| !after_second.contains(p)).collect();
        assert!(erased.iter().all(|p| inside(p)), "the undo reports the pixels it restored");
        assert!(mask.can_redo());
        mask.redo();
        assert_eq!(set_pixels(&mask), after_second);
        mask.undo();
        mask.undo();
        assert!(set_pixels(&mask).is_empty());
        assert!(!mask.can_undo());
        assert_eq!(mask.undo(), Rect::EMPTY, "nothing more to undo");

        // a new edit after undoing drops what could have been redone
        mask.redo();
        stroke(&mut mask, Tool::Brush, &[(10.0, 190.0)], 5.0);
        assert!(!mask.can_redo());
        assert_eq!(mask.undo_steps(), 2);
    }
}

model_test! {
    fn a_stroke_that_changes_nothing_is_not_a_step_and_a_cancelled_one_leaves_no_trace() {
        let mut mask = Mask::new(100, 100).unwrap();
        stroke(&mut mask, Tool::Eraser, &[(10.0, 10.0), (90.0, 90.0)], 8.0);
        assert_eq!(mask.undo_steps(), 0, "erasing nothing is not a step");

        mask.begin_stroke(Tool::Brush);
        mask.stroke_segment(Point::new(10.0, 10.0), Point::new(90.0, 90.0), 8.0, 8.0);
        assert!(!set_pixels(&mask).is_empty());
        assert!(!mask.can_undo(), "no undo in the middle of a stroke");
        let restored = mask.cancel_stroke();
        assert!(!restored.is_empty());
        assert!(set_pixels(&mask).is_empty());
        assert_eq!(mask.undo_steps(), 0);
    }
}

model_test! {
    fn invert_fill_and_clear_are_steps_of_their_own() {
        let mut mask = Mask::new(130, 70).unwrap(); // tiles that do not divide the size
        stroke(&mut mask, Tool::Brush, &[(30.0, 30.0)], 10.0);
        let dab = set_pixels(&mask);

        assert_eq!(mask.invert(), mask.bounds());
        assert_eq!(set_pixels(&mask).len(), 130 * 70 - dab.len());
        assert!(dab.iter().all(|&(x, y)| !mask.is_set(x, y)));
        mask.fill();
        assert_eq!(mask.percentage(), 100.0);
        mask.clear();
        assert_eq!(mask.percentage(), 0.0);

        mask.undo();
        assert_eq!(mask.percentage(), 100.0);
        mask.undo();
        assert_eq!(set_pixels(&mask).len(), 130 * 70 - dab.len());
        mask.undo();
        assert_eq!(set_pixels(&mask), dab);
    }
}

model_test! {
    fn history_stays_within_its_memory_bound() {
        let mut mask = Mask::new(1000, 1000).unwrap();
        mask.set_history_budget(200 * 1024);
        for n in 0..60 {
            let y = f64::from(n * 16 + 8);
            stroke(&mut mask, Tool::Brush, &[(0.0, y), (1000.0, y)], 6.0);
            assert!(mask.history_bytes() <= 200 * 1024, "{} bytes after {n} strokes", mask.history_bytes());
        }
        let kept = mask.undo_steps();
        assert!((10..60).contains(&kept), "the oldest steps were forgotten, the newest kept: {kept}");
        for _ in 0..kept {
            mask.undo();
        }
        assert!(!mask.can_undo());
        // the forgotten strokes stay painted
        let forgotten = 60 - kept;
        assert!(mask.is_set(500, (forgotten as u32 - 1) * 16 + 8));
        assert!(!mask.is_set(500, forgotten as u32 * 16 + 8));
    }
}

model_test! {
    fn the_export_is_a_strictly_black_and_white_png_of_the_photos_size() {
        let mut mask = Mask::new(321, 123).unwrap();
        stroke(&mut mask, Tool::Brush, &[(20.0, 20.0), (300.0, 100.0)], 12.5);
        let png = mask.to_png().unwrap();

        let decoder = png::Decoder::new(std::io::Cursor::new(&png[..]));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((frame.width, frame.height), (321, 123));
        assert_eq!(frame.color_type, png::ColorType::Grayscale);
        assert!(pixels.iter().all(|&v| v == 0 || v == 255), "only black and white");
        for y in 0..123 {
            for x in 0..321 {
                assert_eq!(pixels[(y * 321 + x) as usize] == 255, mask.is_set(x, y), "pixel ({x}, {y})");
            }
        }
        let read_back = Mask::from_png(&png, 128).unwrap();
        assert_eq!(set_pixels(&read_back), set_pixels(&mask));
    }
}

model_test! {
    fn an_analysis_mask_is_loaded_thresholded() {
        // a grey, antialiased mask as a canvas gives it: a light square with a soft edge, on a half-transparent area
        let (width, height) = (40u32, 30u32);
        let mut rgba = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let value = match (x, y) {
                    (10..=19, 10..=19) => 250,
                    (9 | 20, 9..=20) | (9..=20, 9 | 20) => 100, // the soft edge falls outside
                    _ => 20,
                };
                let alpha = if x >= 30 { 60 } else { 255 };
                rgba.extend_from_slice(&[value, value, value, alpha]);
            }
        }
        // and a light but mostly transparent patch, which is not furniture
        for y in 0..5 {
            for x in 32..36 {
                let i = ((y * width + x) * 4) as usize;
                rgba[i..i + 3].copy_from_slice(&[255, 255, 255]);
            }
        }
        let mask = Mask::from_rgba(width, height, &rgba, 128).unwrap();
        let expected: Vec<(u32, u32)> = (10..20).flat_map(|y| (10..20).map(move |x| (x, y))).collect();
        assert_eq!(set_pixels(&mask), expected);
        assert!((mask.percentage() - 100.0 * 100.0 / 1200.0).abs() < 1e-9);

        // loaded over a mask being edited, as one step that can be undone
        let mut edited = Mask::new(width, height).unwrap();
        stroke(&mut edited, Tool::Brush, &[(2.0, 2.0)], 2.0);
        let dab = set_pixels(&edited);
        edited.replace_from_rgba(&rgba, 128).unwrap();
        assert_eq!(set_pixels(&edited), expected);
        edited.undo();
        assert_eq!(set_pixels(&edited), dab);
        assert!(edited.replace_from_rgba(&rgba[..40], 128).is_err(), "a mask of another size is refused");
    }
}

model_test! {
    fn bad_sizes_and_bad_images_are_errors_that_say_what_to_do() {
        assert!(matches!(Mask::new(0, 10), Err(MaskError::Empty { .. })));
        let too_large = Mask::new(10_000, 10_000).err().unwrap();
        assert!(too_large.to_string().contains("smaller"), "{too_large}");
        let short = Mask::from_rgba(10, 10, &[0; 12], 128).err().unwrap();
        assert!(matches!(short, MaskError::WrongLength { expected: 400, got: 12, .. }));
        let not_png = Mask::from_png(b"<html>not found</html>", 128).err().unwrap();
        assert!(not_png.to_string().contains("black-and-white PNG"), "{not_png}");
        // strokes with no meaning are ignored rather than panicking
        let mut mask = Mask::new(10, 10).unwrap();
        mask.begin_stroke(Tool::Brush);
        assert_eq!(mask.stroke_segment(Point::new(f64::NAN, 1.0), Point::new(5.0, 5.0), 3.0, 3.0), Rect::EMPTY);
        assert_eq!(mask.stroke_dab(Point::new(500.0, 500.0), 3.0), Rect::EMPTY);
        mask.end_stroke();
        assert_eq!(mask.undo_steps(), 0);
    }
}
