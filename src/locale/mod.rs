//! The studio's language: chosen from the element's `lang`, else the page's `<html lang>`, else the browser's
//! languages, and given to every screen as a signal. No cookie is set and the host's `<html lang>` is untouched.
//!
//! The words are in `locales/{locale}/{namespace}.json`, turned into the `i18n` module by `build.rs` (a key or an
//! argument that does not exist is a compile error); screens use `td!`/`td_string!` with `use_locale()`.
//! Numbers, dates, relative times and sizes go through the browser's `Intl` (`format`).

pub mod errors;
pub mod format;

use leptos::prelude::*;

pub use crate::i18n::Locale;

/// The studio's locale, provided by the studio to everything in it.
#[derive(Clone, Copy)]
struct StudioLocale(Signal<Locale>);

/// Provides the locale that `lang` (the element's attribute) asks for, falling back on the page's and the
/// browser's languages.
pub fn provide_locale(lang: Signal<Option<String>>) -> Signal<Locale> {
    let locale = Memo::new(move |_| resolve(lang.get().as_deref(), page_language().as_deref(), &browser_languages()));
    let locale = Signal::from(locale);
    provide_context(StudioLocale(locale));
    locale
}

/// The studio's locale; outside a studio (a component mounted alone, as the widget's tests do), the page's or the
/// browser's language.
pub fn use_locale() -> Signal<Locale> {
    use_context::<StudioLocale>()
        .map(|studio| studio.0)
        .unwrap_or_else(|| Signal::stored(resolve(None, page_language().as_deref(), &browser_languages())))
}

/// The first of the element's language, the page's and the browser's (most preferred first) that the studio
/// speaks; English when none is.
pub fn resolve(element: Option<&str>, page: Option<&str>, browser: &[String]) -> Locale {
    element
        .and_then(supported)
        .or_else(|| page.and_then(supported))
        .or_else(|| browser.iter().find_map(|language| supported(language)))
        .unwrap_or_default()
}

/// The locale a BCP 47 tag (`de`, `de-AT`, `fr_CA`, `ES`) falls under, if the studio speaks it.
pub fn supported(tag: &str) -> Option<Locale> {
    let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
    primary.parse().ok()
}

/// The locale of an element outside the reactive studio (its `lang`, the page's, the browser's).
pub fn language_of(element: &web_sys::Element) -> Locale {
    resolve(element.get_attribute("lang").as_deref(), page_language().as_deref(), &browser_languages())
}

/// Each locale in its own words, for the language chooser.
pub fn native_name(locale: Locale) -> &'static str {
    match locale {
        Locale::en => "English",
        Locale::de => "Deutsch",
        Locale::es => "Español",
        Locale::fr => "Français",
    }
}

/// `<html lang>` of the page the studio is on.
fn page_language() -> Option<String> {
    let lang = web_sys::window()?.document()?.document_element()?.get_attribute("lang")?;
    (!lang.trim().is_empty()).then_some(lang)
}

/// `navigator.languages`, most preferred first.
fn browser_languages() -> Vec<String> {
    web_sys::window()
        .map(|window| window.navigator().languages().iter().filter_map(|language| language.as_string()).collect())
        .unwrap_or_default()
}

/// `_singular` or `_plural` of a key's two forms, by the locale's plural rules for `count` (French says "1,5 photo",
/// "0 photo"): `plural!(locale, n, board.photos_singular, board.photos_plural, count = n)`.
#[macro_export]
macro_rules! plural {
    ($locale:expr, $count:expr, $one_ns:ident . $one:ident, $other_ns:ident . $other:ident $(, $name:ident = $value:expr)* $(,)?) => {{
        let locale = $locale;
        if $crate::locale::format::is_singular(locale, $count as f64) {
            leptos_i18n::td_string!(locale, $one_ns.$one $(, $name = $value)*).to_string()
        } else {
            leptos_i18n::td_string!(locale, $other_ns.$other $(, $name = $value)*).to_string()
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_element_comes_first_then_the_page_then_the_browser() {
        let browser = ["fr-CA".to_string(), "en".to_string()];
        assert_eq!(resolve(Some("de"), Some("es"), &browser), Locale::de);
        assert_eq!(resolve(None, Some("es-MX"), &browser), Locale::es);
        assert_eq!(resolve(None, None, &browser), Locale::fr);
        // a language the studio does not speak passes the turn on
        assert_eq!(resolve(Some("pt-BR"), Some("it"), &browser), Locale::fr);
        assert_eq!(resolve(Some(""), None, &["ja".to_string()]), Locale::en);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn tags_are_read_by_their_primary_language() {
        assert_eq!(supported("DE-at"), Some(Locale::de));
        assert_eq!(supported(" fr_CA "), Some(Locale::fr));
        assert_eq!(supported("english"), None);
        assert_eq!(supported(""), None);
    }
}
