//! Numbers, relative times and plural forms in the studio's locale, through the browser's `Intl` (so no locale
//! data is carried in the module), as the unit tests run them: in the browser.

use js_sys::{Array, Function, Intl, Object, Reflect};
use wasm_bindgen::JsValue;

use super::Locale;

fn locales(locale: Locale) -> Array {
    Array::of1(&JsValue::from_str(leptos_i18n::Locale::as_str(locale)))
}

fn options(pairs: &[(&str, JsValue)]) -> Object {
    let options = Object::new();
    for (name, value) in pairs {
        let _ = Reflect::set(&options, &JsValue::from_str(name), value);
    }
    options
}

/// Calls an `Intl` formatter's bound `format` on `value`.
fn call_format(format: Function, value: &JsValue) -> String {
    format.call1(&JsValue::UNDEFINED, value).ok().and_then(|text| text.as_string()).unwrap_or_default()
}

/// `1,234.5` / `1.234,5` / `1 234,5`.
pub fn number(locale: Locale, value: f64) -> String {
    let format = Intl::NumberFormat::new(&locales(locale), &options(&[("maximumFractionDigits", 1.into())]));
    call_format(format.format(), &value.into())
}

/// `fraction` as a whole percentage (`1.5` is "150 %" in French, "150%" in English).
pub fn percent(locale: Locale, fraction: f64) -> String {
    let options = options(&[("style", "percent".into()), ("maximumFractionDigits", 0.into())]);
    call_format(Intl::NumberFormat::new(&locales(locale), &options).format(), &fraction.into())
}

/// `value` `unit`s from now, in words: `-3, "minute"` is "3 minutes ago", `0, "second"` is "now".
pub fn relative(locale: Locale, value: i64, unit: &str) -> String {
    let format = Intl::RelativeTimeFormat::new(&locales(locale), &options(&[("numeric", "auto".into())]));
    format.format(value as f64, unit).into()
}

/// A day of the year in UTC, as `millis` (epoch milliseconds) falls: "1 December", "1. Dezember", "December 1".
pub fn day(locale: Locale, millis: i64) -> String {
    let options = options(&[("day", "numeric".into()), ("month", "long".into()), ("timeZone", "UTC".into())]);
    call_format(
        Intl::DateTimeFormat::new(&locales(locale), &options).format(),
        &js_sys::Date::new(&(millis as f64).into()),
    )
}

/// Whether `count` takes a key's singular form in `locale` (plural category `one`).
pub fn is_singular(locale: Locale, count: f64) -> bool {
    Intl::PluralRules::new(&locales(locale), &Object::new()).select(count).as_string().as_deref() == Some("one")
}
