//! What can go wrong in the mask editor (`Problem`), kept as what it is and worded in the studio's language when
//! shown; every part of the editor reports with it.

use std::sync::Arc;

use leptos_i18n::td_string;
use vstage_mask::MaskError;

use crate::locale::Locale;

/// What went wrong in the editor, kept as what it is and worded in the studio's language when shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// No canvas could be made.
    NoCanvas,
    /// The browser has no 2D canvas context.
    NoDrawing,
    /// No image element could be made.
    NoImage,
    /// The photo could not be loaded or decoded.
    PhotoNotLoaded,
    /// The analysis mask could not be loaded (CORS, most likely).
    AnalysisNotLoaded,
    AnalysisNotDrawn,
    /// The analysis mask's pixels could not be read back (its host does not allow it).
    AnalysisNotReadable,
    /// The PNG could not be made into a blob.
    NotPrepared,
    /// The editor was closed while something was under way.
    Closed,
    /// The mask model's own error.
    Mask(Arc<MaskError>),
    /// The studio answered without the address asked for: of the analysis, or of the uploaded mask.
    NoAnalysis,
    NoMaskAddress,
    /// The element was not given one of the studio's functions.
    Missing(String),
    /// The studio rejected without a sentence.
    StudioFailed,
    /// The studio rejected with its sentence (already in the studio's language).
    Said(String),
}

impl From<MaskError> for Problem {
    fn from(error: MaskError) -> Self {
        Problem::Mask(Arc::new(error))
    }
}

impl Problem {
    /// The sentence to show, saying what to do.
    pub fn sentence(&self, locale: Locale) -> String {
        let words = match self {
            Problem::NoCanvas => td_string!(locale, mask.problem_no_canvas),
            Problem::NoDrawing => td_string!(locale, mask.problem_no_drawing),
            Problem::NoImage => td_string!(locale, mask.problem_no_image),
            Problem::PhotoNotLoaded => td_string!(locale, mask.problem_photo_not_loaded),
            Problem::AnalysisNotLoaded => td_string!(locale, mask.problem_analysis_not_loaded),
            Problem::AnalysisNotDrawn => td_string!(locale, mask.problem_analysis_not_drawn),
            Problem::AnalysisNotReadable => td_string!(locale, mask.problem_analysis_not_readable),
            Problem::NotPrepared => td_string!(locale, mask.problem_not_prepared),
            Problem::Closed => td_string!(locale, mask.problem_closed),
            Problem::Mask(error) => return mask_error(locale, error),
            Problem::NoAnalysis => td_string!(locale, mask.problem_no_analysis),
            Problem::NoMaskAddress => td_string!(locale, mask.problem_no_mask_address),
            Problem::Missing(name) => return td_string!(locale, mask.problem_missing, name = name),
            Problem::StudioFailed => td_string!(locale, mask.problem_studio_failed),
            Problem::Said(sentence) => return sentence.clone(),
        };
        words.to_string()
    }
}

/// `vstage-mask`'s sentence for its error, in the studio's language.
fn mask_error(locale: Locale, error: &MaskError) -> String {
    match error {
        MaskError::Empty { width, height } => {
            td_string!(locale, mask.mask_error_empty, width = width, height = height)
        }
        MaskError::TooLarge { width, height } => {
            td_string!(locale, mask.mask_error_too_large, width = width, height = height)
        }
        MaskError::WrongLength { width, height, expected, got } => td_string!(
            locale,
            mask.mask_error_wrong_length,
            got = got,
            width = width,
            height = height,
            expected = expected
        ),
        MaskError::Encode(detail) => td_string!(locale, mask.mask_error_encode, detail = detail),
        MaskError::Decode(detail) => td_string!(locale, mask.mask_error_decode, detail = detail),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn english_says_what_vstage_mask_says() {
        for error in [
            MaskError::Empty { width: 0, height: 3 },
            MaskError::TooLarge { width: 9000, height: 9000 },
            MaskError::WrongLength { width: 2, height: 2, expected: 16, got: 12 },
            MaskError::Encode("no memory".into()),
            MaskError::Decode("not a PNG".into()),
        ] {
            let sentence = error.to_string();
            assert_eq!(Problem::from(error).sentence(Locale::en), sentence);
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_studio_s_sentences_are_shown_as_given() {
        assert_eq!(Problem::Said("Die Datei fehlt.".into()).sentence(Locale::de), "Die Datei fehlt.");
        assert_eq!(
            Problem::Missing("upload".into()).sentence(Locale::en),
            "The mask editor was not given `upload` by the studio; reload the page."
        );
        assert_ne!(Problem::Closed.sentence(Locale::fr), Problem::Closed.sentence(Locale::en));
    }
}
