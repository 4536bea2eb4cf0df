//! A toolbar button that asks the editor for an `Action` (undo, a whole-mask edit, zoom), its words and title in the
//! studio's language.

use leptos::prelude::*;

use crate::locale::{Locale, use_locale};
use crate::mask_editor::editing::Action;

#[component]
pub fn ActionButton(
    action: Action,
    label: fn(Locale) -> &'static str,
    title: fn(Locale) -> &'static str,
    /// While true, the button cannot be pressed (nothing to undo or redo).
    #[prop(optional, into)]
    disabled: Signal<bool>,
    #[prop(into)] on_action: Callback<Action>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <button type="button" class="vstage-button vstage-button--secondary" title=move || title(locale.get())
            disabled=move || disabled.get() on:click=move |_| on_action.run(action)>
            {move || label(locale.get())}
        </button>
    }
}
