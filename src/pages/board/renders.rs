//! The board's renders, once it has any: the tools that act on them, one overall bar, and a row each.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::overall::OverallProgress;
use super::row::BoardRow;
use super::state::BoardState;
use super::tools::BoardTools;
use crate::locale::use_locale;

#[component]
pub fn BoardRenders(
    state: BoardState,
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
    view! {
        <Show when=move || !state.entries.with(Vec::is_empty)>
            <section class="vstage-board__renders" aria-labelledby="vstage-board-renders">
                <div class="vstage-page__head">
                    <h2 id="vstage-board-renders">{move || td_string!(locale.get(), board.renders_title)}</h2>
                    <BoardTools selected progress on_add_to_selected on_clear />
                </div>
                <OverallProgress progress />
                <ul class="vstage-board__rows">
                    <For each=move || state.entries.get() key=|entry| entry.render_id.clone() let:entry>
                        <BoardRow row=state.row(&entry.render_id) entry on_remove />
                    </For>
                </ul>
            </section>
        </Show>
    }
}
