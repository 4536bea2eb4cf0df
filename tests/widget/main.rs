//! The widget's tests in headless Chromium, one binary (one link, one wasm-bindgen, one browser), run by `cargo
//! xtask test` (wasm-bindgen-test-runner with webdriver.json): components mounted alone, the element as a host page
//! uses it, the client against a running sandbox.
#![cfg(target_arch = "wasm32")]

mod api_client;
mod embedding;
mod header;
mod studio;
mod support;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
