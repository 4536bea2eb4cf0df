//! The mask editor: the toolbar, the stage (the photo with the mask over it on a canvas) and the footer, around
//! one `Editor` handle. It loads the photo and its starting mask, redraws when the brush settings or the canvas's
//! size change, and hands key presses to `keyboard` and toolbar actions to the handle.

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_mask::Mask;

use super::canvas::MaskLayer;
use super::editing::EditorState;
use super::element::Studio;
use super::footer::MaskFooter;
use super::handle::{Editor, EditorCore, Photo};
use super::keyboard;
use super::load::{self, THRESHOLD};
use super::problem::Problem;
use super::settings::BrushSettings;
use super::stage::MaskStage;
use super::toolbar::MaskToolbar;
use crate::hooks::use_resize_observer::use_resize_observer;

#[component]
pub fn MaskEditor(
    /// The photo whose mask is edited.
    #[prop(into)]
    image_url: String,
    /// Start from this analysis mask (white = furniture) instead of an empty one.
    start_from: Option<String>,
    /// The studio around the editor: analysis, upload, and where the mask goes.
    studio: Studio,
) -> impl IntoView {
    let settings = BrushSettings::new();
    let editor = Editor::new(settings);
    load_photo(editor, image_url.clone(), start_from);

    // the canvas follows its box (window resized, phone turned): its backing store is sized on the next draw
    use_resize_observer(editor.canvas, move || editor.redraw());
    Effect::new(move |_| {
        let colour = settings.colour_bytes();
        editor.with(|core| core.layer.set_colour(&core.state.mask, colour));
        editor.redraw();
    });
    Effect::new(move |_| {
        settings.opacity.track();
        settings.panning.track();
        settings.size.track();
        editor.redraw();
    });

    let can_undo = Signal::derive(move || editor.track_mask(Mask::can_undo).unwrap_or(false));
    let can_redo = Signal::derive(move || editor.track_mask(Mask::can_redo).unwrap_or(false));

    view! {
        <div
            class="vstage-mask-editor"
            on:keydown=move |ev| keyboard::pressed(editor, &ev)
            on:keyup=move |ev| keyboard::released(editor, &ev)
        >
            <MaskToolbar settings can_undo can_redo zoom=editor.zoom on_action=move |action| editor.act(action) />
            <MaskStage editor />
            <MaskFooter editor image_url studio />
        </div>
    }
}

/// Loads the photo, then the starting mask (an empty one when there is none or it cannot be read, which the
/// footer's notice says), and hands them to the editor.
fn load_photo(editor: Editor, image_url: String, start_from: Option<String>) {
    let settings = editor.settings;
    spawn_local(async move {
        let outcome = async {
            let photo = load::image(&image_url, false).await?;
            let (width, height) = load::size(&photo);
            let analysis = match start_from {
                Some(url) => load::mask_pixels(&url, width, height)
                    .await
                    .and_then(|rgba| Ok(Mask::from_rgba(width, height, &rgba, THRESHOLD)?))
                    .inspect_err(|problem| editor.notice.set(Some(problem.clone())))
                    .ok(),
                None => None,
            };
            let mask = match analysis {
                Some(mask) => mask,
                None => Mask::new(width, height)?,
            };
            let mut layer = MaskLayer::new(width, height, settings.colour_bytes())?;
            layer.repaint(&mask);
            Ok::<_, Problem>((EditorCore { state: EditorState::new(mask), layer, photo }, width, height))
        }
        .await;
        match outcome {
            Ok((core, width, height)) => {
                if editor.start(core) {
                    settings.fit_photo(width, height);
                }
            }
            Err(problem) => {
                let _ = editor.photo.try_set(Photo::Failed(problem));
            }
        }
    });
}
