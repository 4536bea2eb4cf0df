//! What the remove-furniture page works out as plain functions: where the page is, the share of the photo the
//! analysis marked in words, the style that tints what it marked, and the render that removes what the mask marks (staging the room too, if asked).
//! Tested in the browser.

use leptos_i18n::td_string;
use vstage_api::{Analysis, CreateRender, RemovalMode, RoomType, Style};

use crate::config_draft::render_request;
use crate::config_draft::{ConfigDraft, Kind};
use crate::locale::Locale;

/// Where the page is.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Choosing the photo.
    Photo,
    /// The analysis is shown over the photo.
    Analysed(Analysis),
    /// The editor is open, from the analysis or from an empty mask.
    Editing { start_from: Option<String> },
    /// The mask is uploaded: ready to remove.
    Masked { mask_url: String },
}

/// "Furniture covers 12.5 % of the photo.", or that the service did not say.
pub fn share_words(locale: Locale, percentage_masked: Option<f64>) -> String {
    match percentage_masked {
        Some(share) => td_string!(locale, studio.mask_share, share = one_decimal(locale, share)),
        None => td_string!(locale, studio.mask_share_unknown).to_string(),
    }
}

/// A share with one decimal, as the studio's language writes it: `12.5` in English, `12,5` in German, Spanish and
/// French (the English text stays as it was).
fn one_decimal(locale: Locale, share: f64) -> String {
    let text = format!("{share:.1}");
    match locale {
        Locale::en => text,
        _ => text.replace('.', ","),
    }
}

/// The render of `image_url` that removes exactly what the mask at `mask_url` marks: a declutter, or, with a room
/// type and style, a staging that removes the furniture first.
pub fn removal_request(image_url: &str, mask_url: String, staging: Option<(RoomType, Style)>) -> CreateRender {
    let draft = match staging {
        Some((room_type, style)) => ConfigDraft {
            kind: Kind::Staging,
            removal: RemovalMode::On,
            room_type,
            style,
            mask_url: Some(mask_url),
            ..ConfigDraft::default()
        },
        None => ConfigDraft { kind: Kind::Declutter, mask_url: Some(mask_url), ..ConfigDraft::default() },
    };
    render_request(image_url, &[draft], "", false)
}

/// The tint's style: a colour shown where the analysis's mask is white (its luminance as a CSS mask). The address
/// goes in a quoted `url()`, so a quote or backslash in it is percent-encoded.
pub fn tint_style(mask_url: &str) -> String {
    let url = mask_url.replace('\\', "%5C").replace('"', "%22");
    format!("mask-image: url(\"{url}\")")
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_tint_is_masked_by_the_analysis_address_quoted_safely() {
        assert_eq!(tint_style("https://s.example/a.png"), "mask-image: url(\"https://s.example/a.png\")");
        assert!(!tint_style("https://s.example/a\"b\\c.png").contains("a\"b"), "a quote cannot end the url()");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_share_is_written_as_each_language_writes_it() {
        assert_eq!(share_words(Locale::en, Some(12.46)), "Furniture covers 12.5 % of the photo.");
        assert_eq!(share_words(Locale::de, Some(12.46)), "Möbel bedecken 12,5 % des Fotos.");
        assert_eq!(share_words(Locale::fr, Some(3.0)), "Les meubles couvrent 3,0\u{a0}% de la photo.");
        assert_eq!(share_words(Locale::en, None), "The service did not say how much of the photo is furniture.");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_mask_is_what_the_render_removes() {
        let mask = "https://m.example/mask.png";
        let declutter = serde_json::to_value(removal_request("https://p.example/a.jpg", mask.into(), None)).unwrap();
        assert_eq!(declutter["image_url"], "https://p.example/a.jpg");
        assert_eq!(declutter["variation_count"], 1);
        assert_eq!(declutter["config"]["remove_furniture"]["mask_url"], mask);
        assert!(declutter["config"].get("add_furniture").is_none(), "nothing staged unless asked");

        let staged = removal_request("https://p.example/a.jpg", mask.into(), Some((RoomType::Bed, Style::Coastal)));
        let staged = serde_json::to_value(staged).unwrap();
        assert_eq!(staged["config"]["type"], "staging");
        assert_eq!(staged["config"]["remove_furniture"]["mode"], "on");
        assert_eq!(staged["config"]["remove_furniture"]["mask_url"], mask);
        assert_eq!(staged["config"]["add_furniture"]["room_type"], "bed");
        assert_eq!(staged["config"]["add_furniture"]["style"], "coastal");
    }
}
