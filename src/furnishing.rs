//! Whether a photo is furnished, as the service's furniture analysis says (`POST /analyze`, which is not charged):
//! furnished when what it finds covers at least 2 % of the photo, the share at which the service's own `auto`
//! removal counts a room furnished (docs/api-notes.md). Staging a furnished room starts by removing its furniture
//! first, so that the studio never puts a sofa on a sofa unasked; the agent may still keep it.

use leptos_i18n::td_string;
use vstage_api::{Analysis, Analyze, ApiError, RemovalMode};

use crate::api::ApiClient;
use crate::locale::Locale;

/// The share of the photo (percent) the furniture found must cover for the room to count as furnished.
pub const FURNISHED_PERCENT: f64 = 2.0;

/// What the analysis says of a photo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Furnishing {
    /// Being asked.
    Checking,
    /// Furniture found, covering this share of the photo (percent).
    Furnished(f64),
    /// No furniture to speak of.
    Empty,
    /// The analysis could not say (the photo could not be read, or the service did not answer).
    Unknown,
}

impl Furnishing {
    /// Whether the analysis has answered (the answer may be that it cannot say).
    pub fn is_known(self) -> bool {
        self != Furnishing::Checking
    }

    /// The analysis's answer, read.
    pub fn of(answer: &Result<Analysis, ApiError>) -> Furnishing {
        match answer.as_ref().map(|analysis| analysis.percentage_masked) {
            Ok(Some(share)) if share >= FURNISHED_PERCENT => Furnishing::Furnished(share),
            Ok(Some(_)) => Furnishing::Empty,
            Ok(None) | Err(_) => Furnishing::Unknown,
        }
    }

    /// The removal staging starts with: first for a furnished room, none for an empty one, and where that is not
    /// known, the service's own check ("Remove furniture if there is any"); while it is asked, none yet.
    pub fn removal(self) -> RemovalMode {
        match self {
            Furnishing::Furnished(_) => RemovalMode::On,
            Furnishing::Empty | Furnishing::Checking => RemovalMode::Off,
            Furnishing::Unknown => RemovalMode::Auto,
        }
    }

    /// What staging will do with the room, in a sentence for beside the photo; `kept` when the agent chose to keep
    /// the furniture there is.
    pub fn words(self, locale: Locale, kept: bool) -> String {
        match self {
            Furnishing::Checking => td_string!(locale, forms.furnishing_checking).to_string(),
            Furnishing::Furnished(share) => {
                let percent = share.round().max(1.0) as u32;
                match kept {
                    false => td_string!(locale, forms.furnishing_found, percent = percent).to_string(),
                    true => td_string!(locale, forms.furnishing_found_kept, percent = percent).to_string(),
                }
            }
            Furnishing::Empty => td_string!(locale, forms.furnishing_empty).to_string(),
            Furnishing::Unknown => td_string!(locale, forms.furnishing_unknown).to_string(),
        }
    }
}

/// Asks the service whether the photo at `image_url` is furnished.
pub async fn check(api: &ApiClient, image_url: &str) -> Furnishing {
    let request = Analyze { image_url: image_url.trim().to_string(), webhook_url: None };
    Furnishing::of(&api.analyze(&request).await)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn analysed(share: f64) -> Result<Analysis, ApiError> {
        Ok(serde_json::from_value(json!({"id": "a", "created_at": 1, "result_url": "https://img.example/m.png",
            "percentage_masked": share, "status": "done"}))
        .unwrap())
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_furnished_room_removes_its_furniture_first_and_an_empty_one_is_staged_as_it_is() {
        let furnished = Furnishing::of(&analysed(12.4));
        assert_eq!((furnished, furnished.removal()), (Furnishing::Furnished(12.4), RemovalMode::On));
        assert_eq!(Furnishing::of(&analysed(2.0)), Furnishing::Furnished(2.0), "the service's own threshold");
        assert_eq!(Furnishing::of(&analysed(1.9)).removal(), RemovalMode::Off);
        let refused = Err(ApiError::Http { status: 400, message: None });
        assert_eq!(Furnishing::of(&refused).removal(), RemovalMode::Auto, "not known: the service checks");
        assert_eq!(Furnishing::Checking.removal(), RemovalMode::Off);
        assert_eq!(
            furnished.words(Locale::en, false),
            "Furniture found in this photo (12 % of it): staging removes it first. Choose “Keep the furniture” \
             to add to what is there."
        );
        assert_eq!(
            furnished.words(Locale::en, true),
            "Furniture found in this photo (12 % of it): “Keep the furniture” adds more to what is there."
        );
        for locale in [Locale::de, Locale::es, Locale::fr] {
            assert!(furnished.words(locale, false).contains("12"), "{locale:?}");
        }
    }
}
