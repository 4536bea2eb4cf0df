//! The standalone page's language chooser: each language named in its own words. The choice is the element's
//! `lang`, kept in this browser's local storage (never a cookie) for the next visit.

use leptos::prelude::*;
use leptos_i18n::Locale as _;

use crate::i18n::*;
use crate::locale::{native_name, supported, use_locale};

/// Where the standalone page keeps the chosen language.
const KEY: &str = "vstage-locale";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

#[component]
pub fn LocaleChooser(
    /// The element's `lang`, which the choice sets.
    lang: RwSignal<Option<String>>,
) -> impl IntoView {
    let locale = use_locale();
    if lang.get_untracked().is_none()
        && let Some(kept) = storage().and_then(|storage| storage.get_item(KEY).ok().flatten())
        && supported(&kept).is_some()
    {
        lang.set(Some(kept));
    }
    let choose = move |event: leptos::ev::Event| {
        let chosen = event_target_value(&event);
        if let Some(storage) = storage() {
            let _ = storage.set_item(KEY, &chosen);
        }
        lang.set(Some(chosen));
    };
    view! {
        <label class="vstage-locale">
            <span>{move || td_string!(locale.get(), common.language)}</span>
            <select on:change=choose prop:value=move || locale.get().as_str()>
                {Locale::get_all()
                    .iter()
                    .map(|option| {
                        view! {
                            <option value=option.as_str() lang=option.as_str()>
                                {native_name(*option)}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}
