//! The footer's work: what is under way, and the two jobs that go through the studio: "Detect furniture" (the
//! service's analysis replaces the mask, as one undoable edit) and "Use this mask" (the mask exported as PNG and
//! uploaded, and the studio told where it went). What goes wrong is the editor's notice.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::model::Busy;
use crate::mask_editor::element::Studio;
use crate::mask_editor::export::png_blob;
use crate::mask_editor::handle::Editor;
use crate::mask_editor::load::{self, THRESHOLD};
use crate::mask_editor::problem::Problem;

#[derive(Clone, Copy)]
pub struct FooterState {
    editor: Editor,
    /// What is under way, if anything.
    pub busy: RwSignal<Option<Busy>>,
}

impl FooterState {
    pub fn new(editor: Editor) -> Self {
        FooterState { editor, busy: RwSignal::new(None) }
    }

    /// Whether the footer's jobs can start: the photo is loaded and nothing is under way.
    pub fn idle(&self) -> bool {
        self.editor.ready() && self.busy.get().is_none()
    }

    /// Asks the studio for the analysis of the photo at `image_url` and puts its mask in place of the one edited.
    pub fn detect(&self, studio: Studio, image_url: String) {
        let FooterState { editor, busy } = *self;
        let notice = editor.notice;
        busy.set(Some(Busy::Detecting));
        notice.set(None);
        spawn_local(async move {
            let outcome = async {
                let analysis_url = studio.analyze(&image_url).await?;
                let (width, height) =
                    editor.read(|core| (core.state.mask.width(), core.state.mask.height())).ok_or(Problem::Closed)?;
                load::mask_pixels(&analysis_url, width, height).await
            }
            .await;
            let failed = match outcome {
                Ok(rgba) => editor
                    .with(|core| {
                        core.state.mask.replace_from_rgba(&rgba, THRESHOLD).map(|rect| core.state.changed(rect))
                    })
                    .and_then(|replaced| replaced.err().map(Problem::from)),
                Err(problem) => Some(problem),
            };
            let _ = notice.try_set(failed);
            editor.edited();
            let _ = busy.try_set(None);
        });
    }

    /// Exports the mask and uploads it through the studio, which is then told its address; once at a time.
    pub fn export(&self, studio: Studio) {
        let FooterState { editor, busy } = *self;
        let notice = editor.notice;
        if busy.get_untracked().is_some() {
            return;
        }
        let blob = match editor.read(|core| png_blob(&core.state.mask)) {
            Some(Ok(blob)) => blob,
            Some(Err(problem)) => return notice.set(Some(problem)),
            None => return,
        };
        busy.set(Some(Busy::Uploading(None)));
        notice.set(None);
        spawn_local(async move {
            let progress = move |share: f64| {
                let _ = busy.try_set(Some(Busy::Uploading(Some(share))));
            };
            match studio.upload(&blob, progress).await {
                Ok(mask_url) => studio.done(mask_url),
                Err(problem) => {
                    let _ = notice.try_set(Some(problem));
                }
            }
            let _ = busy.try_set(None);
        });
    }
}
