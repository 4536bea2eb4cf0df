//! A toolbar button that asks the editor for an `Action` (undo, a whole-mask edit, zoom), its words and title in the
//! studio's language. A button with a sign (undo's ↶) shows it before its words; where the editor is as narrow as a
//! phone the words are kept for assistive technology only, and the sign alone is seen.

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
    /// A sign shown before the words, the same in every language.
    #[prop(optional)]
    sign: Option<&'static str>,
    #[prop(into)] on_action: Callback<Action>,
) -> impl IntoView {
    let locale = use_locale();
    let words = move || label(locale.get());
    view! {
        <button type="button" class="vstage-button vstage-button--secondary" class:vstage-mask-signed=sign.is_some()
            title=move || title(locale.get()) disabled=move || disabled.get() on:click=move |_| on_action.run(action)>
            {sign.map(|sign| view! { <span class="vstage-mask-sign" aria-hidden="true">{sign}</span> })}
            {match sign {
                Some(_) => view! { <span class="vstage-mask-signed__words">{words}</span> }.into_any(),
                None => words.into_any(),
            }}
        </button>
    }
}
