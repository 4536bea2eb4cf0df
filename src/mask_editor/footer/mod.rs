//! The editor's footer: how much of the photo is marked, what is under way or went wrong, and the way out: cancel,
//! "Detect furniture" and "Use this mask". `state` does the work that goes through the studio, `model` words it,
//! and the buttons are a component of their own.

mod actions;
mod model;
mod state;

use leptos::prelude::*;

use self::actions::FooterActions;
use self::state::FooterState;
use super::element::Studio;
use super::handle::Editor;
use crate::locale::use_locale;

#[component]
pub fn MaskFooter(
    editor: Editor,
    /// The photo whose mask is edited.
    image_url: String,
    studio: Studio,
) -> impl IntoView {
    let locale = use_locale();
    let work = FooterState::new(editor);
    let busy = work.busy;
    let notice = editor.notice;
    view! {
        <div class="vstage-mask-footer">
            <p class="vstage-hint vstage-mask-coverage" aria-live="polite">
                {move || editor.track_mask(|mask| mask.percentage()).map(|share| model::coverage(locale.get(), share))}
            </p>
            {move || notice.get().map(|problem| view! { <p class="vstage-error" role="alert">{move || problem.sentence(locale.get())}</p> })}
            {move || busy.get().map(|busy| view! { <p class="vstage-hint" aria-busy="true">{move || busy.sentence(locale.get())}</p> })}
            <FooterActions work image_url studio />
        </div>
    }
}
