//! What the mask editor's footer says, as plain functions: the share of the photo marked, with the locale's decimal
//! mark, and what is under way. Tested in the browser.

use leptos_i18n::td_string;

use crate::locale::Locale;

/// What the footer is doing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Busy {
    Detecting,
    /// The share sent, once the upload reports one.
    Uploading(Option<f64>),
}

impl Busy {
    pub fn sentence(self, locale: Locale) -> String {
        match self {
            Busy::Detecting => td_string!(locale, mask.footer_detecting).to_string(),
            Busy::Uploading(None) => td_string!(locale, mask.footer_uploading).to_string(),
            Busy::Uploading(Some(share)) => {
                td_string!(locale, mask.footer_uploading_share, percent = format!("{:.0}", share * 100.0))
            }
        }
    }
}

/// `value` with `digits` decimals and the locale's decimal mark (a comma in German, Spanish and French).
fn decimal(locale: Locale, value: f64, digits: usize) -> String {
    let figure = format!("{value:.digits$}");
    match locale {
        Locale::en => figure,
        _ => figure.replace('.', ","),
    }
}

/// How much of the photo is marked for removal, from its percentage.
pub fn coverage(locale: Locale, share: f64) -> String {
    td_string!(locale, mask.footer_coverage, share = decimal(locale, share, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn figures_take_the_locale_s_decimal_mark() {
        assert_eq!(decimal(Locale::en, 12.345, 1), "12.3");
        assert_eq!(decimal(Locale::de, 12.345, 1), "12,3");
        assert_eq!(Busy::Uploading(Some(0.426)).sentence(Locale::en), "Uploading the mask… 43 %");
        assert_eq!(Busy::Detecting.sentence(Locale::en), "Detecting furniture…");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_coverage_is_a_share_of_the_photo() {
        assert_eq!(coverage(Locale::en, 12.345), "12.3 % of the photo marked for removal");
        assert_eq!(coverage(Locale::de, 0.0), "0,0 % des Fotos zum Entfernen markiert");
    }
}
