//! The classic create form's state: the photo (an address or a file), the choices, the mask, and the request
//! under way with its progress or failure. Methods take each of the person's steps and the answer in.

use leptos::prelude::*;
use vstage_api::{ApiError, v1};

use crate::pages::classic::model::{self, Choices, CreateFailure, Mode};

#[derive(Debug, Clone, Copy)]
pub struct NewClassicForm {
    /// The photo's address as typed; emptied when a file is chosen.
    pub address: RwSignal<String>,
    /// The photo as a file, sent with the form; dropped when an address is typed.
    pub file: RwSignal<Option<web_sys::File>, LocalStorage>,
    /// The chosen file as this browser shows it, for the mask editor to draw over.
    file_shown_at: RwSignal<Option<String>>,
    pub mode: RwSignal<Mode>,
    pub room_type: RwSignal<String>,
    pub style: RwSignal<String>,
    /// `4k`, `full-hd`, or empty for the service's default.
    pub resolution: RwSignal<String>,
    pub watermark: RwSignal<bool>,
    pub wait: RwSignal<bool>,
    /// The declutter mask drawn, once it is uploaded.
    pub mask_url: RwSignal<Option<String>>,
    /// Whether the mask editor is open.
    pub masking: RwSignal<bool>,
    /// The file's upload with the form (0.0 to 1.0), while it goes.
    pub progress: RwSignal<Option<f64>>,
    pub sending: RwSignal<bool>,
    pub failure: RwSignal<Option<CreateFailure>>,
}

impl NewClassicForm {
    pub fn new() -> Self {
        NewClassicForm {
            address: RwSignal::new(String::new()),
            file: RwSignal::new_local(None),
            file_shown_at: RwSignal::new(None),
            mode: RwSignal::new(Mode::StagingOnly),
            room_type: RwSignal::new(String::new()),
            style: RwSignal::new(String::new()),
            resolution: RwSignal::new(String::new()),
            watermark: RwSignal::new(false),
            wait: RwSignal::new(false),
            mask_url: RwSignal::new(None),
            masking: RwSignal::new(false),
            progress: RwSignal::new(None),
            sending: RwSignal::new(false),
            failure: RwSignal::new(None),
        }
    }

    /// The photo is this address, not a file.
    pub fn type_address(&self, typed: String) {
        self.address.set(typed);
        self.file.set(None);
    }

    /// The photo is this file, not an address.
    pub fn choose_file(&self, chosen: web_sys::File) {
        if let Some(previous) = self.file_shown_at.get_untracked() {
            let _ = web_sys::Url::revoke_object_url(&previous);
        }
        self.file_shown_at.set(web_sys::Url::create_object_url_with_blob(&chosen).ok());
        self.file.set(Some(chosen));
        self.address.set(String::new());
    }

    /// The photo the mask is drawn over, once there is one.
    pub fn photo_for_mask(&self) -> Option<String> {
        model::photo_for_mask(self.file.with(Option::is_some), self.file_shown_at.get(), &self.address.get())
    }

    /// Opens the mask editor, or says that the photo comes first.
    pub fn open_mask(&self) {
        match self.photo_for_mask() {
            Some(_) => self.masking.set(true),
            None => self.failure.set(Some(CreateFailure::PhotoFirst)),
        }
    }

    /// Takes the mask drawn (uploaded to `url`) and closes the editor.
    pub fn take_mask(&self, url: String) {
        self.mask_url.set(Some(url));
        self.masking.set(false);
    }

    fn choices(&self) -> Choices {
        Choices {
            mode: self.mode.get_untracked(),
            room_type: self.room_type.get_untracked(),
            style: self.style.get_untracked(),
            resolution: self.resolution.get_untracked(),
            watermark: self.watermark.get_untracked(),
            wait: self.wait.get_untracked(),
            mask_url: self.mask_url.get_untracked(),
        }
    }

    /// Starts sending: the request for what the form holds and the file to send with it. `None` while a request
    /// is under way, or when the request's own check refuses it (then the form says why).
    pub fn start(&self) -> Option<(v1::CreateRender, Option<web_sys::File>)> {
        if self.sending.get_untracked() {
            return None;
        }
        let file = self.file.get_untracked();
        let request = model::create_request(file.is_none().then(|| self.address.get_untracked()), &self.choices());
        if let Err(invalid) = request.validate(file.is_some()) {
            self.failure.set(Some(CreateFailure::Refused(ApiError::Invalid(invalid))));
            return None;
        }
        self.failure.set(None);
        self.sending.set(true);
        Some((request, file))
    }

    /// The file's upload has come this far (0.0 to 1.0); the form may be gone by then.
    pub fn uploaded(&self, done: f64) {
        let _ = self.progress.try_set(Some(done));
    }

    /// Takes the service's answer: the render made, else nothing and the form says why. The form may be gone by
    /// then.
    pub fn finish(&self, created: Result<v1::Created, CreateFailure>) -> Option<v1::Created> {
        let _ = self.progress.try_set(None);
        let _ = self.sending.try_set(false);
        created.map_err(|why| self.failure.try_set(Some(why))).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_form_checks_its_request_and_takes_the_answer() {
        let owner = Owner::new();
        owner.with(|| {
            let form = NewClassicForm::new();
            form.open_mask();
            assert_eq!(form.failure.get_untracked(), Some(CreateFailure::PhotoFirst), "no photo to draw over");
            assert!(form.start().is_none());
            assert!(
                matches!(form.failure.get_untracked(), Some(CreateFailure::Refused(ApiError::Invalid(_)))),
                "nothing is sent without a photo"
            );

            form.type_address(" https://p.example/a.jpg ".into());
            form.room_type.set("bed".into());
            form.style.set("modern".into());
            form.open_mask();
            assert!(form.masking.get_untracked());
            form.take_mask("https://m.example/mask.png".into());
            assert!(!form.masking.get_untracked());
            let (request, file) = form.start().expect("a request");
            assert_eq!(request.image_url.as_deref(), Some("https://p.example/a.jpg"));
            assert!(file.is_none());
            assert!(form.sending.get_untracked() && form.failure.get_untracked().is_none());
            assert!(form.start().is_none(), "one request at a time");

            form.uploaded(0.5);
            assert_eq!(form.finish(Err(CreateFailure::Unreadable)), None);
            assert_eq!(form.failure.get_untracked(), Some(CreateFailure::Unreadable));
            assert_eq!((form.sending.get_untracked(), form.progress.get_untracked()), (false, None));
            let created = v1::Created { render_id: "r1".into(), result_image_url: None, removal_output: None };
            assert_eq!(form.finish(Ok(created.clone())), Some(created));
        });
    }
}
