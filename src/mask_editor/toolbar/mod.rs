//! The mask editor's controls: brush or eraser, brush size, the overlay's colour and opacity, undo and redo,
//! whole-mask edits and zoom. It holds no state of its own: it reads and sets the editor's `BrushSettings` and reports
//! actions. `model` works out what it shows, and each group is a component of its own.

mod action_button;
mod brush_size;
mod model;
mod overlay;
mod tool_choice;
mod zoom;

use leptos::prelude::*;
use leptos_i18n::td_string;

use self::action_button::ActionButton;
use self::brush_size::BrushSize;
use self::overlay::OverlayControls;
use self::tool_choice::ToolChoice;
use self::zoom::ZoomControls;
use super::editing::Action;
use super::settings::BrushSettings;
use crate::locale::use_locale;

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
    view! {
        <div class="vstage-mask-toolbar" role="toolbar" aria-label=move || td_string!(locale.get(), mask.toolbar_label)>
            <ToolChoice tool />
            <BrushSize size max_size />
            <OverlayControls colour opacity />
            <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_history)>
                <ActionButton action=Action::Undo disabled=Signal::derive(move || !can_undo.get()) on_action
                    label=|l| td_string!(l, mask.toolbar_undo) title=|l| td_string!(l, mask.toolbar_undo_title) />
                <ActionButton action=Action::Redo disabled=Signal::derive(move || !can_redo.get()) on_action
                    label=|l| td_string!(l, mask.toolbar_redo) title=|l| td_string!(l, mask.toolbar_redo_title) />
            </div>
            <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_whole)>
                <ActionButton action=Action::Clear on_action
                    label=|l| td_string!(l, mask.toolbar_clear) title=|l| td_string!(l, mask.toolbar_clear_title) />
                <ActionButton action=Action::Invert on_action
                    label=|l| td_string!(l, mask.toolbar_invert) title=|l| td_string!(l, mask.toolbar_invert_title) />
                <ActionButton action=Action::Fill on_action
                    label=|l| td_string!(l, mask.toolbar_fill) title=|l| td_string!(l, mask.toolbar_fill_title) />
            </div>
            <ZoomControls zoom on_action />
        </div>
    }
}
