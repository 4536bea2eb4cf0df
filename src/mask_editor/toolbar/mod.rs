//! The mask editor's controls: brush or eraser, undo and redo, brush size, and behind "More" (where the editor is as
//! narrow as a phone; beside the rest at a desk) the overlay's colour and opacity, whole-mask edits and zoom. On a
//! phone the first three fit two rows and the bar stays at the top of the view while the canvas is painted, so undo
//! is always in reach. It holds no state but whether "More" is open: it reads and sets the editor's
//! `BrushSettings` and reports actions. `model` works out what it shows, and each group is a component of its own.

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

/// The id of the tools behind "More".
const MORE_ID: &str = "vstage-mask-more";

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
    let more = RwSignal::new(false);
    view! {
        <div class="vstage-mask-toolbar" class:vstage-mask-toolbar--more=move || more.get() role="toolbar"
            aria-label=move || td_string!(locale.get(), mask.toolbar_label)>
            <ToolChoice tool />
            <div class="vstage-mask-toolbar__group vstage-mask-toolbar__history" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_history)>
                <ActionButton action=Action::Undo disabled=Signal::derive(move || !can_undo.get()) on_action sign="↶"
                    label=|l| td_string!(l, mask.toolbar_undo) title=|l| td_string!(l, mask.toolbar_undo_title) />
                <ActionButton action=Action::Redo disabled=Signal::derive(move || !can_redo.get()) on_action sign="↷"
                    label=|l| td_string!(l, mask.toolbar_redo) title=|l| td_string!(l, mask.toolbar_redo_title) />
            </div>
            <button type="button" class="vstage-button vstage-button--secondary vstage-mask-toolbar__toggle"
                aria-expanded=move || more.get().to_string() aria-controls=MORE_ID
                aria-label=move || td_string!(locale.get(), mask.toolbar_more_label)
                on:click=move |_| more.update(|open| *open = !*open)>
                {move || td_string!(locale.get(), mask.toolbar_more)}
            </button>
            <BrushSize size max_size />
            <div class="vstage-mask-toolbar__more" id=MORE_ID>
                <OverlayControls colour opacity />
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
        </div>
    }
}
