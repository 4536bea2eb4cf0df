//! The remove-furniture page's state: the photo, where the page is (its analysis, the editor, the mask made),
//! the photo's fault or the last request's failure, whether a request is under way, and the staging asked for
//! with the removal. Methods take each of the person's steps and each answer in; the view only reads.

use leptos::prelude::*;
use vstage_api::{Analysis, Analyze, ApiError, CreateRender, Render, RoomType, Style, ValidationError};

use super::model::{self, Step};

#[derive(Debug, Clone, Copy)]
pub struct FurnitureMaskState {
    pub image_url: RwSignal<String>,
    pub step: RwSignal<Step>,
    pub failure: RwSignal<Option<ApiError>>,
    /// Why the photo cannot be analysed, by the request's own check.
    pub photo_error: RwSignal<Option<ValidationError>>,
    /// Whether the analysis or the removal is under way.
    pub working: RwSignal<bool>,
    /// Whether the room is staged once the furniture is removed, in `room_type` and `style`.
    pub stage: RwSignal<bool>,
    pub room_type: RwSignal<RoomType>,
    pub style: RwSignal<Style>,
}

impl FurnitureMaskState {
    pub fn new() -> Self {
        FurnitureMaskState {
            image_url: RwSignal::new(String::new()),
            step: RwSignal::new(Step::Photo),
            failure: RwSignal::new(None),
            photo_error: RwSignal::new(None),
            working: RwSignal::new(false),
            stage: RwSignal::new(false),
            room_type: RwSignal::new(RoomType::Living),
            style: RwSignal::new(Style::Modern),
        }
    }

    /// Starts the analysis: its request, or `None` when the photo's address does not do (then the page says why).
    pub fn start_analysis(&self) -> Option<Analyze> {
        let request = Analyze { image_url: self.image_url.get_untracked().trim().to_string(), webhook_url: None };
        if let Err(invalid) = request.validate() {
            self.photo_error.set(Some(invalid));
            return None;
        }
        self.photo_error.set(None);
        self.failure.set(None);
        self.working.set(true);
        Some(request)
    }

    /// Takes the analysis, shown over the photo, or why there is none. The page may be gone by then.
    pub fn analysed(&self, answer: Result<Analysis, ApiError>) {
        match answer {
            Ok(analysis) => {
                let _ = self.step.try_set(Step::Analysed(analysis));
            }
            Err(error) => {
                let _ = self.failure.try_set(Some(error));
            }
        }
        let _ = self.working.try_set(false);
    }

    /// Opens the editor on the mask at `start_from`, or on an empty one.
    pub fn edit(&self, start_from: Option<String>) {
        self.step.set(Step::Editing { start_from });
    }

    /// Starts over from the photo.
    pub fn start_over(&self) {
        self.step.set(Step::Photo);
        // what was said of the photo before is no longer true of it
        self.photo_error.set(None);
    }

    /// Takes the mask made in the editor, uploaded to `mask_url`.
    pub fn masked(&self, mask_url: String) {
        self.step.set(Step::Masked { mask_url });
    }

    /// The removal's request with the mask at `mask_url` (read in a reactive context, it follows the page).
    pub fn removal(&self, mask_url: String) -> CreateRender {
        let staging = self.stage.get().then(|| (self.room_type.get(), self.style.get()));
        model::removal_request(&self.image_url.get(), mask_url, staging)
    }

    /// Starts the removal with the mask at `mask_url`: its request.
    pub fn start_removal(&self, mask_url: String) -> CreateRender {
        let request = untrack(|| self.removal(mask_url));
        self.failure.set(None);
        self.working.set(true);
        request
    }

    /// Takes the service's answer: the render made, else nothing and the page says why. The page may be gone by
    /// then.
    pub fn finish_removal(&self, answer: Result<Render, ApiError>) -> Option<Render> {
        let created = answer.map_err(|error| self.failure.try_set(Some(error))).ok();
        let _ = self.working.try_set(false);
        created
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_photo_is_analysed_masked_and_its_furniture_removed() {
        let owner = Owner::new();
        owner.with(|| {
            let page = FurnitureMaskState::new();
            assert!(page.start_analysis().is_none(), "no photo yet");
            assert!(page.photo_error.with_untracked(Option::is_some));

            page.image_url.set(" https://p.example/living.jpg ".into());
            let request = page.start_analysis().expect("a request");
            assert_eq!(request.image_url, "https://p.example/living.jpg");
            assert!(page.working.get_untracked() && page.photo_error.with_untracked(Option::is_none));
            let analysis: Analysis = serde_json::from_value(json!({
                "id": "an_1", "created_at": 1, "result_url": "https://m.example/found.png", "status": "done",
            }))
            .unwrap();
            page.analysed(Ok(analysis.clone()));
            assert_eq!(page.step.get_untracked(), Step::Analysed(analysis));
            assert!(!page.working.get_untracked());

            page.edit(Some("https://m.example/found.png".into()));
            page.masked("https://m.example/mask.png".into());
            assert_eq!(page.step.get_untracked(), Step::Masked { mask_url: "https://m.example/mask.png".into() });
            page.stage.set(true);
            page.room_type.set(RoomType::Bed);
            let request = serde_json::to_value(page.start_removal("https://m.example/mask.png".into())).unwrap();
            assert_eq!(request["config"]["add_furniture"]["room_type"], "bed");
            assert!(page.working.get_untracked());
            let refused = ApiError::Http { status: 402, message: None };
            assert_eq!(page.finish_removal(Err(refused.clone())), None);
            assert_eq!((page.working.get_untracked(), page.failure.get_untracked()), (false, Some(refused)));
            page.start_over();
            assert_eq!(page.step.get_untracked(), Step::Photo);
        });
    }
}
