//! The toolbar's zoom: out, the scale as a percentage, in, and fit; the zoom buttons' labels are signs, the same
//! in every language.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::action_button::ActionButton;
use super::model::zoom_readout;
use crate::locale::use_locale;
use crate::mask_editor::editing::Action;

#[component]
pub fn ZoomControls(
    /// The view's scale (1.0: one photo pixel per CSS pixel).
    zoom: Signal<f64>,
    on_action: Callback<Action>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_zoom)>
            <ActionButton action=Action::ZoomOut on_action
                label=|_| "−" title=|l| td_string!(l, mask.toolbar_zoom_out_title) />
            <output class="vstage-mask-zoom" aria-label=move || td_string!(locale.get(), mask.toolbar_zoom)>
                {move || zoom_readout(zoom.get())}
            </output>
            <ActionButton action=Action::ZoomIn on_action
                label=|_| "+" title=|l| td_string!(l, mask.toolbar_zoom_in_title) />
            <ActionButton action=Action::Fit on_action
                label=|l| td_string!(l, mask.toolbar_fit) title=|l| td_string!(l, mask.toolbar_fit_title) />
        </div>
    }
}
