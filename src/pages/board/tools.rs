//! The tools over the board's renders: more variations for the selected ones, every finished image as one ZIP, and
//! starting a new board.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::Progress;
use crate::api::{Token, use_api, use_token, with_access_token};
use crate::locale::use_locale;

#[component]
pub fn BoardTools(
    /// The selected renders, each with its label.
    #[prop(into)]
    selected: Signal<Vec<(String, String)>>,
    #[prop(into)] progress: Signal<Progress>,
    #[prop(into)] on_add_to_selected: Callback<Vec<(String, String)>>,
    #[prop(into)] on_clear: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let download = zip_address();
    view! {
        <div class="vstage-page__tools">
            <button type="button" class="vstage-button vstage-button--secondary"
                disabled=move || selected.with(Vec::is_empty)
                on:click=move |_| on_add_to_selected.run(selected.get())>
                {move || td_string!(locale.get(), board.add_to_selected, count = selected.with(Vec::len))}
            </button>
            <Show when=move || progress.with(|progress| progress.done > 0)>
                <a class="vstage-button vstage-button--secondary vstage-download" href=download download>
                    {move || td_string!(locale.get(), board.download_all)}
                </a>
            </Show>
            <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| on_clear.run(())>
                {move || td_string!(locale.get(), board.start_new)}
            </button>
        </div>
    }
}

/// Every finished image on the board in one ZIP, streamed by the server (a link: the browser saves it as it
/// arrives).
fn zip_address() -> Signal<String> {
    let base = use_api().base_url().to_string();
    let token = use_token();
    Signal::derive(move || {
        with_access_token(format!("{base}/board/results.zip"), token.as_ref().and_then(Token::get).as_deref())
    })
}
