//! The classic render page's state: the render as last read, the last read's failure and how many reads answered
//! (for the polling), the output compared, whether an image went to the listing; and the variation form with its
//! request under way. Methods take each answer in; the view only reads.

use leptos::prelude::*;
use vstage_api::{ApiError, v1};

use super::model::{self, VaryChoices};

#[derive(Debug, Clone, Copy)]
pub struct ClassicRenderState {
    pub render: RwSignal<Option<v1::Render>>,
    pub failure: RwSignal<Option<ApiError>>,
    /// Reads answered, so that the polling schedules the next one.
    pub reads: RwSignal<u64>,
    /// The output chosen for before and after (else the newest).
    pub compare: RwSignal<Option<usize>>,
    /// Whether an image was sent to the listing (said in the live region).
    pub announced: RwSignal<bool>,
}

impl ClassicRenderState {
    pub fn new() -> Self {
        ClassicRenderState {
            render: RwSignal::new(None),
            failure: RwSignal::new(None),
            reads: RwSignal::new(0),
            compare: RwSignal::new(None),
            announced: RwSignal::new(false),
        }
    }

    /// Forgets the render: another one is shown.
    pub fn clear(&self) {
        self.render.set(None);
    }

    /// Takes a read's answer; the page may be gone by then.
    pub fn read(&self, answer: Result<v1::Render, ApiError>) {
        match answer {
            Ok(fresh) => {
                let _ = self.render.try_set(Some(fresh));
                let _ = self.failure.try_set(None);
            }
            Err(error) => {
                let _ = self.failure.try_set(Some(error));
            }
        }
        let _ = self.reads.try_update(|n| *n += 1);
    }

    /// Whether the render is still being made (or not read yet).
    pub fn working(&self) -> bool {
        self.render.with(|render| model::working(render.as_ref()))
    }

    /// What changes when the render moves on.
    pub fn progress_key(&self) -> String {
        self.render.with(|render| model::progress_key(render.as_ref()))
    }
}

/// "Add a variation": its choices and the request under way or its failure.
#[derive(Debug, Clone, Copy)]
pub struct VaryForm {
    pub room_type: RwSignal<String>,
    pub style: RwSignal<String>,
    pub watermark: RwSignal<bool>,
    pub queued_at_once: RwSignal<bool>,
    pub wait: RwSignal<bool>,
    pub sending: RwSignal<bool>,
    pub failure: RwSignal<Option<ApiError>>,
}

impl VaryForm {
    pub fn new() -> Self {
        VaryForm {
            room_type: RwSignal::new(String::new()),
            style: RwSignal::new(String::new()),
            watermark: RwSignal::new(false),
            queued_at_once: RwSignal::new(true),
            wait: RwSignal::new(false),
            sending: RwSignal::new(false),
            failure: RwSignal::new(None),
        }
    }

    /// Starts sending: the request for the choices made. `None` while a request is under way, or while the render
    /// is not done.
    pub fn start(&self, render_done: bool) -> Option<v1::CreateVariation> {
        if self.sending.get_untracked() || !render_done {
            return None;
        }
        let request = model::variation_request(&VaryChoices {
            room_type: self.room_type.get_untracked(),
            style: self.style.get_untracked(),
            watermark: self.watermark.get_untracked(),
            queued_at_once: self.queued_at_once.get_untracked(),
            wait: self.wait.get_untracked(),
        });
        self.sending.set(true);
        self.failure.set(None);
        Some(request)
    }

    /// Takes the service's answer: whether the variation was created, else the form says why. The page may be
    /// gone by then.
    pub fn finish(&self, answer: Result<v1::Created, ApiError>) -> bool {
        let created = answer.map_err(|error| self.failure.try_set(Some(error))).is_ok();
        let _ = self.sending.try_set(false);
        created
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn render(status: &str) -> v1::Render {
        serde_json::from_value(json!({"render_id": "r1", "status": status, "outputs": [], "progress": 0.5})).unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn reads_keep_the_render_and_count() {
        let owner = Owner::new();
        owner.with(|| {
            let page = ClassicRenderState::new();
            assert!(page.working(), "working until read");
            page.read(Ok(render("rendering")));
            assert!(page.working());
            assert_eq!(page.progress_key(), "rendering/0/Some(0.5)");
            page.read(Err(ApiError::Timeout { seconds: 30 }));
            assert_eq!(page.failure.get_untracked(), Some(ApiError::Timeout { seconds: 30 }));
            assert!(page.render.with_untracked(Option::is_some), "the render read stays shown");
            page.read(Ok(render("done")));
            assert!(!page.working());
            assert_eq!((page.failure.get_untracked(), page.reads.get_untracked()), (None, 3));
            page.clear();
            assert!(page.render.with_untracked(Option::is_none));
        });
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_variation_is_asked_once_the_render_is_done() {
        let owner = Owner::new();
        owner.with(|| {
            let form = VaryForm::new();
            assert!(form.start(false).is_none(), "not before the render is done");
            form.room_type.set("bed".into());
            form.style.set("coastal".into());
            let request = form.start(true).expect("a request");
            assert_eq!(request.switch_to_queued_immediately, Some(true));
            assert!(form.sending.get_untracked());
            assert!(form.start(true).is_none(), "one request at a time");

            let refused = ApiError::Http { status: 409, message: None };
            assert!(!form.finish(Err(refused.clone())));
            assert_eq!((form.sending.get_untracked(), form.failure.get_untracked()), (false, Some(refused)));
            form.start(true).expect("a request again");
            assert_eq!(form.failure.get_untracked(), None);
            let created = v1::Created { render_id: "r1".into(), result_image_url: None, removal_output: None };
            assert!(form.finish(Ok(created)));
        });
    }
}
