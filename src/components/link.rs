//! A link to a screen of the studio: a real `<a>` (focusable, announced as a link, `aria-current` on the screen
//! shown) whose click moves the studio in memory instead of loading a page of the host.

use leptos::prelude::*;
use web_sys::MouseEvent;

use crate::route::{History, Route, use_navigator};

#[component]
pub fn Link(
    to: Route,
    #[prop(optional, into)] class: Option<String>,
    /// The `::part()` name a host styles it by, for the parts `docs/embedding.md` documents.
    #[prop(optional)]
    part: Option<&'static str>,
    children: Children,
) -> impl IntoView {
    let navigator = use_navigator();
    let href = to.path();
    let current = {
        let to = to.clone();
        move || navigator.is_current(&to).then_some("page")
    };
    let on_click = move |event: MouseEvent| {
        // On the standalone page a modified click opens a new tab as any link does; embedded, the path is not
        // the host's, so every click stays in the widget.
        let modified =
            event.ctrl_key() || event.meta_key() || event.shift_key() || event.alt_key() || event.button() != 0;
        if modified && navigator.history() == History::Address {
            return;
        }
        event.prevent_default();
        navigator.go(to.clone());
    };
    // A middle click would open the host's own page at this path.
    let on_auxclick = move |event: MouseEvent| {
        if navigator.history() == History::Memory {
            event.prevent_default();
        }
    };
    view! {
        <a href=href class=class part=part aria-current=current on:click=on_click on:auxclick=on_auxclick>
            {children()}
        </a>
    }
}
