//! The home screen: the account's renders, newest first (or oldest), 20 a page with "load more", each as a card.
//! An empty account gets a call to action; a failure says why and offers to try again.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::{ApiError, ListRenders, Render, SortOrder};

use crate::api::use_api;
use crate::chunks::{chunk, screen};
use crate::clock::use_now;
use crate::components::bulk_variations::BulkVariations;
use crate::components::link::Link;
use crate::components::pager::Pager;
use crate::components::render_card::RenderCard;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::pages::board::model::label_of;
use crate::plural;
use crate::route::Route;

pub const PAGE_SIZE: u32 = 20;

#[derive(Debug, Clone, PartialEq)]
enum Loading {
    First,
    More,
    Idle,
    /// Put in words when shown.
    Failed(ApiError),
}

#[component]
pub fn Renders() -> impl IntoView {
    let api = use_api();
    let now = use_now();
    let locale = use_locale();
    let order = RwSignal::new(SortOrder::Desc);
    // The first page, read again when the order changes: the resource keeps only the newest request's answer.
    let first_page = {
        let api = api.clone();
        LocalResource::new(move || {
            let api = api.clone();
            let query = ListRenders { limit: Some(PAGE_SIZE), cursor: None, order: Some(order.get()) };
            async move { api.list_renders(&query).await }
        })
    };
    // The pages after it, and where the next one starts.
    let renders = RwSignal::new(Vec::<Render>::new());
    let cursor = RwSignal::new(None::<String>);
    let total = RwSignal::new(None::<u64>);
    let state = RwSignal::new(Loading::First);
    Effect::new(move |_| match first_page.get() {
        None => state.set(Loading::First),
        Some(Ok(page)) => {
            renders.set(page.items);
            cursor.set(page.next_cursor);
            total.set(page.total_count);
            state.set(Loading::Idle);
        }
        Some(Err(error)) => {
            renders.set(Vec::new());
            state.set(Loading::Failed(error));
        }
    });
    let retry = move |_| first_page.refetch();
    // Renders chosen for "Add variations to selected" (the dialog loads on first use).
    let selection = RwSignal::new(Vec::<String>::new());
    let dialog = RwSignal::new(None::<Vec<(String, String)>>);
    let open_dialog = move |_| {
        let chosen = selection.get_untracked();
        let named = renders.with_untracked(|list| {
            list.iter().filter(|r| chosen.contains(&r.id)).map(|r| (r.id.clone(), render_name(r))).collect()
        });
        dialog.set(Some(named));
    };
    let on_added = Callback::new(move |_: Vec<String>| {
        selection.set(Vec::new());
        first_page.refetch();
    });
    let on_close = Callback::new(move |()| dialog.set(None));
    let more = Callback::new(move |()| {
        let api = api.clone();
        let asked = order.get_untracked();
        let query = ListRenders { limit: Some(PAGE_SIZE), cursor: cursor.get_untracked(), order: Some(asked) };
        state.set(Loading::More);
        spawn_local(async move {
            let result = api.list_renders(&query).await;
            // A page of the other order is no page of this list.
            if order.get_untracked() != asked {
                return;
            }
            match result {
                Ok(page) => {
                    renders.update(|list| list.extend(page.items));
                    cursor.set(page.next_cursor);
                    total.set(page.total_count);
                    state.set(Loading::Idle);
                }
                Err(error) => state.set(Loading::Failed(error)),
            }
        });
    });

    view! {
        <section class="vstage-page" aria-labelledby="vstage-renders-title">
            <div class="vstage-page__head">
                <ScreenHeading id="vstage-renders-title">{move || td_string!(locale.get(), studio.renders_title)}</ScreenHeading>
                <div class="vstage-page__tools">
                    <label class="vstage-inline">
                        {move || td_string!(locale.get(), studio.renders_order)}
                        " "
                        <select id="vstage-order" on:change=move |ev| {
                            order.set(if event_target_value(&ev) == "asc" { SortOrder::Asc } else { SortOrder::Desc })
                        }>
                            <option value="desc" selected=move || order.get() == SortOrder::Desc>{move || td_string!(locale.get(), studio.renders_newest_first)}</option>
                            <option value="asc" selected=move || order.get() == SortOrder::Asc>{move || td_string!(locale.get(), studio.renders_oldest_first)}</option>
                        </select>
                    </label>
                    <button
                        type="button"
                        class="vstage-button vstage-button--secondary"
                        disabled=move || selection.with(Vec::is_empty)
                        on:click=open_dialog
                    >
                        {move || td_string!(locale.get(), studio.renders_add_to_selected, count = selection.with(Vec::len))}
                    </button>
                    <Link to=Route::NewRender class="vstage-button" part="primary-button">{move || td_string!(locale.get(), studio.new_render)}</Link>
                </div>
            </div>
            <p class="vstage-muted" aria-live="polite">
                {move || total.get().map(|total| match total {
                    0 => String::new(),
                    n => plural!(locale.get(), n, studio.renders_count_singular, studio.renders_count_plural, count = n),
                })}
            </p>
            {move || match (state.get(), renders.with(Vec::is_empty)) {
                (Loading::First, _) => view! {
                    <ul class="vstage-cards" aria-busy="true" aria-label=move || td_string!(locale.get(), studio.renders_loading)>
                        {(0..6).map(|_| view! { <li class="vstage-card vstage-card--skeleton vstage-skeleton"></li> }).collect_view()}
                    </ul>
                }.into_any(),
                (Loading::Failed(error), true) => view! {
                    <div class="vstage-panel vstage-panel--error" role="alert">
                        <h2>{move || td_string!(locale.get(), studio.renders_load_failed)}</h2>
                        <p>{move || api_error(locale.get(), &error)}</p>
                        <button class="vstage-button" on:click=retry>{move || td_string!(locale.get(), common.try_again)}</button>
                    </div>
                }.into_any(),
                (Loading::Idle, true) => view! {
                    <div class="vstage-empty">
                        <h2>{move || td_string!(locale.get(), studio.renders_empty_title)}</h2>
                        <p>{move || td_string!(locale.get(), studio.renders_empty_text)}</p>
                        <Link to=Route::NewRender class="vstage-button">{move || td_string!(locale.get(), studio.renders_create_first)}</Link>
                    </div>
                }.into_any(),
                _ => ().into_any(),
            }}
            <Show when=move || state.get() != Loading::First && !renders.with(Vec::is_empty)>
                <ul class="vstage-cards">
                    <For each=move || renders.get() key=|render| render.id.clone() let:render>
                        <RenderCard render now selection />
                    </For>
                </ul>
                {move || match state.get() {
                    Loading::Failed(error) => Some(view! { <p class="vstage-error" role="alert">{move || api_error(locale.get(), &error)}</p> }),
                    _ => None,
                }}
                <Pager
                    has_more=Signal::derive(move || cursor.get().is_some())
                    loading=Signal::derive(move || state.get() == Loading::More)
                    shown=Signal::derive(move || renders.with(Vec::len))
                    on_more=more
                />
            </Show>
            {move || dialog.get().map(|chosen| screen(move || Box::pin(bulk_variations_dialog(chosen.clone(), on_added, on_close))))}
        </section>
    }
}

/// How a render is named in the dialog: its photo's file name, else its id.
fn render_name(render: &Render) -> String {
    let photo = render.image_url.as_deref().filter(|url| !url.starts_with("data:"));
    photo.map(label_of).map_or_else(|| render.id.clone(), |name| format!("{name} ({})", render.id))
}

chunk! {
    fn bulk_variations_dialog(
        chosen: Vec<(String, String)>,
        on_added: Callback<Vec<String>>,
        on_close: Callback<()>,
    ) -> AnyView {
        view! { <BulkVariations chosen on_added on_close /> }.into_any()
    }
}
