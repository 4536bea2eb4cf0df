//! What a variation card works out as plain functions of its variation: the badge's class, the card's name for
//! screen readers, when it expects to be done while it works, and why it failed. Tested in the browser.

use leptos_i18n::td_string;
use vstage_api::{Variation, VariationStatus, VariationType};

use crate::describe;
use crate::locale::Locale;

/// The status badge's classes, e.g. `vstage-badge vstage-badge--done`; a status vstage does not know is `--other`.
pub fn badge_class(status: &VariationStatus) -> String {
    let known = if status.is_known() { status.as_str() } else { "other" };
    format!("vstage-badge vstage-badge--{known}")
}

/// "Living room · Modern 2: Virtual staging": the card as screen readers name it (its title alone when that
/// already says what was done, "Empty room 1").
pub fn label(locale: Locale, title: &str, kind: Option<&VariationType>) -> String {
    let kind = describe::variation_type(locale, kind);
    match title.starts_with(&kind) {
        true => title.to_string(),
        false => td_string!(locale, studio.variation_label, title = title, kind = kind).to_string(),
    }
}

/// When a variation still at work expects to be done (epoch ms); none once it is final.
pub fn pending_eta(variation: &Variation) -> Option<i64> {
    variation.eta.as_ref().map(|eta| eta.millis()).filter(|_| !variation.status.is_final())
}

/// Why a variation failed: the service's words, else a sentence of ours.
pub fn failure_words(locale: Locale, message: Option<&str>) -> String {
    message.map_or_else(|| td_string!(locale, studio.variation_failed).to_string(), str::to_string)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn variation(status: &str) -> Variation {
        serde_json::from_value(json!({
            "id": "v1", "render_id": "r1", "type": "staging", "created_at": 1, "status": status, "eta": 5000,
        }))
        .unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_card_counts_down_only_while_its_variation_works() {
        assert_eq!(pending_eta(&variation("processing")), Some(5000));
        assert_eq!(pending_eta(&variation("done")), None);
        assert_eq!(badge_class(&variation("error").status), "vstage-badge vstage-badge--error");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_card_is_named_by_title_and_kind_and_a_failure_says_why() {
        assert_eq!(label(Locale::en, "Variation 2", Some(&VariationType::Staging)), "Variation 2: Virtual staging");
        assert_eq!(label(Locale::en, "Empty room 1", Some(&VariationType::Removal)), "Empty room 1");
        assert_eq!(failure_words(Locale::en, Some("Too dark.")), "Too dark.");
        assert_eq!(
            failure_words(Locale::en, None),
            "The service could not process this variation. Try adding a new one."
        );
    }
}
