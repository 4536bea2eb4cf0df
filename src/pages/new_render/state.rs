//! The new render form's state: the photo, the configurations, the advanced options, the mask being drawn, and the
//! request under way with the field it was refused on or its failure. Methods take each step and the answer in.

use leptos::prelude::*;
use vstage_api::{ApiError, CreateRender, Render, ValidationError};

use super::model;
use crate::config_draft::ConfigDraft;
use crate::locale::Locale;

#[derive(Debug, Clone, Copy)]
pub struct NewRenderForm {
    /// The photo's address.
    pub image_url: RwSignal<String>,
    /// Whether the photo cannot be shown here (the picker says): then it is not sent.
    pub photo_broken: RwSignal<bool>,
    /// Other photos of the same room for multi-view staging, an address a line; empty for one photo.
    pub views: RwSignal<String>,
    /// The configurations, each with the id its fields go by.
    pub drafts: RwSignal<Vec<(u32, ConfigDraft)>>,
    pub webhook_url: RwSignal<String>,
    pub wait: RwSignal<bool>,
    /// The field the request was refused on, by its own check or by the service, and why.
    pub error: RwSignal<Option<ValidationError>>,
    /// The last call's failure otherwise, put in words when shown.
    pub failure: RwSignal<Option<ApiError>>,
    pub sending: RwSignal<bool>,
    /// The draft whose custom mask is being drawn.
    pub masking: RwSignal<Option<u32>>,
}

impl NewRenderForm {
    pub fn new() -> Self {
        NewRenderForm {
            image_url: RwSignal::new(String::new()),
            photo_broken: RwSignal::new(false),
            views: RwSignal::new(String::new()),
            drafts: RwSignal::new(vec![(0, ConfigDraft::default())]),
            webhook_url: RwSignal::new(String::new()),
            wait: RwSignal::new(false),
            error: RwSignal::new(None),
            failure: RwSignal::new(None),
            sending: RwSignal::new(false),
            masking: RwSignal::new(None),
        }
    }

    /// Opens the mask editor for draft `id`, or says (in `locale`) that the photo comes first.
    pub fn open_mask(&self, id: u32, locale: Locale) {
        if self.image_url.get_untracked().trim().is_empty() {
            self.error.set(Some(model::photo_first(locale)));
        } else {
            self.masking.set(Some(id));
        }
    }

    /// Takes the mask drawn for draft `id` (uploaded to `mask_url`) and closes the editor.
    pub fn take_mask(&self, id: u32, mask_url: String) {
        self.drafts.update(|list| model::give_mask(list, id, &mask_url));
        self.masking.set(None);
    }

    /// Every photo of the render: the photo, then the other views given, a line each.
    pub fn photos(&self) -> Vec<String> {
        let first = self.image_url.get_untracked().trim().to_string();
        std::iter::once(first).chain(model::other_views(&self.views.get_untracked())).collect()
    }

    /// The request for what the form holds now, checked or not (read in a reactive context, it follows the form).
    pub fn request(&self) -> CreateRender {
        let drafts: Vec<ConfigDraft> = self.drafts.get().into_iter().map(|(_, draft)| draft).collect();
        let mut request = crate::config_draft::render_request(
            &self.image_url.get(),
            &drafts,
            &self.webhook_url.get(),
            self.wait.get(),
        );
        if !model::other_views(&self.views.get()).is_empty() {
            request.image_urls = self.photos();
        }
        request
    }

    /// Why `field` was refused, if it was.
    pub fn error_on(&self, field: &str) -> Option<ValidationError> {
        self.error.get().filter(|error| error.field == field)
    }

    /// Starts sending: the request for what the form holds. `None` while a request is under way, or when the
    /// request's own check refuses it, or the photo cannot be shown here (then the form says why, in `locale`).
    pub fn start(&self, locale: Locale) -> Option<CreateRender> {
        if self.sending.get_untracked() {
            return None;
        }
        let request = untrack(|| self.request());
        self.failure.set(None);
        if let Err(invalid) = untrack(|| self.check(&request, locale)) {
            self.error.set(Some(invalid));
            return None;
        }
        self.error.set(None);
        self.sending.set(true);
        Some(request)
    }

    /// Whether `request` may be sent: the contract's rules, and a photo that can be shown here (reactive).
    pub fn check(&self, request: &CreateRender, locale: Locale) -> Result<(), ValidationError> {
        request.validate()?;
        match self.photo_broken.get() {
            true => Err(model::photo_unloadable(locale)),
            false => Ok(()),
        }
    }

    /// Takes the service's answer: the render made, or why not (by its field when the service names one).
    pub fn finish(&self, answer: Result<Render, ApiError>) -> Option<Render> {
        self.sending.set(false);
        match answer {
            Ok(render) => Some(render),
            Err(ApiError::Invalid(invalid)) => {
                self.error.set(Some(invalid));
                None
            }
            Err(other) => {
                self.failure.set(Some(other));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn a_request_starts_once_and_a_refusal_sits_by_its_field() {
        let owner = Owner::new();
        owner.with(|| {
            let form = NewRenderForm::new();
            form.open_mask(0, Locale::en);
            assert_eq!((form.masking.get_untracked(), form.error_on("image_url").is_some()), (None, true));
            assert_eq!(form.start(Locale::en), None, "no photo: refused before sending");
            assert!(form.error_on("image_url").is_some());

            form.image_url.set("https://img.example/room.jpg".into());
            form.open_mask(0, Locale::en);
            form.take_mask(0, "https://img.example/mask.png".into());
            assert_eq!(form.masking.get_untracked(), None);
            form.photo_broken.set(true);
            assert_eq!(form.start(Locale::en), None, "a photo that cannot be shown here is not sent");
            assert!(form.error_on("image_url").is_some_and(|error| error.message.contains("does not show a photo")));
            form.photo_broken.set(false);
            let request = form.start(Locale::en).expect("a valid form is sent");
            assert_eq!(request.image_url, "https://img.example/room.jpg");
            assert_eq!(form.start(Locale::en), None, "not twice while one is under way");

            let timeout = ApiError::Timeout { seconds: 30 };
            assert_eq!(form.finish(Err(timeout.clone())), None);
            assert_eq!((form.sending.get_untracked(), form.failure.get_untracked()), (false, Some(timeout)));
        });
    }
}
