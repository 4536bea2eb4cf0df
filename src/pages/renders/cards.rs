//! The renders read so far as cards (each with its box for the selection), why the next page could not be read,
//! and "load more" while there is more.

use leptos::prelude::*;

use super::model::Loading;
use super::state::RendersList;
use crate::clock::use_now;
use crate::components::pager::Pager;
use crate::components::render_card::RenderCard;
use crate::locale::errors::api_error;
use crate::locale::use_locale;

#[component]
pub fn RenderCards(
    list: RendersList,
    /// Reads the next page.
    #[prop(into)]
    on_more: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let now = use_now();
    let RendersList { renders, cursor, loading, selection, .. } = list;
    view! {
        <Show when=move || list.has_cards()>
            <ul class="vstage-cards">
                <For each=move || renders.get() key=|render| render.id.clone() let:render>
                    <RenderCard render now selection />
                </For>
            </ul>
            {move || match loading.get() {
                Loading::Failed(error) => Some(view! { <p class="vstage-error" role="alert">{move || api_error(locale.get(), &error)}</p> }),
                _ => None,
            }}
            <Pager
                has_more=Signal::derive(move || cursor.get().is_some())
                loading=Signal::derive(move || loading.get() == Loading::More)
                shown=Signal::derive(move || renders.with(Vec::len))
                on_more
            />
        </Show>
    }
}
