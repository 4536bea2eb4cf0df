//! A row's finished results side by side, to pick the best for the listing on the board itself: "Use in listing"
//! under each (where a listing embeds the studio), handed over and recorded as on the render page, and "In the
//! listing ✓, in place of living-empty.jpg" under the one chosen. Another of the same photo takes its place.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::{Choice, choices};
use crate::listing::{ListingUse, use_in_listing};
use crate::locale::use_locale;
use crate::render_state::RenderState;

#[component]
pub fn RowChoices(
    render_id: Signal<String>,
    state: RenderState,
    /// The row's name (the photo's), which the choices are named with.
    label: String,
) -> impl IntoView {
    let locale = use_locale();
    let announcement = RwSignal::new(String::new());
    let refusal = RwSignal::new(None::<String>);
    let offered = Memo::new(move |_| state.variations.with(|list| choices(locale.get(), list)));
    let heading = format!("vstage-board-choices-{}", render_id.get_untracked());
    use_in_listing(render_id, state, announcement, refusal).map(|on_use| {
        let title = label.clone();
        let each = move |choice: Choice| view! { <RowChoice choice on_use label=label.clone() /> };
        view! {
            <Show when=move || offered.with(|list| !list.is_empty())>
                <div class="vstage-board__choosing" role="group" aria-labelledby=heading.clone()>
                    <p class="vstage-board__choices-title" id=heading.clone()>
                        {let title = title.clone(); move || td_string!(locale.get(), board.choices_title, label = &title)}
                    </p>
                    <ul class="vstage-board__choices">
                        <For each=move || offered.get() key=|choice| choice.variation_id.clone() children=each.clone() />
                    </ul>
                    <div class="vstage-visually-hidden" role="status" aria-live="polite">{move || announcement.get()}</div>
                    {move || refusal.get().map(|refused| view! { <p class="vstage-error" role="alert">{refused}</p> })}
                </div>
            </Show>
        }
    })
}

/// One result: its picture, and "Use in listing" or where it is in the listing.
#[component]
fn RowChoice(choice: Choice, on_use: ListingUse, label: String) -> impl IntoView {
    let locale = use_locale();
    let Choice { variation_id, title, thumbnail } = choice;
    let placed = {
        let id = variation_id.clone();
        move || on_use.placed(&id, 0)
    };
    let words = {
        let id = variation_id.clone();
        move || on_use.words(locale.get(), &id, 0, None)
    };
    let name = {
        let title = title.clone();
        move || td_string!(locale.get(), board.choice_use, title = &title, label = &label).to_string()
    };
    view! {
        <li class="vstage-board__choice">
            <img class="vstage-board__choice-picture" src=thumbnail alt=title loading="lazy" />
            <Show
                when=placed
                fallback=move || {
                    let id = variation_id.clone();
                    view! {
                        <button type="button" class="vstage-button vstage-button--small" part="primary-button"
                            aria-label=name.clone() on:click=move |_| on_use.choose.run((id.clone(), 0))>
                            {move || td_string!(locale.get(), studio.variation_use)}
                        </button>
                    }
                }
            >
                <p class="vstage-in-listing" role="status">{words.clone()}</p>
            </Show>
        </li>
    }
}
