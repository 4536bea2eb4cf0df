//! `use_animation_frame`: a function that asks for `work` on the next animation frame, at most once a frame however
//! often it is called (many pointer events, one draw).

use leptos::prelude::*;

/// Returns the scheduler: calling it runs `work` on the next frame, unless a run is already waiting for it.
pub fn use_animation_frame(work: impl Fn() + 'static) -> impl Fn() + Copy + Send + Sync + 'static {
    let work = StoredValue::new_local(Box::new(work) as Box<dyn Fn()>);
    let pending = StoredValue::new_local(false);
    move || {
        if pending.try_get_value().unwrap_or(true) {
            return;
        }
        pending.set_value(true);
        request_animation_frame(move || {
            // The component may have gone in the meantime: then there is nothing to do.
            if pending.try_set_value(false).is_none() {
                work.try_with_value(|work| work());
            }
        });
    }
}
