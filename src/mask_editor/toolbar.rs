//! The mask editor's controls: brush or eraser, brush size, the overlay's colour and opacity, undo and redo,
//! whole-mask edits and zoom. It holds no state of its own: it reads and sets the editor's `BrushSettings` and reports actions.

use leptos::prelude::*;
use vstage_mask::Tool;

use super::settings::BrushSettings;

/// What a toolbar button asks the editor to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Undo,
    Redo,
    Clear,
    Invert,
    Fill,
    ZoomIn,
    ZoomOut,
    Fit,
}

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
    let BrushSettings { tool, size, max_size, colour, opacity, .. } = settings;
    let tool_button = move |which: Tool, label: &'static str, key: &'static str| {
        view! {
            <button
                type="button"
                class="vstage-tool"
                class:vstage-tool--chosen=move || tool.get() == which
                aria-pressed=move || (tool.get() == which).to_string()
                title=format!("{label} ({key})")
                on:click=move |_| tool.set(which)
            >
                {label}
            </button>
        }
    };
    let action = move |which: Action, label: &'static str, title: &'static str| {
        view! {
            <button type="button" class="vstage-button vstage-button--secondary" title=title on:click=move |_| on_action.run(which)>
                {label}
            </button>
        }
    };
    view! {
        <div class="vstage-mask-toolbar" role="toolbar" aria-label="Mask tools">
            <div class="vstage-mask-toolbar__group" role="group" aria-label="Tool">
                {tool_button(Tool::Brush, "Brush", "B")}
                {tool_button(Tool::Eraser, "Eraser", "E")}
            </div>
            <label class="vstage-mask-toolbar__range" title="Brush size ([ and ])">
                "Size "
                <input
                    type="range"
                    min="2"
                    max=move || max_size.get().round().to_string()
                    step="1"
                    aria-label="Brush size in photo pixels"
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
                "Overlay "
                <input
                    type="color"
                    aria-label="Overlay colour"
                    prop:value=move || colour.get()
                    on:input=move |ev| colour.set(event_target_value(&ev))
                />
                <input
                    type="range"
                    min="10"
                    max="100"
                    aria-label="Overlay opacity"
                    prop:value=move || (opacity.get() * 100.0).round().to_string()
                    on:input=move |ev| {
                        if let Ok(value) = event_target_value(&ev).parse::<f64>() {
                            opacity.set(value / 100.0);
                        }
                    }
                />
            </label>
            <div class="vstage-mask-toolbar__group" role="group" aria-label="History">
                <button type="button" class="vstage-button vstage-button--secondary" title="Undo (Ctrl+Z)"
                    disabled=move || !can_undo.get() on:click=move |_| on_action.run(Action::Undo)>"Undo"</button>
                <button type="button" class="vstage-button vstage-button--secondary" title="Redo (Shift+Ctrl+Z or Ctrl+Y)"
                    disabled=move || !can_redo.get() on:click=move |_| on_action.run(Action::Redo)>"Redo"</button>
            </div>
            <div class="vstage-mask-toolbar__group" role="group" aria-label="Whole mask">
                {action(Action::Clear, "Clear", "Select nothing")}
                {action(Action::Invert, "Invert", "Swap what is selected and what is not")}
                {action(Action::Fill, "Fill", "Select the whole photo")}
            </div>
            <div class="vstage-mask-toolbar__group" role="group" aria-label="Zoom">
                {action(Action::ZoomOut, "−", "Zoom out (-)")}
                <output class="vstage-mask-zoom" aria-label="Zoom">{move || format!("{:.0} %", zoom.get() * 100.0)}</output>
                {action(Action::ZoomIn, "+", "Zoom in (+)")}
                {action(Action::Fit, "Fit", "Show the whole photo (0)")}
            </div>
        </div>
    }
}
