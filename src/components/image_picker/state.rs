//! The photo picker's state: the photo's address, where it comes from (and whether the person chose that), the
//! sandbox's samples, a file's upload and its preview. Methods take each choice and upload in.

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_api::Sample;

use super::model::{self, Source, Upload};
use crate::upload::{self, Uploader};

#[derive(Debug, Clone, Copy)]
pub struct PickerState {
    /// The chosen photo's address, the form's.
    pub image_url: RwSignal<String>,
    source: RwSignal<Source>,
    /// Whether the person chose where the photo comes from (then samples are no longer offered first).
    chosen_by_person: StoredValue<bool>,
    /// The sandbox's samples once read; elsewhere never read.
    pub samples: RwSignal<Option<Vec<Sample>>>,
    pub upload: RwSignal<Upload>,
    /// The file chosen, as this browser shows it.
    file_shown_at: RwSignal<Option<String>>,
    /// Whether the photo previewed could not be shown.
    pub preview_broken: RwSignal<bool>,
}

impl PickerState {
    /// `preview_broken` is the form's when it refuses a photo that cannot be shown.
    pub fn new(image_url: RwSignal<String>, preview_broken: RwSignal<bool>) -> Self {
        PickerState {
            image_url,
            source: RwSignal::new(Source::Address),
            chosen_by_person: StoredValue::new(false),
            samples: RwSignal::new(None),
            upload: RwSignal::new(Upload::Idle),
            file_shown_at: RwSignal::new(None),
            preview_broken,
        }
    }

    pub fn is_chosen(&self, source: Source) -> bool {
        self.source.get() == source
    }

    /// The person chose where the photo comes from.
    pub fn choose(&self, source: Source) {
        self.chosen_by_person.set_value(true);
        self.source.set(source);
    }

    /// Offers the samples first when `model::samples_first` says so.
    pub fn offer_samples_first(&self, is_sandbox: bool) {
        if model::samples_first(is_sandbox, &self.image_url.get_untracked(), self.chosen_by_person.get_value()) {
            self.source.set(Source::Sample);
        }
    }

    /// While a sample is chosen, shows a photo given from outside as the address it is.
    pub fn show_given_address(&self) {
        let url = self.image_url.get();
        let given = self.samples.with(|samples| model::given_from_outside(samples.as_deref(), &url));
        if given && self.source.get_untracked() == Source::Sample {
            self.source.set(Source::Address);
        }
    }

    pub fn choose_sample(&self, url: String) {
        self.file_shown_at.set(None);
        self.image_url.set(url);
    }

    /// Uploads `file`, previewed at once; its address becomes the photo's once it is uploaded.
    pub fn send(&self, uploader: Uploader, file: web_sys::File) {
        if !upload::is_image(&file.type_()) {
            self.upload.set(Upload::NotImage { name: file.name() });
            return;
        }
        if let Ok(url) = web_sys::Url::create_object_url_with_blob(&file) {
            self.file_shown_at.set(Some(url));
        }
        let name = file.name();
        self.upload.set(Upload::Sending { name: name.clone(), progress: 0.0 });
        let picker = *self;
        spawn_local(async move {
            let progress_name = name.clone();
            let result = uploader
                .send(&file, move |progress| {
                    picker.upload.set(Upload::Sending { name: progress_name.clone(), progress })
                })
                .await;
            match result {
                Ok(uploaded) => {
                    picker.image_url.set(uploaded.url);
                    picker.upload.set(Upload::Done { name });
                }
                Err(message) => picker.upload.set(Upload::Failed { message }),
            }
        });
    }

    /// The photo previewed, once there is one.
    pub fn shown_photo(&self) -> Option<String> {
        model::shown_photo(self.file_shown_at.get(), &self.image_url.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn samples_come_first_until_the_person_or_the_host_says_otherwise() {
        let owner = Owner::new();
        owner.with(|| {
            let picker = PickerState::new(RwSignal::new(String::new()), RwSignal::new(false));
            picker.offer_samples_first(true);
            assert!(picker.is_chosen(Source::Sample));
            let sample = Sample { name: "a".into(), description: String::new(), url: "https://s.example/a.jpg".into() };
            picker.samples.set(Some(vec![sample]));
            picker.choose_sample("https://s.example/a.jpg".into());
            picker.show_given_address();
            assert!(picker.is_chosen(Source::Sample), "a sample is chosen");
            assert_eq!(picker.shown_photo().as_deref(), Some("https://s.example/a.jpg"));

            picker.image_url.set("https://photos.example/living.jpg".into());
            picker.show_given_address();
            assert!(picker.is_chosen(Source::Address), "the host's photo is shown as its address");

            let chosen = PickerState::new(RwSignal::new(String::new()), RwSignal::new(false));
            chosen.choose(Source::Device);
            chosen.offer_samples_first(true);
            assert!(chosen.is_chosen(Source::Device), "the person's choice stays");
        });
    }
}
