//! A call's failure as a sentence in the studio's language. What the service wrote itself (`{"message"}`) is
//! shown as written, introduced in the studio's language when that is not English. A request that breaks the
//! contract's bounds (`vstage_api::validate`) is explained from its `Problem`.

use leptos_i18n::td_string;
use vstage_api::ApiError;
use vstage_api::validate::{Problem, ValidationError};

use super::Locale;

/// The sentence to show for a call's failure, saying what to do. A request refused before it was sent keeps
/// vstage-api's English here: the reads that use this (lists, the account) are never refused, and forms word
/// their failures with `form_error`, so the validation sentences travel in the forms' chunks, not the first load.
pub fn api_error(locale: Locale, error: &ApiError) -> String {
    match error {
        ApiError::Invalid(invalid) => invalid.message.clone(),
        ApiError::Network { detail } => td_string!(locale, common.error_network, detail = detail),
        ApiError::Timeout { seconds } => td_string!(locale, common.error_timeout, seconds = seconds),
        // The agent cannot change it; the developer reads the setting in the console and `vstage-error`.
        ApiError::OriginRefused { .. } => td_string!(locale, common.error_origin).to_string(),
        ApiError::Decode { detail } => td_string!(locale, common.error_decode, detail = detail),
        ApiError::Http { message: Some(message), .. } if !message.trim().is_empty() => {
            td_string!(locale, common.error_service_said, message = message)
        }
        ApiError::Http { status, .. } => match status {
            400 => td_string!(locale, common.error_400).to_string(),
            401 => td_string!(locale, common.error_401).to_string(),
            403 => td_string!(locale, common.error_403).to_string(),
            404 => td_string!(locale, common.error_404).to_string(),
            409 => td_string!(locale, common.error_409).to_string(),
            429 => td_string!(locale, common.error_429).to_string(),
            502..=504 => td_string!(locale, common.error_unreachable).to_string(),
            _ => td_string!(locale, common.error_status, status = status),
        },
    }
}

/// The sentence for a form's submission, which may be refused before it is sent (see `invalid`).
pub fn form_error(locale: Locale, error: &ApiError) -> String {
    match error {
        ApiError::Invalid(refused) => invalid(locale, refused),
        other => api_error(locale, other),
    }
}

/// The sentence for a request that breaks the contract's bounds, saying what to do; in English it is `error.message`.
pub fn invalid(locale: Locale, error: &ValidationError) -> String {
    match &error.problem {
        Problem::NoConfiguration => td_string!(locale, validation.no_configuration).to_string(),
        Problem::BaseVariationNotHere => td_string!(locale, validation.base_variation_not_here).to_string(),
        Problem::BulkNoPhotos => td_string!(locale, validation.bulk_no_photos).to_string(),
        Problem::BulkNoRenders => td_string!(locale, validation.bulk_no_renders).to_string(),
        Problem::BulkTooManyPhotos { max, given } => {
            td_string!(locale, validation.bulk_too_many_photos, max = max, given = given)
        }
        Problem::BulkTooManyRenders { max, given } => {
            td_string!(locale, validation.bulk_too_many_renders, max = max, given = given)
        }
        Problem::AnalyzePhotoPattern => td_string!(locale, validation.analyze_photo_pattern).to_string(),
        Problem::ViewCount { min, max } => td_string!(locale, validation.view_count, min = min, max = max),
        Problem::MultiViewConfig => td_string!(locale, validation.multi_view_config).to_string(),
        Problem::PhotoMissing => td_string!(locale, validation.photo_missing).to_string(),
        Problem::PhotoTwice => td_string!(locale, validation.photo_twice).to_string(),
        Problem::RoomTypeMissing => td_string!(locale, validation.room_type_missing).to_string(),
        Problem::StyleMissing => td_string!(locale, validation.style_missing).to_string(),
        Problem::UnknownToSandbox { name, value } => {
            td_string!(locale, validation.unknown_to_sandbox, value = value, name = name)
        }
        Problem::InvalidId { value } => td_string!(locale, validation.invalid_id, value = value.escape_debug()),
        Problem::VariationCount { max } => td_string!(locale, validation.variation_count, max = max),
        Problem::TooManyVariations { total, max, left } => {
            td_string!(locale, validation.too_many_variations, total = total, max = max, left = left)
        }
        Problem::PageLimit { max } => td_string!(locale, validation.page_limit, max = max),
        Problem::UnknownConfigType { tag } => td_string!(locale, validation.unknown_config_type, tag = tag),
        Problem::MissingConfigType => td_string!(locale, validation.missing_config_type).to_string(),
        Problem::RemovalModeOff => td_string!(locale, validation.removal_mode_off).to_string(),
        Problem::NotOneOf { value, allowed } => {
            td_string!(locale, validation.not_one_of, value = value, allowed = allowed.join(", "))
        }
        Problem::PhotoAddressMissing => td_string!(locale, validation.photo_address_missing).to_string(),
        Problem::PhotoAddressPattern => td_string!(locale, validation.photo_address_pattern).to_string(),
        Problem::HttpAddressPattern => td_string!(locale, validation.http_address_pattern).to_string(),
        Problem::SecretMissing => td_string!(locale, validation.secret_missing).to_string(),
        Problem::SecretPattern => td_string!(locale, validation.secret_pattern).to_string(),
        // written by the widget itself, already in the studio's language
        Problem::Other(text) => text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use vstage_api::requests::{ListRenders, SetWebhookSecret};
    use vstage_api::validate::{id, variation_count, within_render_bound};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn english_says_what_vstage_api_says() {
        for error in [
            ApiError::Network { detail: "offline".into() },
            ApiError::Timeout { seconds: 30 },
            ApiError::Http { status: 401, message: None },
            ApiError::Http { status: 418, message: None },
            ApiError::Http { status: 400, message: Some("variation_count must be at least 1".into()) },
        ] {
            assert_eq!(api_error(Locale::en, &error), error.to_string());
        }
    }

    /// The widget's refusals before sending, as vstage-api produces them.
    fn refusals() -> Vec<ValidationError> {
        vec![
            variation_count("variation_count", 0).unwrap_err(),
            within_render_bound("configs", 15, 10).unwrap_err(),
            id("render_id", "a/b\n").unwrap_err(),
            SetWebhookSecret { webhook_secret: String::new() }.validate().unwrap_err(),
            SetWebhookSecret { webhook_secret: "no spaces".into() }.validate().unwrap_err(),
            ListRenders { limit: Some(0), ..Default::default() }.validate().unwrap_err(),
            ValidationError::new(
                "webhook_url",
                vstage_api::Rule::Pattern,
                Problem::NotOneOf { value: "8k".into(), allowed: vec!["4k".into(), "full-hd".into()] },
            ),
            ValidationError::new("image_url", vstage_api::Rule::Required, Problem::Other("Pick a photo.".into())),
        ]
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn english_says_what_vstage_api_says_about_a_request() {
        for error in refusals() {
            assert_eq!(invalid(Locale::en, &error), error.message);
            assert_eq!(form_error(Locale::en, &ApiError::Invalid(error.clone())), error.message);
        }
    }

    /// One of each problem: the English sentences of `locales/en/validation.json` are vstage-api's, word for word,
    /// but for the photo: vstage-api tells a developer the address's forms (base64 data URLs), the studio tells an
    /// agent to choose a photo (see `agent_words_for_the_photo`).
    #[wasm_bindgen_test(unsupported = test)]
    fn every_problem_reads_in_english_as_vstage_api_writes_it() {
        let problems = [
            Problem::NoConfiguration,
            Problem::BaseVariationNotHere,
            Problem::BulkNoPhotos,
            Problem::BulkNoRenders,
            Problem::BulkTooManyPhotos { max: 25, given: 30 },
            Problem::BulkTooManyRenders { max: 25, given: 26 },
            Problem::AnalyzePhotoPattern,
            Problem::ViewCount { min: 2, max: 3 },
            Problem::MultiViewConfig,
            Problem::PhotoMissing,
            Problem::PhotoTwice,
            Problem::RoomTypeMissing,
            Problem::StyleMissing,
            Problem::UnknownToSandbox { name: "sky_style".into(), value: "aurora".into() },
            Problem::InvalidId { value: "a/b\n".into() },
            Problem::VariationCount { max: 20 },
            Problem::TooManyVariations { total: 22, max: 20, left: 5 },
            Problem::PageLimit { max: 100 },
            Problem::UnknownConfigType { tag: "sketch".into() },
            Problem::MissingConfigType,
            Problem::RemovalModeOff,
            Problem::NotOneOf { value: "8k".into(), allowed: vec!["4k".into(), "full-hd".into()] },
            Problem::PhotoAddressMissing,
            Problem::PhotoAddressPattern,
            Problem::HttpAddressPattern,
            Problem::SecretMissing,
            Problem::SecretPattern,
            Problem::Other("Pick a photo.".into()),
        ];
        for problem in problems {
            let error = ValidationError::new("field", vstage_api::Rule::Range, problem);
            if !about_the_photo(&error.problem) {
                assert_eq!(invalid(Locale::en, &error), error.message);
            }
            for locale in [Locale::de, Locale::es, Locale::fr] {
                if !matches!(error.problem, Problem::Other(_)) {
                    assert_ne!(invalid(locale, &error), error.message, "{locale:?}: {:?}", error.problem);
                }
            }
        }
    }

    fn about_the_photo(problem: &Problem) -> bool {
        matches!(
            problem,
            Problem::AnalyzePhotoPattern
                | Problem::PhotoMissing
                | Problem::PhotoAddressMissing
                | Problem::PhotoAddressPattern
        )
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn agent_words_for_the_photo() {
        for problem in [Problem::AnalyzePhotoPattern, Problem::PhotoMissing, Problem::PhotoAddressPattern] {
            let an_address = problem != Problem::PhotoMissing;
            let error = ValidationError::new("image_url", vstage_api::Rule::Pattern, problem);
            for locale in [Locale::en, Locale::de, Locale::es, Locale::fr] {
                let said = invalid(locale, &error);
                assert!(!said.contains("base64"), "{locale:?}: {said}");
                assert!(
                    !an_address || said.contains("https://"),
                    "{locale:?}: says what an address looks like: {said}"
                );
            }
        }
        let missing = ValidationError::new("image_url", vstage_api::Rule::Required, Problem::PhotoAddressMissing);
        assert_eq!(invalid(Locale::en, &missing), "Choose a photo first.", "whichever source was chosen");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_refused_request_is_explained_in_the_studio_s_language() {
        let error = within_render_bound("variation_count", 15, 10).unwrap_err();
        assert_eq!(
            invalid(Locale::de, &error),
            "Das ergäbe bis zu 25 Varianten; ein Rendering fasst höchstens 20 (noch 5 frei). Möbel vor dem \
             Einrichten zu entfernen fügt je eingerichteter Variante einen leeren Raum hinzu. Verringern Sie die Anzahl."
        );
        let other = ValidationError::new("image_url", vstage_api::Rule::Required, Problem::Other("Wählen Sie.".into()));
        assert_eq!(form_error(Locale::de, &ApiError::Invalid(other)), "Wählen Sie.");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn other_languages_introduce_the_service_s_own_words() {
        let error = ApiError::Http { status: 400, message: Some("variation_count must be at least 1".into()) };
        assert_eq!(api_error(Locale::de, &error), "Der Staging-Dienst meldet: variation_count must be at least 1");
        assert_eq!(
            api_error(Locale::fr, &ApiError::Http { status: 429, message: None }),
            "Trop de demandes à la fois. Patientez un instant et réessayez."
        );
    }
}
