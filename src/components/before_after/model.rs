//! Where the before/after slider stands, as plain functions of its position (0 to 100): a key's step, a pointer's
//! place in the frame, and the styles and values it is shown with. Tested in the browser.

/// The new position after `key` at `position` (0 to 100), or `None` when the key does nothing here.
pub fn key_step(position: f64, key: &str, fine: bool) -> Option<f64> {
    let step = if fine { 1.0 } else { 5.0 };
    let next = match key {
        "ArrowLeft" | "ArrowDown" => position - step,
        "ArrowRight" | "ArrowUp" => position + step,
        "PageDown" => position - 25.0,
        "PageUp" => position + 25.0,
        "Home" => 0.0,
        "End" => 100.0,
        _ => return None,
    };
    Some(next.clamp(0.0, 100.0))
}

/// The position of a pointer at `client_x` over a frame starting at `left` and `width` wide (all in CSS pixels);
/// `None` while the frame has no width.
pub fn position_at(client_x: f64, left: f64, width: f64) -> Option<f64> {
    (width > 0.0).then(|| ((client_x - left) / width * 100.0).clamp(0.0, 100.0))
}

/// The `clip-path` that shows the before image left of the handle.
pub fn before_clip(position: f64) -> String {
    format!("inset(0 {:.2}% 0 0)", 100.0 - position)
}

/// The handle's `left`.
pub fn handle_left(position: f64) -> String {
    format!("{position:.2}%")
}

/// The position as the slider announces it, in whole percent.
pub fn whole_percent(position: f64) -> String {
    format!("{position:.0}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn keys_step_by_five_or_one_and_stay_within_the_frame() {
        assert_eq!(key_step(50.0, "ArrowRight", false), Some(55.0));
        assert_eq!(key_step(55.0, "ArrowLeft", true), Some(54.0), "Shift steps finely");
        assert_eq!(key_step(98.0, "ArrowUp", false), Some(100.0));
        assert_eq!(key_step(10.0, "PageDown", false), Some(0.0));
        assert_eq!((key_step(40.0, "Home", false), key_step(40.0, "End", false)), (Some(0.0), Some(100.0)));
        assert_eq!(key_step(40.0, "Enter", false), None, "other keys are the page's");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_pointer_sets_the_share_of_the_frame_left_of_it() {
        assert_eq!(position_at(150.0, 100.0, 200.0), Some(25.0));
        assert_eq!(position_at(50.0, 100.0, 200.0), Some(0.0));
        assert_eq!(position_at(400.0, 100.0, 200.0), Some(100.0));
        assert_eq!(position_at(150.0, 100.0, 0.0), None, "a frame not laid out yet");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_position_is_shown_as_styles_and_a_whole_percent() {
        assert_eq!(before_clip(25.0), "inset(0 75.00% 0 0)");
        assert_eq!(handle_left(33.333), "33.33%");
        assert_eq!(whole_percent(54.6), "55");
    }
}
