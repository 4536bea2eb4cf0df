//! A board row's variations: the finished ones counted by what they are, the others one by one with their status.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Variation;

use super::model::{done_by_kind, not_done};
use super::variation_line::VariationStatusLine;
use crate::clock::use_now;
use crate::locale::use_locale;
use crate::plural;

#[component]
pub fn RowVariations(#[prop(into)] variations: Signal<Vec<Variation>>) -> impl IntoView {
    let locale = use_locale();
    let now = use_now();
    view! {
        <ul class="vstage-board__variations">
            {move || {
                let locale = locale.get();
                variations.with(|list| done_by_kind(locale, list)).into_iter().map(|(what, count)| view! {
                    <li class="vstage-board__variation" data-status="done">
                        <span>{td_string!(locale, board.row_what, what = what)}</span>
                        <strong>{plural!(locale, count, board.row_done_singular, board.row_done_plural, count = count)}</strong>
                    </li>
                }).collect_view()
            }}
            <For
                each=move || variations.with(|list| not_done(list))
                key=|v| (v.id.clone(), v.status.clone(), v.eta.as_ref().map(|eta| eta.millis()))
                let:variation
            >
                <VariationStatusLine variation now />
            </For>
        </ul>
    }
}
