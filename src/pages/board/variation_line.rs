//! One unfinished or failed variation of a board row: what it is, its status, its ETA while it works, or why it
//! failed.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{Variation, VariationStatus};

use super::model::what_it_is;
use crate::components::eta_bar::EtaBar;
use crate::describe;
use crate::locale::use_locale;

#[component]
pub fn VariationStatusLine(variation: Variation, #[prop(into)] now: Signal<i64>) -> impl IntoView {
    let locale = use_locale();
    let status = variation.status.clone();
    let pending = status.is_in_progress();
    let eta = variation.eta.as_ref().map(|eta| eta.millis()).filter(|_| pending);
    let start = variation.created_at.millis();
    view! {
        <li class="vstage-board__variation" data-status=status.as_str().to_string()>
            <span>{
                let variation = variation.clone();
                move || td_string!(locale.get(), board.row_what, what = what_it_is(locale.get(), &variation))
            }</span>
            <strong>{let status = status.clone(); move || describe::status(locale.get(), &status)}</strong>
            {eta.map(|eta| view! { <EtaBar start eta now /> })}
            {variation.error_message.clone().filter(|_| status == VariationStatus::Error).map(|message| view! { <span class="vstage-error">{message}</span> })}
        </li>
    }
}
