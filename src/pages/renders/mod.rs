//! The home screen: the account's renders, newest first (or oldest), 20 a page with "load more", each as a card.
//! On a listing's page (the element's `listing-id`) only that listing's renders. An empty account gets a call
//! to action; a failure says why and offers to try again. `state` holds the list,
//! `model` works out its queries and words, and the sections are components of their own.

mod cards;
mod head;
mod model;
mod placeholder;
mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_api::{ApiError, RenderPage};

use self::cards::RenderCards;
use self::head::RendersHead;
use self::placeholder::CardsPlaceholder;
use self::state::RendersList;
use crate::api::use_api;
use crate::components::bulk_variations::lazy_dialog;
use crate::host_reference::listing_id;
use crate::locale::use_locale;

#[component]
pub fn Renders() -> impl IntoView {
    let locale = use_locale();
    let list = RendersList::new();
    let first_page = first_page_reader(list);
    let more = next_page_reader(list);
    // The renders chosen for "Add variations to selected" while its dialog (loaded on first use) is open.
    let dialog = RwSignal::new(None::<Vec<(String, String)>>);
    let on_added = Callback::new(move |_: Vec<String>| {
        list.selection.set(Vec::new());
        first_page.refetch();
    });
    let on_close = Callback::new(move |()| dialog.set(None));
    let listing = listing_id();

    view! {
        <section class="vstage-page" aria-labelledby="vstage-renders-title">
            <RendersHead list on_add_to_selected=move |()| dialog.set(Some(list.chosen())) />
            <p class="vstage-muted" aria-live="polite">{move || {
                let listing = listing.and_then(|listing| listing.get());
                model::count_sentence(locale.get(), list.total.get(), listing.as_deref())
            }}</p>
            <CardsPlaceholder list on_retry=move |()| first_page.refetch() />
            <RenderCards list on_more=more />
            {move || dialog.get().map(|chosen| lazy_dialog(chosen, on_added, on_close))}
        </section>
    }
}

/// Reads the first page, again whenever the order or the listing changes (the resource keeps only the newest
/// request's answer), and hands each answer to the list.
fn first_page_reader(list: RendersList) -> LocalResource<Result<RenderPage, ApiError>> {
    let api = use_api();
    let listing = listing_id();
    let first_page = LocalResource::new(move || {
        let api = api.clone();
        let query = model::page_query(list.order.get(), None);
        let listing = listing.and_then(|listing| listing.get());
        list.start_first_page();
        async move { api.list_renders_of_listing(&query, listing.as_deref()).await }
    });
    Effect::new(move |_| list.first_page(first_page.get()));
    first_page
}

/// Reads the page after those shown and hands it to the list.
fn next_page_reader(list: RendersList) -> Callback<()> {
    let api = use_api();
    let listing = listing_id();
    Callback::new(move |()| {
        let api = api.clone();
        let asked = list.start_next_page();
        let listing = listing.and_then(|listing| listing.get_untracked());
        spawn_local(async move {
            let answer = api.list_renders_of_listing(&asked.query, listing.as_deref()).await;
            list.next_page(&asked, answer);
        });
    })
}
