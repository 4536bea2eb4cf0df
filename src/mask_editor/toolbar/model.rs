//! What the mask editor's toolbar shows, as plain functions: the brush size in whole pixels, the overlay's opacity
//! as a percentage and the zoom as a readout. Tested in the browser.

/// A brush size (or the largest one) as its slider takes it: whole pixels.
pub fn whole_pixels(size: f64) -> String {
    size.round().to_string()
}

/// The brush size as its readout says it.
pub fn size_readout(size: f64) -> String {
    format!("{} px", size.round())
}

/// The overlay's opacity (0 to 1) as its slider takes it, in whole percent.
pub fn opacity_percent(opacity: f64) -> String {
    (opacity * 100.0).round().to_string()
}

/// The opacity slider's percent as an opacity (0 to 1).
pub fn opacity_of_percent(percent: f64) -> f64 {
    percent / 100.0
}

/// The view's scale (1.0: one photo pixel per CSS pixel) as its readout says it.
pub fn zoom_readout(zoom: f64) -> String {
    format!("{:.0} %", zoom * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn sizes_opacity_and_zoom_are_shown_whole() {
        assert_eq!(whole_pixels(39.6), "40");
        assert_eq!(size_readout(12.4), "12 px");
        assert_eq!(opacity_percent(0.555), "56");
        assert_eq!(opacity_of_percent(40.0), 0.4);
        assert_eq!(zoom_readout(1.256), "126 %");
    }
}
