//! What the photo picker works out, as plain functions tested in the browser: where the photo comes from, which source
//! is offered first, an address given from outside, the photo previewed and an upload in words.

use leptos_i18n::td_string;
use vstage_api::Sample;

use crate::locale::Locale;
use crate::upload;

/// Where the photo comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Address,
    Device,
    Sample,
}

/// A file from this device on its way to the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Upload {
    Idle,
    Sending {
        name: String,
        progress: f64,
    },
    Done {
        name: String,
    },
    /// The file chosen is not an image.
    NotImage {
        name: String,
    },
    /// The uploader's sentence.
    Failed {
        message: String,
    },
}

/// Whether the sandbox's samples are offered first: in the sandbox, while no photo is given and the person has not
/// chosen where the photo comes from.
pub fn samples_first(is_sandbox: bool, address: &str, chosen_by_person: bool) -> bool {
    is_sandbox && address.is_empty() && !chosen_by_person
}

/// Whether the photo's address was given from outside (the host's `photo-url`) rather than by choosing one of the
/// samples, once they are read.
pub fn given_from_outside(samples: Option<&[Sample]>, address: &str) -> bool {
    samples.is_some_and(|samples| !address.is_empty() && samples.iter().all(|sample| sample.url != address))
}

/// The photo previewed: the file chosen, as this browser shows it, else the address once there is one.
pub fn shown_photo(file_shown_at: Option<String>, address: &str) -> Option<String> {
    file_shown_at.or_else(|| Some(address.to_string()).filter(|address| !address.is_empty()))
}

/// A file's upload under way (0.0 to 1.0) in words.
pub fn sending_words(locale: Locale, name: &str, progress: f64) -> String {
    td_string!(locale, forms.picker_uploading, name = name, percent = upload::percent(progress))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn sample(url: &str) -> Sample {
        Sample { name: "living.jpg".into(), description: String::new(), url: url.into() }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn samples_are_offered_first_in_the_sandbox_until_a_photo_or_source_is_chosen() {
        assert!(samples_first(true, "", false));
        assert!(!samples_first(false, "", false), "not outside the sandbox");
        assert!(!samples_first(true, "https://p.example/a.jpg", false), "a photo is given");
        assert!(!samples_first(true, "", true), "the person chose");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn an_address_not_among_the_samples_was_given_from_outside() {
        let samples = [sample("https://s.example/living.jpg")];
        assert!(given_from_outside(Some(&samples), "https://photos.example/14/living.jpg"));
        assert!(!given_from_outside(Some(&samples), "https://s.example/living.jpg"), "a sample chosen");
        assert!(!given_from_outside(Some(&samples), ""));
        assert!(!given_from_outside(None, "https://photos.example/14/living.jpg"), "samples not read yet");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_file_chosen_is_previewed_before_the_address() {
        let address = "https://p.example/a.jpg";
        assert_eq!(shown_photo(Some("blob:a".into()), address).as_deref(), Some("blob:a"));
        assert_eq!(shown_photo(None, address).as_deref(), Some(address));
        assert_eq!(shown_photo(None, ""), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn an_upload_says_how_far_it_is() {
        assert_eq!(sending_words(Locale::en, "living.jpg", 0.426), "Uploading living.jpg… 43 %");
    }
}
