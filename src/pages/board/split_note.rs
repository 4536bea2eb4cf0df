//! When the agent's allowance cannot cover every waiting photo: which can be created now and which wait (by name),
//! what creating those uses and leaves, and "Create the N that fit". The cost note above it says why, and where
//! more photos come from.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::usage::Cost;

use super::create::checking_words;
use super::photos::BoardPhotos;
use super::split::AllowanceSplit;
use crate::account::use_account;
use crate::components::cost_note::cost_words;
use crate::locale::use_locale;
use crate::plural;

#[component]
pub fn SplitNote(
    /// How the allowance splits the waiting photos, when it cannot cover them all.
    #[prop(into)]
    split: Signal<Option<AllowanceSplit>>,
    /// What creating the photos that fit uses.
    #[prop(into)]
    cost: Signal<Cost>,
    #[prop(into)] sending: Signal<bool>,
    /// The photos, which are not created before their furniture is known.
    photos: BoardPhotos,
    /// Called with the keys of the photos that fit.
    #[prop(into)]
    on_create: Callback<Vec<u32>>,
) -> impl IntoView {
    let (account, locale) = (use_account(), use_locale());
    let names = |named: &[(u32, String)]| named.iter().map(|(_, name)| name.as_str()).collect::<Vec<_>>().join(", ");
    let words = move || {
        let split = split.get()?;
        let locale = locale.get();
        let allowance = account.allowance().and_then(Result::ok);
        let fit = td_string!(locale, board.split_fit, names = names(&split.fit));
        let wait = td_string!(locale, board.split_wait, names = names(&split.wait));
        Some(format!("{fit} {wait} {}", cost_words(locale, allowance.as_ref(), cost.get())))
    };
    let fitting = move || split.with(|split| split.as_ref().map_or(0, |split| split.fit.len()));
    view! {
        <Show when=move || { fitting() > 0 }>
            <div class="vstage-ask" role="group" aria-labelledby="vstage-board-split">
                <p id="vstage-board-split">{words}</p>
                <div class="vstage-form__actions">
                    <button
                        type="button"
                        class="vstage-button"
                        disabled=move || sending.get() || (photos.checking() > 0)
                        on:click=move |_| {
                            if let Some(split) = split.get_untracked() {
                                on_create.run(split.fit_keys());
                            }
                        }
                    >
                        {move || match (photos.checking(), fitting()) {
                            (0, n) => plural!(locale.get(), n, board.create_fitting_singular, board.create_fitting_plural, count = n),
                            (n, _) => checking_words(locale.get(), n),
                        }}
                    </button>
                </div>
            </div>
        </Show>
    }
}
