//! The question before a large request is sent: what creating the waiting photos' renders will use and what will
//! be left, "Create N renders" to go ahead and "Not now". It takes the focus when it appears, so that the agent
//! reads it before anything is spent.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::usage::Cost;

use crate::account::use_account;
use crate::components::cost_note::cost_words;
use crate::hooks::use_focus_after::use_focus_after;
use crate::locale::use_locale;
use crate::plural;

#[component]
pub fn AskFirst(
    /// Whether the question is asked.
    asking: RwSignal<bool>,
    /// What the request will use.
    #[prop(into)]
    cost: Signal<Cost>,
    /// How many renders it creates.
    #[prop(into)]
    renders: Signal<usize>,
    #[prop(into)] on_yes: Callback<()>,
) -> impl IntoView {
    let (account, locale) = (use_account(), use_locale());
    use_focus_after(move || asking.get(), "vstage-board-ask");
    let question = move || {
        let allowance = account.allowance().and_then(Result::ok);
        format!(
            "{} {}",
            cost_words(locale.get(), allowance.as_ref(), cost.get()),
            td_string!(locale.get(), board.ask_go)
        )
    };
    view! {
        <Show when=move || asking.get()>
            <div class="vstage-ask" role="group" aria-labelledby="vstage-board-ask">
                <p id="vstage-board-ask" tabindex="-1">{question}</p>
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button" on:click=move |_| on_yes.run(())>
                        {move || {
                            let n = renders.get();
                            plural!(locale.get(), n, board.waiting_create_singular, board.waiting_create_plural, count = n)
                        }}
                    </button>
                    <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| asking.set(false)>
                        {move || td_string!(locale.get(), board.ask_cancel)}
                    </button>
                </div>
            </div>
        </Show>
    }
}
