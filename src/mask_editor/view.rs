//! The mask editor: the toolbar, the stage (the photo with the mask over it on a canvas) and the footer, around
//! one `Editor` handle. It loads the photo and its starting mask, and turns keyboard shortcuts and toolbar
//! actions into edits.

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_mask::Mask;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use super::canvas::MaskLayer;
use super::editing::EditorState;
use super::element::Studio;
use super::footer::{MaskFooter, THRESHOLD};
use super::handle::{Editor, EditorCore, Photo};
use super::load;
use super::problem::Problem;
use super::settings::BrushSettings;
use super::shortcuts::{STEP, Shortcut, shortcut};
use super::stage::MaskStage;
use super::toolbar::{Action, MaskToolbar};
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

    let run = move |action: Action| {
        let canvas = editor.canvas.get_untracked();
        let fitted = canvas.map(|c| (f64::from(c.client_width()), f64::from(c.client_height())));
        let edited = editor.with(|core| {
            let state = &mut core.state;
            let rect = match action {
                Action::Undo => state.mask.undo(),
                Action::Redo => state.mask.redo(),
                Action::Clear => state.mask.clear(),
                Action::Invert => state.mask.invert(),
                Action::Fill => state.mask.fill(),
                Action::ZoomIn => return state.zoom(STEP, None),
                Action::ZoomOut => return state.zoom(1.0 / STEP, None),
                Action::Fit => return state.fit(fitted.unwrap_or((800.0, 600.0))),
            };
            state.changed(rect);
        });
        let history = matches!(action, Action::Undo | Action::Redo | Action::Clear | Action::Invert | Action::Fill);
        if edited.is_some() && history { editor.edited() } else { editor.redraw() }
    };

    let on_key = move |ev: KeyboardEvent| {
        // typing in a text field is not a shortcut
        let typing = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .is_some_and(|input| !matches!(input.type_().as_str(), "range" | "color" | "checkbox" | "radio"));
        if typing {
            return;
        }
        let Some(shortcut) = shortcut(&ev.key(), ev.ctrl_key() || ev.meta_key(), ev.shift_key()) else { return };
        // arrows are the canvas's (a slider or a list keeps its own); space paints with the keyboard brush
        let on_canvas = ev.target().is_some_and(|target| target.has_type::<web_sys::HtmlCanvasElement>());
        // space presses a focused button or link, as everywhere else
        let on_control = ev.target().is_some_and(|target| {
            target.has_type::<web_sys::HtmlButtonElement>() || target.has_type::<web_sys::HtmlAnchorElement>()
        });
        match shortcut {
            Shortcut::MoveBrush(..) if !on_canvas => return,
            Shortcut::Pan if on_control => return,
            Shortcut::MoveBrush(across, down) => {
                ev.prevent_default();
                editor.with(|core| core.state.key_move((across, down), settings.brush()));
                return editor.redraw();
            }
            Shortcut::Pan if on_canvas && editor.read(|core| core.state.keyboard_brush()) == Some(true) => {
                ev.prevent_default();
                if !ev.repeat() {
                    editor.with(|core| core.state.key_paint(settings.brush()));
                    editor.redraw();
                }
                return;
            }
            _ => {}
        }
        ev.prevent_default();
        let action = match shortcut {
            Shortcut::Undo => Action::Undo,
            Shortcut::Redo => Action::Redo,
            Shortcut::ZoomIn => Action::ZoomIn,
            Shortcut::ZoomOut => Action::ZoomOut,
            Shortcut::Fit => Action::Fit,
            brush_only => return settings.apply(brush_only),
        };
        run(action);
    };
    let on_key_up = move |ev: KeyboardEvent| {
        if ev.key() == " " {
            settings.panning.set(false);
            if editor.with(|core| core.state.key_release()) == Some(true) {
                editor.edited();
            }
        }
    };

    let can_undo = Signal::derive(move || editor.track_mask(Mask::can_undo).unwrap_or(false));
    let can_redo = Signal::derive(move || editor.track_mask(Mask::can_redo).unwrap_or(false));

    view! {
        <div class="vstage-mask-editor" on:keydown=on_key on:keyup=on_key_up>
            <MaskToolbar settings can_undo can_redo zoom=editor.zoom on_action=Callback::new(run) />
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
