//! The toolbar's overlay settings: the colour the mask is shown in over the photo, and its opacity.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::{opacity_of_percent, opacity_percent};
use crate::locale::use_locale;

#[component]
pub fn OverlayControls(
    /// `#rrggbb`, as a colour input gives it.
    colour: RwSignal<String>,
    opacity: RwSignal<f64>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <label class="vstage-mask-toolbar__range">
            {move || td_string!(locale.get(), mask.toolbar_overlay)}
            " "
            <input
                type="color"
                aria-label=move || td_string!(locale.get(), mask.toolbar_overlay_colour)
                prop:value=move || colour.get()
                on:input=move |ev| colour.set(event_target_value(&ev))
            />
            <input
                type="range"
                min="10"
                max="100"
                aria-label=move || td_string!(locale.get(), mask.toolbar_overlay_opacity)
                prop:value=move || opacity_percent(opacity.get())
                on:input=move |ev| {
                    if let Ok(value) = event_target_value(&ev).parse::<f64>() {
                        opacity.set(opacity_of_percent(value));
                    }
                }
            />
        </label>
    }
}
