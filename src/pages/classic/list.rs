//! The classic renders: the subject's v1 renders as `vstage serve` recorded them (v1 cannot list), newest first,
//! 20 a page, each with its newest image, status and number of images.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::{ApiError, ListRenders, SortOrder, v1};

use crate::api::use_api;
use crate::components::link::Link;
use crate::components::pager::Pager;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::plural;
use crate::route::Route;

use super::model::status_words;

const PAGE: u32 = 20;

#[component]
pub fn ClassicRenders() -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let renders = RwSignal::new(Vec::<v1::Render>::new());
    let cursor = RwSignal::new(None::<String>);
    let loading = RwSignal::new(true);
    let failure = RwSignal::new(None::<ApiError>);
    let load = move |more: bool| {
        let api = api.clone();
        let query = ListRenders {
            limit: Some(PAGE),
            cursor: if more { cursor.get_untracked() } else { None },
            order: Some(SortOrder::Desc),
        };
        loading.set(true);
        spawn_local(async move {
            match api.v1_list_renders(&query).await {
                Ok(page) => {
                    let _ = renders.try_update(|list| {
                        if !more {
                            list.clear();
                        }
                        list.extend(page.items);
                    });
                    let _ = cursor.try_set(page.next_cursor);
                    let _ = failure.try_set(None);
                }
                Err(error) => {
                    let _ = failure.try_set(Some(error));
                }
            }
            let _ = loading.try_set(false);
        });
    };
    load(false);
    let retry = load.clone();
    view! {
        <section class="vstage-page" aria-labelledby="vstage-classic-title">
            <div class="vstage-page__head">
                <ScreenHeading id="vstage-classic-title">{move || td_string!(locale.get(), classic.list_title)}</ScreenHeading>
                <div class="vstage-page__tools">
                    <Link to=Route::ClassicNew class="vstage-button" part="primary-button">
                        {move || td_string!(locale.get(), classic.list_new)}
                    </Link>
                </div>
            </div>
            <p class="vstage-hint">{move || td_string!(locale.get(), classic.list_intro)}</p>
            {move || failure.get().map(|error| {
                let retry = retry.clone();
                view! {
                    <div class="vstage-panel vstage-panel--error" role="alert">
                        <p>{move || td_string!(locale.get(), classic.list_failed, reason = api_error(locale.get(), &error))}</p>
                        <button class="vstage-button" on:click=move |_| retry(false)>
                            {move || td_string!(locale.get(), common.try_again)}
                        </button>
                    </div>
                }
            })}
            <Show when=move || !loading.get() && failure.get().is_none() && renders.with(Vec::is_empty)>
                <div class="vstage-empty">
                    <h2>{move || td_string!(locale.get(), classic.list_empty)}</h2>
                    <Link to=Route::ClassicNew class="vstage-button">{move || td_string!(locale.get(), classic.list_create_one)}</Link>
                </div>
            </Show>
            <ul class="vstage-cards">
                <For each=move || renders.get() key=|render| render.render_id.clone() let:render>
                    {
                        let newest = render.outputs.last().cloned().or_else(|| render.image_url.clone());
                        let count = render.outputs.len();
                        let status = render.status.clone();
                        view! {
                            <li class="vstage-card" part="card">
                                <Link to=Route::ClassicRender { id: render.render_id.clone() } class="vstage-card__link">
                                    {match newest {
                                        Some(src) => view! { <img class="vstage-card__thumb" src=src alt="" loading="lazy" /> }.into_any(),
                                        None => view! { <div class="vstage-card__thumb vstage-card__thumb--empty" aria-hidden="true"></div> }.into_any(),
                                    }}
                                    <span class="vstage-card__title">
                                        {move || plural!(locale.get(), count, classic.list_images_singular, classic.list_images_plural, count = count)}
                                    </span>
                                    <span class="vstage-card__counts">{move || status_words(locale.get(), &status)}</span>
                                </Link>
                            </li>
                        }
                    }
                </For>
            </ul>
            <Pager
                has_more=Signal::derive(move || cursor.get().is_some())
                loading=Signal::derive(move || loading.get())
                shown=Signal::derive(move || renders.with(Vec::len))
                on_more=Callback::new(move |()| load(true))
            />
        </section>
    }
}
