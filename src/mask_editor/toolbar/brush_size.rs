//! The toolbar's brush size: a slider up to the largest size for this photo, and its readout in pixels.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::{size_readout, whole_pixels};
use crate::locale::use_locale;

#[component]
pub fn BrushSize(
    /// Brush diameter in photo pixels.
    size: RwSignal<f64>,
    max_size: RwSignal<f64>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <label class="vstage-mask-toolbar__range" title=move || td_string!(locale.get(), mask.toolbar_size_title)>
            {move || td_string!(locale.get(), mask.toolbar_size)}
            " "
            <input
                type="range"
                min="2"
                max=move || whole_pixels(max_size.get())
                step="1"
                aria-label=move || td_string!(locale.get(), mask.toolbar_size_label)
                prop:value=move || whole_pixels(size.get())
                on:input=move |ev| {
                    if let Ok(value) = event_target_value(&ev).parse::<f64>() {
                        size.set(value);
                    }
                }
            />
            <output class="vstage-mask-size">{move || size_readout(size.get())}</output>
        </label>
    }
}
