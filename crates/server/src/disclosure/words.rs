//! The disclosure's words in the studio's four languages: the statements, what was changed, the description and
//! remarks sentences, the photo's label and the public page's text, read from `locales/{lang}/disclosure.json`
//! beside the widget's own words (one place for every translation; the widget's build checks that each language
//! has every key and the same `{{ arguments }}`, and does not compile this file in). The language is the
//! listing's, not the reader's browser's: a listing page says one thing in one language.

use std::sync::LazyLock;

use serde::Deserialize;

/// Every sentence of a disclosure in one language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// The folder of `locales/` the words come from.
    #[serde(skip)]
    pub lang: &'static str,
    /// The language's own name, for the page's language links.
    pub name: &'static str,
    /// Short statements, also the label drawn into a photo.
    pub virtually_staged: &'static str,
    pub digitally_altered: &'static str,
    pub digitally_enhanced: &'static str,
    /// What was changed, one line each; `{{ style }}` is the staging style.
    pub furniture_added: &'static str,
    pub furniture_removed: &'static str,
    pub sky_to_dusk: &'static str,
    pub enhanced: &'static str,
    /// The statement's first half under a law asking that it say the image was altered (AB 723): the short
    /// statement made a sentence that says so.
    pub staged_altered: &'static str,
    pub image_altered: &'static str,
    pub image_enhanced: &'static str,
    /// Its second half, as §10140.8(a)(1) asks: "language indicating that the unaltered images can be accessed on
    /// the linked internet website, URL, or QR code"; with a QR code, or a link alone.
    pub unaltered_at_link_or_qr: &'static str,
    pub unaltered_at_link: &'static str,
    /// The words of a link to the originals page.
    pub unaltered_original: &'static str,
    pub original_before: &'static str,
    /// The public remarks' first sentence (Stellar MLS's own words in English).
    pub remarks_staged: &'static str,
    pub remarks_altered: &'static str,
    // The public page.
    pub page_title: &'static str,
    pub heading_altered: &'static str,
    pub heading_enhanced: &'static str,
    pub altered_photo: &'static str,
    pub original_photo: &'static str,
    pub original_explained: &'static str,
    pub what_changed: &'static str,
    pub chosen_on: &'static str,
    pub open_full_size: &'static str,
    pub other_languages: &'static str,
    /// The page's reading of the altered photo's content credentials (C2PA): `{{ signer }}` is who signed them,
    /// `{{ agent }}` what made the photo.
    pub credentials: &'static str,
    pub credentials_trusted: &'static str,
    pub credentials_unknown_signer: &'static str,
    pub credentials_broken: &'static str,
    pub credentials_absent: &'static str,
    /// Said by a server built without content credentials (`credentials::IN_THIS_BUILD`).
    pub credentials_not_in_this_build: &'static str,
    pub credentials_name_this_original: &'static str,
    pub credentials_name_another_original: &'static str,
}

/// Each language's words as the build found them, the first the one for any other language.
const SOURCES: [(&str, &str); 4] = [
    ("en", include_str!("../../../../locales/en/disclosure.json")),
    ("de", include_str!("../../../../locales/de/disclosure.json")),
    ("es", include_str!("../../../../locales/es/disclosure.json")),
    ("fr", include_str!("../../../../locales/fr/disclosure.json")),
];

/// The words of every language, read at their first use (a test reads them all).
static LANGUAGES: LazyLock<Vec<Words>> =
    LazyLock::new(|| SOURCES.iter().map(|&(lang, json)| read(lang, json)).collect());

/// The words in `json`, compiled in: read whole, or the build is wrong (`every_language_is_read_whole`).
fn read(lang: &'static str, json: &'static str) -> Words {
    match serde_json::from_str::<Words>(json) {
        Ok(words) => Words { lang, ..words },
        Err(error) => panic!("locales/{lang}/disclosure.json is not the disclosure's words: {error}"),
    }
}

/// Every language's words.
pub fn languages() -> &'static [Words] {
    &LANGUAGES
}

/// The words of `lang` (`de`, `de-AT`, `FR`); English for any other.
pub fn words(lang: &str) -> &'static Words {
    let primary = lang.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
    languages().iter().find(|words| words.lang == primary).unwrap_or(&languages()[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_is_read_whole() {
        let langs: Vec<&str> = languages().iter().map(|words| words.lang).collect();
        assert_eq!(langs, ["en", "de", "es", "fr"]);
        assert!(languages().iter().all(|words| !words.name.is_empty() && !words.credentials_absent.is_empty()));
    }

    #[test]
    fn a_language_is_found_by_its_primary_tag() {
        assert_eq!(words("de-AT").lang, "de");
        assert_eq!(words("FR").lang, "fr");
        assert_eq!(words("pt-BR").lang, "en");
        assert_eq!(words("").lang, "en");
    }

    #[test]
    fn every_language_names_the_style_once() {
        for words in languages() {
            assert_eq!(words.furniture_added.matches("{{ style }}").count(), 1, "{}", words.lang);
        }
    }
}
