//! The classic renders: the subject's v1 renders as `vstage serve` recorded them (v1 cannot list), newest first,
//! 20 a page, each with its newest image, status and number of images; on a listing's page (the element's
//! `listing-id`) only that listing's, said so and read again when it changes. `state` holds the list, `model` works out
//! its query and pictures, and the sections are components of their own.

mod card;
mod empty;
mod failure;
mod head;
mod model;
mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;

use self::card::ClassicCard;
use self::empty::NoClassicRenders;
use self::failure::ListFailure;
use self::head::ClassicListHead;
use self::state::ClassicList;
use crate::api::use_api;
use crate::components::pager::Pager;
use crate::locale::use_locale;

#[component]
pub fn ClassicRenders() -> impl IntoView {
    let locale = use_locale();
    let list = ClassicList::new();
    let read = page_reader(list);
    // the first page, and again for another listing (the element's `listing-id`)
    let listing = crate::host_reference::listing_id();
    Effect::new(move |_| {
        if let Some(listing) = listing {
            listing.track();
        }
        read.run(false);
    });
    let ClassicList { renders, cursor, loading, failure, .. } = list;
    view! {
        <section class="vstage-page" aria-labelledby="vstage-classic-title">
            <ClassicListHead />
            <p class="vstage-hint">{move || td_string!(locale.get(), classic.list_intro)}</p>
            {move || listing.and_then(|listing| listing.get()).map(|listing| view! {
                <p class="vstage-muted">{move || td_string!(locale.get(), classic.list_of_listing, listing = listing.clone())}</p>
            })}
            <ListFailure failure on_retry=move |()| read.run(false) />
            <Show when=move || list.none_found()>
                <NoClassicRenders />
            </Show>
            <ul class="vstage-cards">
                <For each=move || renders.get() key=|render| render.render_id.clone() let:render>
                    <ClassicCard render />
                </For>
            </ul>
            <Pager
                has_more=Signal::derive(move || cursor.get().is_some())
                loading
                shown=Signal::derive(move || renders.with(Vec::len))
                on_more=move |()| read.run(true)
            />
        </section>
    }
}

/// Reads a page and hands it to the list: the first again, or with `more` the one after those shown.
fn page_reader(list: ClassicList) -> Callback<bool> {
    let api = use_api();
    let listing = crate::host_reference::listing_id();
    Callback::new(move |more: bool| {
        let api = api.clone();
        let asked = list.start_reading(more);
        let listing = listing.and_then(|listing| listing.get_untracked());
        spawn_local(async move { list.read(&asked, api.v1_list_renders(&asked.query, listing.as_deref()).await) });
    })
}
