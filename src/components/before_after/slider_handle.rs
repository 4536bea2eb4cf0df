//! The before/after slider's handle: where the split is, a slider to screen readers, moved with the keyboard
//! (arrows by 5 %, Shift+arrows by 1 %, Page Up and Page Down by 25 %, Home and End).

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::{handle_left, key_step, whole_percent};
use crate::locale::use_locale;

#[component]
pub fn SliderHandle(
    /// The split, from 0 (all after) to 100 (all before).
    position: RwSignal<f64>,
    #[prop(into)] before_label: Signal<String>,
    #[prop(into)] after_label: Signal<String>,
) -> impl IntoView {
    let locale = use_locale();
    let on_key = move |event: KeyboardEvent| {
        if let Some(next) = key_step(position.get_untracked(), &event.key(), event.shift_key()) {
            event.prevent_default();
            position.set(next);
        }
    };
    view! {
        <div
            class="vstage-compare__handle"
            style:left=move || handle_left(position.get())
            role="slider"
            tabindex="0"
            aria-label=move || td_string!(locale.get(), studio.compare_slider, before = before_label.get(), after = after_label.get())
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=move || whole_percent(position.get())
            aria-valuetext=move || {
                let percent = whole_percent(position.get());
                td_string!(locale.get(), studio.compare_shown, percent = percent, before = before_label.get())
            }
            on:keydown=on_key
        ></div>
    }
}
