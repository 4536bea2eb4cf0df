//! The mask editor's figures for `cargo xtask bench`, measured in headless Chromium (ignored by `cargo xtask
//! test`): a pointer-move segment of a 60 px brush on a 12-megapixel mask in our model, and with the canvas update,
//! beside the same brush in plain canvas-2D JavaScript, each timed a stroke of 100 segments at a time (p50 and p95
//! over 100 strokes, per segment); the PNG export; the memory of 100 strokes of history.
//! Each figure is printed as one line `vstage-figure {json}`, which xtask reads.

#![cfg(target_arch = "wasm32")]

use vstage_mask::{Mask, Point, Tool};
use vstage_widget::mask_editor::canvas::MaskLayer;
use vstage_widget::mask_editor::export::png_blob;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const WIDTH: u32 = 4000;
const HEIGHT: u32 = 3000;
const BRUSH: f64 = 60.0;
/// Segments per stroke: a stroke of about a second of pointer moves.
const STROKE: usize = 100;

fn now() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

fn figure(name: &str, unit: &str, value: f64) {
    console_log!("vstage-figure {}", serde_json::json!({ "figure": name, "unit": unit, "value": value }));
}

/// A hand's path across the photo: 100 strokes of 100 pointer moves, 6 to 14 px apart, sweeping in waves.
fn path() -> Vec<Point> {
    let mut points = Vec::new();
    for stroke in 0..100 {
        let row = 150.0 + f64::from(stroke % 25) * 110.0;
        let start = if stroke % 2 == 0 { 100.0 } else { 2900.0 };
        let direction = if stroke % 2 == 0 { 1.0 } else { -1.0 };
        let mut x = start;
        for step in 0..=STROKE {
            let wobble = (f64::from(step as u32) * 0.21 + f64::from(stroke)).sin();
            x += direction * (10.0 + 4.0 * wobble);
            points.push(Point::new(x, row + 40.0 * wobble));
        }
    }
    points
}

fn percentiles(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |share: f64| times[((times.len() - 1) as f64 * share).round() as usize];
    (at(0.5), at(0.95))
}

/// Each stroke painted by the model, timed whole and divided by its segments (one segment takes less than the
/// browser's timer can tell); with a layer, the layer is also updated after each segment (the editor does it once
/// per frame, for all the moves of that frame: this is its worst case).
fn rust_strokes(points: &[Point], layer: Option<&mut MaskLayer>) -> (Vec<f64>, Mask) {
    let mut mask = Mask::new(WIDTH, HEIGHT).unwrap();
    let mut layer = layer;
    let mut per_segment = Vec::with_capacity(points.len() / STROKE);
    for stroke in points.chunks(STROKE + 1) {
        mask.begin_stroke(Tool::Brush);
        let start = now();
        for pair in stroke.windows(2) {
            let rect = mask.stroke_segment(pair[0], pair[1], BRUSH / 2.0, BRUSH / 2.0);
            if let Some(layer) = layer.as_deref_mut() {
                layer.update(&mask, rect);
                layer.read_one_pixel(pair[1]);
            }
        }
        per_segment.push((now() - start) / (stroke.len() - 1) as f64);
        mask.end_stroke();
    }
    (per_segment, mask)
}

#[wasm_bindgen_test]
#[ignore = "a benchmark: run by `cargo xtask bench`"]
fn mask_editor_figures() {
    let points = path();
    // the model alone, then with the canvas update the editor makes after each move
    let (model, mask) = rust_strokes(&points, None);
    let mut layer = MaskLayer::new(WIDTH, HEIGHT, [255, 45, 85]).unwrap();
    let (with_canvas, _) = rust_strokes(&points, Some(&mut layer));

    // the same path in plain canvas-2D JavaScript
    let flat: Vec<f64> = points.iter().flat_map(|p| [p.x, p.y]).collect();
    let reference = js_sys::Function::new_with_args("", include_str!("figures/mask_canvas.js"));
    let arguments = js_sys::Array::of5(
        &JsValue::from(WIDTH),
        &JsValue::from(HEIGHT),
        &JsValue::from(BRUSH),
        &js_sys::Float64Array::from(flat.as_slice()),
        &JsValue::from(STROKE as u32 + 1),
    );
    let outcome = reference.apply(&JsValue::NULL, &arguments).unwrap();
    let js_times = js_sys::Float64Array::from(js_sys::Reflect::get(&outcome, &"times".into()).unwrap()).to_vec();
    let js_history = js_sys::Reflect::get(&outcome, &"historyBytes".into()).unwrap().as_f64().unwrap();

    let (model_p50, model_p95) = percentiles(model);
    let (canvas_p50, canvas_p95) = percentiles(with_canvas);
    let (js_p50, js_p95) = percentiles(js_times);
    // the reference first: xtask puts it beside the figures that follow
    figure("mask segment, canvas-2D JavaScript: p50", "ms", js_p50);
    figure("mask segment, canvas-2D JavaScript: p95", "ms", js_p95);
    figure("mask segment, vstage model: p50", "ms", model_p50);
    figure("mask segment, vstage model: p95", "ms", model_p95);
    figure("mask segment, vstage model + canvas update: p50", "ms", canvas_p50);
    figure("mask segment, vstage model + canvas update: p95", "ms", canvas_p95);

    // export: the PNG and its blob, five times
    let mut exports = Vec::new();
    let mut size = 0.0;
    for _ in 0..5 {
        let start = now();
        let blob = png_blob(&mask).unwrap();
        exports.push(now() - start);
        size = blob.size();
    }
    figure("mask export to PNG, 12 MP: p50", "ms", percentiles(exports).0);
    figure("mask export to PNG, 12 MP: size", "bytes", size);

    figure("mask history of 100 strokes, vstage", "bytes", mask.history_bytes() as f64);
    figure("mask history of 100 strokes, canvas-2D snapshots", "bytes", js_history);
    assert_eq!(mask.undo_steps(), 100, "every stroke is kept within the budget");
}
