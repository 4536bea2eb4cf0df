//! The editor's browser side: the editing state (`editing.rs`) with the photo and the coloured mask layer it is
//! drawn with (the layer updated only where the state says pixels changed), and the handle the editor's components
//! share.

use leptos::html::Canvas;
use leptos::prelude::*;
use vstage_mask::Mask;
use web_sys::{HtmlCanvasElement, HtmlImageElement};

use crate::hooks::use_animation_frame::use_animation_frame;

use super::canvas::{self, Frame, MaskLayer};
use super::editing::{Action, Brush, EditorState};
use super::problem::Problem;
use super::settings::BrushSettings;

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

    /// Carries out a toolbar button or a shortcut and draws again; an edit also updates what follows the history.
    pub fn act(&self, action: Action) {
        let canvas = self.canvas.get_untracked();
        let fitted = canvas.map(|c| (f64::from(c.client_width()), f64::from(c.client_height())));
        let acted = self.with(|core| core.state.act(action, fitted.unwrap_or((800.0, 600.0))));
        if acted.is_some() && action.edits_history() { self.edited() } else { self.redraw() }
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
