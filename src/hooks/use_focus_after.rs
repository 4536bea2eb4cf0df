//! Brings what an action produced to the eye: each time `asked` says so again (not on its first value), the element
//! of the studio with id `target` takes the focus after the next frame is drawn, which scrolls it into view. The
//! heading of the section that now shows the action's outcome is the usual target (it has `tabindex="-1"`). Found
//! by its id rather than held, so that the first load carries no handle for another kind of element.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::studio_root::StudioRoot;

pub fn use_focus_after(asked: impl Fn() -> bool + 'static, target: &'static str) {
    focus_after(asked, target, false);
}

/// The same, and the target is then scrolled to the top of the view, so that what follows it (a section's
/// progress under its heading) is seen too, on a phone as well.
pub fn use_focus_at_top(asked: impl Fn() -> bool + 'static, target: &'static str) {
    focus_after(asked, target, true);
}

fn focus_after(asked: impl Fn() -> bool + 'static, target: &'static str, at_top: bool) {
    let root = use_context::<StudioRoot>();
    Effect::new(move |ran: Option<()>| {
        if asked() && ran.is_some() {
            focus_after_next_frame(root.clone(), target, at_top);
        }
    });
}

/// The element of the studio `root` with id `target` takes the focus after the next frame is drawn (at the top of
/// the view with `at_top`): for what is focused once, as a section drawn by code fetched on first use appears.
pub fn focus_after_next_frame(root: Option<StudioRoot>, target: &'static str, at_top: bool) {
    request_animation_frame(move || {
        let found = root.and_then(|StudioRoot(root)| root.get_element_by_id(target));
        if let Some(element) = found.and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = element.focus();
            if at_top {
                element.scroll_into_view_with_bool(true);
            }
        }
    });
}
