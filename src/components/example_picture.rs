//! The small picture of one choice (a style, a sky) on the forms' cards: made by the server from its own samples
//! (`GET /api/examples/{kind}/{name}.jpg`, under the studio's API base), loaded only when scrolled near, with
//! words for what it shows.

use leptos::prelude::*;

use crate::api::use_api;

#[component]
pub fn ExamplePicture(
    /// `style` or `sky`.
    kind: &'static str,
    /// The choice as the contract spells it.
    #[prop(into)]
    name: String,
    /// What the picture shows, in the studio's language.
    #[prop(into)]
    alt: Signal<String>,
) -> impl IntoView {
    let src = example_address(use_api().base_url(), kind, &name);
    view! { <img class="vstage-example" src=src alt=alt width="160" height="107" loading="lazy" decoding="async" /> }
}

/// Where the server serves the example picture of `name` (a style or a sky, as the contract spells it), under the
/// studio's API base.
pub fn example_address(base: &str, kind: &str, name: &str) -> String {
    format!("{base}/examples/{kind}/{name}.jpg")
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn an_example_is_under_the_api_base() {
        assert_eq!(
            example_address("https://studio.example/api", "style", "modern"),
            "https://studio.example/api/examples/style/modern.jpg"
        );
    }
}
