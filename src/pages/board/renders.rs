//! The board's renders, once it has any: the tools that act on them, one overall bar, and a row each. Renders just
//! created are brought to the eye with the bar once the board lists them.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::overall::OverallProgress;
use super::row::BoardRow;
use super::state::BoardState;
use super::tools::BoardTools;
use crate::hooks::use_focus_after::focus_after_next_frame;
use crate::locale::use_locale;
use crate::studio_root::StudioRoot;

#[component]
pub fn BoardRenders(
    state: BoardState,
    /// The renders just created, until the board lists them; then emptied, and they are shown.
    awaited: RwSignal<Vec<String>>,
    /// Called with the selected renders (id and label), to add variations to them.
    #[prop(into)]
    on_add_to_selected: Callback<Vec<(String, String)>>,
    /// Called to start a new board.
    #[prop(into)]
    on_clear: Callback<()>,
    /// Called when the person takes a render off the board.
    #[prop(into)]
    on_remove: Callback<String>,
) -> impl IntoView {
    let locale = use_locale();
    let progress = Memo::new(move |_| state.progress());
    let selected = Memo::new(move |_| state.selected());
    show_when_listed(state, awaited);
    view! {
        <section class="vstage-board__renders" aria-labelledby="vstage-board-renders">
            <div class="vstage-page__head">
                <h2 id="vstage-board-renders" tabindex="-1">{move || td_string!(locale.get(), board.renders_title)}</h2>
                <BoardTools selected progress on_add_to_selected on_clear />
            </div>
            <OverallProgress progress />
            <ul class="vstage-board__rows">
                <For each=move || state.entries.get() key=|entry| entry.render_id.clone() let:entry>
                    <BoardRow row=state.row(&entry.render_id) entry on_remove />
                </For>
            </ul>
        </section>
    }
}

/// Once the board lists every render in `awaited`, its heading takes the focus at the top of the view, the overall
/// bar under it: the photos sent have left the section above, and the view would otherwise be left on whatever is
/// there now (on a phone, the empty "Add photos"). This section's code comes with the first render on the board, so
/// it may be drawn with them already listed: that counts as well.
fn show_when_listed(state: BoardState, awaited: RwSignal<Vec<String>>) {
    let root = use_context::<StudioRoot>();
    Effect::new(move |_| {
        let listed = awaited.with(|ids| {
            !ids.is_empty()
                && state.entries.with(|list| ids.iter().all(|id| list.iter().any(|entry| &entry.render_id == id)))
        });
        if listed {
            awaited.set(Vec::new());
            focus_after_next_frame(root.clone(), "vstage-board-renders", true);
        }
    });
}
