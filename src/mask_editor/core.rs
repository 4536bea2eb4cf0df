//! The editor's browser side: the state (`state.rs`) with the photo and the coloured mask layer it is drawn with
//! (the layer updated only where the state says pixels changed), and the handle the editor's components share.

use std::sync::Arc;

use leptos::html::Canvas;
use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_mask::{Mask, MaskError};
use web_sys::{HtmlCanvasElement, HtmlImageElement};

use crate::hooks::use_animation_frame::use_animation_frame;
use crate::locale::Locale;

use super::canvas::{self, Frame, MaskLayer};
use super::settings::BrushSettings;
use super::state::{Brush, EditorState};

pub struct EditorCore {
    pub state: EditorState,
    pub layer: MaskLayer,
    pub photo: HtmlImageElement,
}

impl EditorCore {
    /// Draws the view; the photo is fitted on the first draw and whenever the canvas changes size.
    pub fn draw(&mut self, canvas: &HtmlCanvasElement, opacity: f64, brush: Brush) -> Result<(), Problem> {
        let changed = self.state.take_changes();
        self.layer.update(&self.state.mask, changed);
        let view = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
        let frame = Frame {
            photo: &self.photo,
            layer: &self.layer,
            viewport: self.state.viewport_for(view),
            opacity,
            brush: self.state.hover().filter(|_| !brush.panning).map(|(x, y)| (x, y, brush.size / 2.0)),
        };
        canvas::draw(canvas, &frame)
    }
}

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

/// Where loading the photo and its starting mask stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Photo {
    Loading,
    Ready,
    Failed(Problem),
}

/// The handle the editor's parts share: the core once the photo is loaded, the canvas it is drawn on (at most
/// once a frame), the scale it was last drawn at, and a revision that what reads the history (undo, redo,
/// coverage) follows.
#[derive(Clone, Copy)]
pub struct Editor {
    core: StoredValue<Option<EditorCore>, LocalStorage>,
    pub canvas: NodeRef<Canvas>,
    pub settings: BrushSettings,
    pub photo: RwSignal<Photo>,
    /// The view's scale (1.0: one photo pixel per CSS pixel).
    pub zoom: RwSignal<f64>,
    /// What went wrong that the agent should know (a starting mask that could not be read, a failed upload).
    pub notice: RwSignal<Option<Problem>>,
    revision: RwSignal<u64>,
    redraw: Callback<()>,
}

impl Editor {
    pub fn new(settings: BrushSettings) -> Self {
        let core = StoredValue::new_local(None::<EditorCore>);
        let canvas = NodeRef::<Canvas>::new();
        let zoom = RwSignal::new(1.0);
        let frame = use_animation_frame(move || {
            let Some(canvas) = canvas.get_untracked() else { return };
            let opacity = settings.opacity.get_untracked();
            let drawn = core.try_update_value(|core| {
                core.as_mut().map(|core| {
                    let _ = core.draw(&canvas, opacity, settings.brush());
                    core.state.scale()
                })
            });
            // not on every frame of a stroke: only a new scale re-renders the readout
            if let Some(Some(scale)) = drawn
                && zoom.get_untracked() != scale
            {
                zoom.set(scale);
            }
        });
        Editor {
            core,
            canvas,
            settings,
            photo: RwSignal::new(Photo::Loading),
            zoom,
            notice: RwSignal::new(None),
            revision: RwSignal::new(0),
            redraw: Callback::new(move |()| frame()),
        }
    }

    /// The photo is ready to edit; false when the editor was closed meanwhile.
    pub fn start(&self, core: EditorCore) -> bool {
        if self.core.try_set_value(Some(core)).is_some() {
            return false;
        }
        self.photo.set(Photo::Ready);
        self.edited();
        true
    }

    /// Runs `f` on the state, when there is one (the photo is loaded and the editor still open).
    pub fn with<T>(&self, f: impl FnOnce(&mut EditorCore) -> T) -> Option<T> {
        self.core.try_update_value(|core| core.as_mut().map(f)).flatten()
    }

    /// Reads the state without changing it.
    pub fn read<T>(&self, f: impl FnOnce(&EditorCore) -> T) -> Option<T> {
        self.core.try_with_value(|core| core.as_ref().map(f)).flatten()
    }

    /// Draws on the next frame.
    pub fn redraw(&self) {
        self.redraw.run(());
    }

    /// The history changed: its readers update, and the view is drawn again.
    pub fn edited(&self) {
        self.revision.try_update(|n| *n += 1);
        self.redraw();
    }

    /// Reads the mask and follows its history.
    pub fn track_mask<T>(&self, f: impl FnOnce(&Mask) -> T) -> Option<T> {
        self.revision.track();
        self.read(|core| f(&core.state.mask))
    }

    pub fn ready(&self) -> bool {
        self.photo.get() == Photo::Ready
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
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

    #[test]
    fn the_studio_s_sentences_are_shown_as_given() {
        assert_eq!(Problem::Said("Die Datei fehlt.".into()).sentence(Locale::de), "Die Datei fehlt.");
        assert_eq!(
            Problem::Missing("upload".into()).sentence(Locale::en),
            "The mask editor was not given `upload` by the studio; reload the page."
        );
        assert_ne!(Problem::Closed.sentence(Locale::fr), Problem::Closed.sentence(Locale::en));
    }
}
