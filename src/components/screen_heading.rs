//! A screen's heading, which takes the focus when the screen is new (a link followed, a render created), so that
//! a keyboard or screen-reader user is not left on a control that is gone and hears where they are.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Whether the next heading to appear should take the focus, and the last one that did; provided by the studio.
#[derive(Clone, Copy)]
pub struct ScreenFocus {
    pending: RwSignal<bool>,
    last: StoredValue<Option<send_wrapper::SendWrapper<web_sys::HtmlElement>>>,
}

impl ScreenFocus {
    /// Provides it; the first screen leaves the focus where the host page has it.
    pub fn provide() -> ScreenFocus {
        let focus = ScreenFocus { pending: RwSignal::new(false), last: StoredValue::new(None) };
        provide_context(focus);
        focus
    }

    /// A new screen is coming: its heading takes the focus.
    pub fn screen_changed(&self) {
        self.pending.set(true);
    }

    /// Focuses `heading` if a new screen asked for it, or if the heading that had the focus was replaced (a
    /// screen's loading heading by its loaded one) and the focus went nowhere.
    fn claim(&self, heading: &web_sys::HtmlElement) {
        let replaced = self.last.with_value(|last| last.as_ref().is_some_and(|last| !last.is_connected()));
        let nowhere = heading
            .get_root_node()
            .dyn_into::<web_sys::ShadowRoot>()
            .map_or(true, |root| root.active_element().is_none());
        if self.pending.get_untracked() || (replaced && nowhere) {
            let _ = heading.focus();
            self.pending.set(false);
            self.last.set_value(Some(send_wrapper::SendWrapper::new(heading.clone())));
        }
    }
}

#[component]
pub fn ScreenHeading(
    /// The heading's id, which the screen's region may be labelled by.
    id: &'static str,
    /// Extra classes (a skeleton while loading).
    #[prop(optional)]
    class: &'static str,
    children: Children,
) -> impl IntoView {
    let heading = NodeRef::<leptos::html::H1>::new();
    if let Some(focus) = use_context::<ScreenFocus>() {
        Effect::new(move |_| {
            if let Some(element) = heading.get() {
                focus.claim(&element);
            }
        });
    }
    view! {
        <h1 id=id class=class tabindex="-1" node_ref=heading>
            {children()}
        </h1>
    }
}
