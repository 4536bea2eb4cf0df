//! The mask editor: the agent corrects the furniture mask with a brush before a removal. The bitmap, brush and
//! history live in `vstage-mask`; this module loads the images, shows the mask on a canvas and turns input into edits.
//! It is a chunk of the widget's wasm of its own (defining `<vstage-mask-editor>`), loaded on demand.

pub mod canvas;
pub mod editing;
pub mod element;
pub mod export;
mod footer;
pub mod handle;
mod keyboard;
mod load;
pub mod problem;
mod settings;
pub mod shortcuts;
mod stage;
mod toolbar;
mod view;
pub mod viewport;

pub use view::MaskEditor;
