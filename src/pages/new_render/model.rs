//! What the new render form works out as plain functions: a custom mask taken into its configuration, the sentence when the mask comes before the photo, and the submit button's words. Tested in the
//! browser.

use leptos_i18n::td_string;
use vstage_api::validate::Problem;
use vstage_api::{RemovalMode, Rule, ValidationError};

use crate::config_draft::{ConfigDraft, Kind};
use crate::locale::Locale;

/// The other views' addresses, a line each, without blank lines.
pub fn other_views(lines: &str) -> Vec<String> {
    lines.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_string).collect()
}

/// Gives draft `id` the custom mask uploaded to `mask_url`; a staging draft then always removes the furniture,
/// since that is when a custom mask is used.
pub fn give_mask(drafts: &mut [(u32, ConfigDraft)], id: u32, mask_url: &str) {
    if let Some((_, draft)) = drafts.iter_mut().find(|(i, _)| *i == id) {
        draft.mask_url = Some(mask_url.to_string());
        if draft.kind == Kind::Staging {
            draft.removal = RemovalMode::On;
        }
    }
}

/// The photo's error when a mask is asked for before there is a photo to draw it over.
pub fn photo_first(locale: Locale) -> ValidationError {
    let sentence = td_string!(locale, studio.new_photo_first).to_string();
    ValidationError::new("image_url", Rule::Required, Problem::Other(sentence))
}

/// The refusal of a photo the form cannot show: the service would not fetch it either, and it would be charged.
pub fn photo_unloadable(locale: Locale) -> ValidationError {
    let sentence = td_string!(locale, forms.picker_broken).to_string();
    ValidationError::new("image_url", Rule::Pattern, Problem::Other(sentence))
}

/// The submit button's words: "Create render", or what is under way (waiting for the result or only sending).
pub fn submit_words(locale: Locale, sending: bool, wait: bool) -> &'static str {
    match (sending, wait) {
        (true, true) => td_string!(locale, studio.new_rendering),
        (true, false) => td_string!(locale, studio.new_sending),
        (false, _) => td_string!(locale, studio.new_create),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn a_custom_mask_makes_staging_remove_the_furniture() {
        let mut drafts = vec![(0, ConfigDraft::default()), (1, ConfigDraft::default())];
        give_mask(&mut drafts, 1, "https://img.example/mask.png");
        assert_eq!(drafts[1].1.mask_url.as_deref(), Some("https://img.example/mask.png"));
        assert_eq!(drafts[1].1.removal, RemovalMode::On);
        assert_eq!(drafts[0].1, ConfigDraft::default(), "only the draft that asked");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_photo_comes_before_its_mask_and_the_button_says_what_is_under_way() {
        let error = photo_first(Locale::en);
        assert_eq!(error.field, "image_url");
        assert_eq!(error.problem, Problem::Other("Choose the photo first: the mask is drawn over it.".into()));
        assert_eq!(submit_words(Locale::en, false, true), "Create render");
        assert_eq!(submit_words(Locale::en, true, false), "Sending…");
        assert_eq!(submit_words(Locale::en, true, true), "Rendering…");
    }
}
