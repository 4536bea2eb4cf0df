//! The mask editor's controls: brush or eraser, brush size, the overlay's colour and opacity, undo and redo,
//! whole-mask edits and zoom. It holds no state of its own: it reads and sets the editor's `BrushSettings` and reports actions.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_mask::Tool;

use super::editing::Action;
use super::settings::BrushSettings;
use crate::locale::{Locale, use_locale};

#[component]
pub fn MaskToolbar(
    settings: BrushSettings,
    #[prop(into)] can_undo: Signal<bool>,
    #[prop(into)] can_redo: Signal<bool>,
    /// The view's scale (1.0: one photo pixel per CSS pixel).
    #[prop(into)]
    zoom: Signal<f64>,
    #[prop(into)] on_action: Callback<Action>,
) -> impl IntoView {
    let locale = use_locale();
    let BrushSettings { tool, size, max_size, colour, opacity, .. } = settings;
    let tool_button = move |which: Tool, label: fn(Locale) -> &'static str, key: &'static str| {
        view! {
            <button
                type="button"
                class="vstage-tool"
                class:vstage-tool--chosen=move || tool.get() == which
                aria-pressed=move || (tool.get() == which).to_string()
                title=move || format!("{} ({key})", label(locale.get()))
                on:click=move |_| tool.set(which)
            >
                {move || label(locale.get())}
            </button>
        }
    };
    let action = move |which: Action, label: fn(Locale) -> &'static str, title: fn(Locale) -> &'static str| {
        view! {
            <button type="button" class="vstage-button vstage-button--secondary" title=move || title(locale.get())
                on:click=move |_| on_action.run(which)>
                {move || label(locale.get())}
            </button>
        }
    };
    view! {
        <div class="vstage-mask-toolbar" role="toolbar" aria-label=move || td_string!(locale.get(), mask.toolbar_label)>
            <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_tool)>
                {tool_button(Tool::Brush, |locale| td_string!(locale, mask.toolbar_brush), "B")}
                {tool_button(Tool::Eraser, |locale| td_string!(locale, mask.toolbar_eraser), "E")}
            </div>
            <label class="vstage-mask-toolbar__range" title=move || td_string!(locale.get(), mask.toolbar_size_title)>
                {move || td_string!(locale.get(), mask.toolbar_size)}
                " "
                <input
                    type="range"
                    min="2"
                    max=move || max_size.get().round().to_string()
                    step="1"
                    aria-label=move || td_string!(locale.get(), mask.toolbar_size_label)
                    prop:value=move || size.get().round().to_string()
                    on:input=move |ev| {
                        if let Ok(value) = event_target_value(&ev).parse::<f64>() {
                            size.set(value);
                        }
                    }
                />
                <output class="vstage-mask-size">{move || format!("{} px", size.get().round())}</output>
            </label>
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
                    prop:value=move || (opacity.get() * 100.0).round().to_string()
                    on:input=move |ev| {
                        if let Ok(value) = event_target_value(&ev).parse::<f64>() {
                            opacity.set(value / 100.0);
                        }
                    }
                />
            </label>
            <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_history)>
                <button type="button" class="vstage-button vstage-button--secondary"
                    title=move || td_string!(locale.get(), mask.toolbar_undo_title)
                    disabled=move || !can_undo.get() on:click=move |_| on_action.run(Action::Undo)>
                    {move || td_string!(locale.get(), mask.toolbar_undo)}
                </button>
                <button type="button" class="vstage-button vstage-button--secondary"
                    title=move || td_string!(locale.get(), mask.toolbar_redo_title)
                    disabled=move || !can_redo.get() on:click=move |_| on_action.run(Action::Redo)>
                    {move || td_string!(locale.get(), mask.toolbar_redo)}
                </button>
            </div>
            <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_whole)>
                {action(Action::Clear, |l| td_string!(l, mask.toolbar_clear), |l| td_string!(l, mask.toolbar_clear_title))}
                {action(Action::Invert, |l| td_string!(l, mask.toolbar_invert), |l| td_string!(l, mask.toolbar_invert_title))}
                {action(Action::Fill, |l| td_string!(l, mask.toolbar_fill), |l| td_string!(l, mask.toolbar_fill_title))}
            </div>
            // the zoom buttons' labels are signs, the same in every language
            <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_zoom)>
                {action(Action::ZoomOut, |_| "−", |l| td_string!(l, mask.toolbar_zoom_out_title))}
                <output class="vstage-mask-zoom" aria-label=move || td_string!(locale.get(), mask.toolbar_zoom)>
                    {move || format!("{:.0} %", zoom.get() * 100.0)}
                </output>
                {action(Action::ZoomIn, |_| "+", |l| td_string!(l, mask.toolbar_zoom_in_title))}
                {action(Action::Fit, |l| td_string!(l, mask.toolbar_fit), |l| td_string!(l, mask.toolbar_fit_title))}
            </div>
        </div>
    }
}
