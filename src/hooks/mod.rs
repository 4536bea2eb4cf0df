//! Reactive helpers over browser APIs, one per file, as leptos-use shapes them: each ties a browser callback to the
//! component's life and cleans up after itself.

pub mod use_animation_frame;
pub mod use_focus_after;
pub mod use_polling;
pub mod use_resize_observer;
