//! The full image in an overlay: zoom with the buttons, the wheel or + and -, back to fit with 0, close with
//! Escape or the button; the page behind stays as it was.

use leptos::ev::{KeyboardEvent, WheelEvent};
use leptos::html;
use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::{format, use_locale};

const ZOOMS: [f64; 7] = [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0];

/// The next zoom step up (`in`) or down from `zoom`.
pub fn zoom_step(zoom: f64, zoom_in: bool) -> f64 {
    if zoom_in {
        ZOOMS.iter().copied().find(|z| *z > zoom + 1e-9).unwrap_or(ZOOMS[ZOOMS.len() - 1])
    } else {
        ZOOMS.iter().rev().copied().find(|z| *z < zoom - 1e-9).unwrap_or(ZOOMS[0])
    }
}

#[component]
pub fn ImageViewer(
    /// The image shown and its title (in the studio's language, as it changes); `None` closes the viewer.
    open: RwSignal<Option<(String, Signal<String>)>>,
) -> impl IntoView {
    let locale = use_locale();
    let zoom = RwSignal::new(1.0_f64);
    let close_button = NodeRef::<html::Button>::new();
    Effect::new(move |_| {
        if open.get().is_some() {
            zoom.set(1.0);
            if let Some(button) = close_button.get() {
                let _ = button.focus();
            }
        }
    });
    let on_key = move |event: KeyboardEvent| match event.key().as_str() {
        "Escape" => open.set(None),
        "+" | "=" => zoom.update(|z| *z = zoom_step(*z, true)),
        "-" => zoom.update(|z| *z = zoom_step(*z, false)),
        "0" => zoom.set(1.0),
        _ => {}
    };
    let on_wheel = move |event: WheelEvent| {
        event.prevent_default();
        zoom.update(|z| *z = zoom_step(*z, event.delta_y() < 0.0));
    };
    let max_width = move || if zoom.get() > 1.0 { "none" } else { "100%" };
    move || {
        open.get().map(|(src, label)| {
            view! {
                <div class="vstage-viewer" role="dialog" aria-modal="true" aria-label=label on:keydown=on_key>
                    <div class="vstage-viewer__bar">
                        <span class="vstage-viewer__title">{label}</span>
                        <span aria-live="polite">{move || format::percent(locale.get(), zoom.get())}</span>
                        <button class="vstage-button vstage-button--small" on:click=move |_| zoom.update(|z| *z = zoom_step(*z, false))>
                            {move || td_string!(locale.get(), studio.viewer_zoom_out)}
                        </button>
                        <button class="vstage-button vstage-button--small" on:click=move |_| zoom.update(|z| *z = zoom_step(*z, true))>
                            {move || td_string!(locale.get(), studio.viewer_zoom_in)}
                        </button>
                        <button class="vstage-button vstage-button--small" on:click=move |_| zoom.set(1.0)>
                            {move || td_string!(locale.get(), studio.viewer_fit)}
                        </button>
                        <a class="vstage-button vstage-button--small" href=src.clone() download="" target="_blank" rel="noopener">
                            {move || td_string!(locale.get(), studio.download)}
                        </a>
                        <button class="vstage-button vstage-button--small" node_ref=close_button on:click=move |_| open.set(None)>
                            {move || td_string!(locale.get(), studio.close)}
                        </button>
                    </div>
                    <div class="vstage-viewer__stage" on:wheel=on_wheel>
                        <img
                            src=src
                            alt=label
                            style:width=move || format!("{:.0}%", zoom.get() * 100.0)
                            style:max-width=max_width
                        />
                    </div>
                </div>
            }
        })
    }
}
