//! One render: its source photo and its variations grouped by type, kept live until they finish; the full image,
//! a before/after comparison, and "add variations" (also "stage this empty room" on a removal variation).
//! `state` holds what is shown, `model` works it out, and the sections are components of their own.

mod add_variations;
mod comparison;
pub mod model;
pub mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::host_events::{ResultChosen, VariationDone};
use vstage_api::{GetRender, MAX_VARIATIONS_PER_RENDER, VariationStatus};

use self::add_variations::{AddForm, AddVariationsSection};
use self::comparison::CompareSection;
use self::model::{grouped, lineage};
use self::state::RenderState;
use crate::api::{Token, use_api, use_token, with_access_token};
use crate::clock::use_now;
use crate::components::image_viewer::ImageViewer;
use crate::components::link::Link;
use crate::components::screen_heading::ScreenHeading;
use crate::components::variation_card::VariationCard;
use crate::config_draft::ConfigDraft;
use crate::describe;
use crate::host::{RESULT_CHOSEN, VARIATION_DONE, use_host};
use crate::live::follow_render;
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::route::{History, Route, use_navigator};

const VARIATIONS_PAGE: u32 = 20;

#[component]
pub fn RenderDetail(
    /// The render shown; it changes when the host asks for another.
    #[prop(into)]
    render_id: Signal<String>,
) -> impl IntoView {
    let api = use_api();
    let now = use_now();
    let locale = use_locale();
    let state = RenderState::new();
    let RenderState { render, variations, more_cursor, failure, .. } = state;
    let viewer = RwSignal::new(None::<(String, Signal<String>)>);
    let compare = RwSignal::new(None::<String>);
    let compare_with_base = RwSignal::new(false);
    let add_form = AddForm::new();
    let announcement = RwSignal::new(String::new());
    let host = use_host();
    // "Use in listing" where a listing embeds the studio (the standalone page has none).
    // The variation is read again first: the server's answer gives its kept copies' addresses when there are.
    let on_use = host.clone().filter(|_| use_navigator().history() == History::Memory).map(|host| {
        let api = api.clone();
        Callback::new(move |variation_id: String| {
            let original = render.with_untracked(|r| r.as_ref().and_then(|r| r.image_url.clone()));
            let known = variations.with_untracked(|list| list.iter().find(|v| v.id == variation_id).cloned());
            let (api, host) = (api.clone(), host.clone());
            spawn_local(async move {
                let fresh = api.get_variation(&render_id.get_untracked(), &variation_id).await.ok();
                let chosen = fresh.or(known).and_then(|v| ResultChosen::of(&v, original.as_deref()));
                if let Some(chosen) = chosen {
                    host.emit(RESULT_CHOSEN, &chosen);
                    let sent = td_string!(locale.get_untracked(), studio.detail_sent_to_listing);
                    let _ = announcement.try_set(sent.into());
                }
            });
        })
    });

    let read = {
        let api = api.clone();
        move |cursor: Option<String>| {
            let api = api.clone();
            let id = render_id.get_untracked();
            spawn_local(async move {
                let more = cursor.is_some();
                let query = GetRender {
                    include_variations: Some(true),
                    variations_limit: Some(VARIATIONS_PAGE),
                    variations_cursor: cursor,
                    ..Default::default()
                };
                match api.get_render(&id, &query).await {
                    Ok(fresh) if more => state.page(fresh),
                    Ok(fresh) => state.read(fresh),
                    Err(error) => state.failed(api_error(locale.get_untracked(), &error)),
                }
            });
        }
    };
    let reload = {
        let read = read.clone();
        move || read(None)
    };
    let first = reload.clone();
    Effect::new(move |_| {
        render_id.track();
        state.clear();
        first();
    });
    // Say when a variation finishes, however the news came (an event or a read).
    Effect::new(move |previous: Option<Vec<(String, bool)>>| {
        let current = variations.with(|list| model::finality(list));
        if let Some(previous) = previous {
            let finished = variations.with_untracked(|list| model::newly_finished(&previous, list));
            if !finished.is_empty() {
                announcement.set(model::announcement(locale.get_untracked(), &finished));
            }
            if let Some(host) = &host {
                for done in finished.iter().filter(|v| v.status == VariationStatus::Done) {
                    host.emit(VARIATION_DONE, &VariationDone::of(done));
                }
            }
        }
        current
    });
    follow_render(render_id, Signal::derive(move || state.pending_etas()), reload.clone(), move |event| {
        state.apply(event)
    });
    let load_more = Callback::new(move |()| read(more_cursor.get_untracked()));
    let existing = Signal::derive(move || state.existing());
    let on_added = {
        let reload = reload.clone();
        Callback::new(move |added| {
            state.added(added);
            reload();
        })
    };
    let open_add = Callback::new(move |draft: ConfigDraft| add_form.open_with(draft));
    // Every finished image in one ZIP, streamed by the server (a link: the browser saves it as it arrives).
    let download = {
        let base = api.base_url().to_string();
        let token = use_token();
        Signal::derive(move || {
            let address = format!("{base}/renders/{}/results.zip", js_sys::encode_uri_component(&render_id.get()));
            with_access_token(address, token.as_ref().and_then(Token::get).as_deref())
        })
    };
    let comparison = Memo::new(move |_| {
        let source = render.with(|r| r.as_ref().and_then(|r| r.image_url.clone()));
        let chosen = compare.get();
        let locale = locale.get();
        variations
            .with(|list| model::comparison(locale, list, source.as_deref(), chosen.as_deref(), compare_with_base.get()))
    });

    view! {
        <section class="vstage-page" aria-labelledby="vstage-render-title">
            <p><Link to=Route::Renders>{move || td_string!(locale.get(), studio.detail_back)}</Link></p>
            <div class="vstage-visually-hidden" role="status" aria-live="polite">{move || announcement.get()}</div>
            {move || match (render.get(), failure.get()) {
                (None, None) => view! {
                    <div aria-busy="true">
                        <ScreenHeading id="vstage-render-title" class="vstage-skeleton">{move || td_string!(locale.get(), studio.detail_loading)}</ScreenHeading>
                        <div class="vstage-variations">
                            {(0..3).map(|_| view! { <div class="vstage-variation vstage-variation--skeleton vstage-skeleton"></div> }).collect_view()}
                        </div>
                    </div>
                }.into_any(),
                (None, Some(message)) => {
                    let retry = reload.clone();
                    view! {
                        <div class="vstage-panel vstage-panel--error" role="alert">
                            <ScreenHeading id="vstage-render-title">{move || td_string!(locale.get(), studio.detail_load_failed)}</ScreenHeading>
                            <p>{message}</p>
                            <button class="vstage-button" on:click=move |_| retry()>{move || td_string!(locale.get(), common.try_again)}</button>
                        </div>
                    }.into_any()
                }
                (Some(loaded), failure) => {
                    let created = loaded.created_at.millis();
                    let retry = reload.clone();
                    view! {
                        <div class="vstage-page__head">
                            <ScreenHeading id="vstage-render-title">{move || td_string!(locale.get(), studio.detail_title)}</ScreenHeading>
                            <p class="vstage-muted">
                                {move || {
                                    let locale = locale.get();
                                    let when = describe::relative_time(locale, now.get(), created);
                                    td_string!(locale, studio.detail_created, when = when, count = existing.get(), max = MAX_VARIATIONS_PER_RENDER)
                                }}
                            </p>
                            {move || state.has_finished().then(|| view! {
                                <a class="vstage-button vstage-button--secondary vstage-download" href=download.get() download>
                                    {move || td_string!(locale.get(), studio.detail_download_all)}
                                </a>
                            })}
                        </div>
                        {failure.map(|message| view! {
                            <p class="vstage-error" role="alert">{message} " " <button class="vstage-link" on:click=move |_| retry()>{move || td_string!(locale.get(), common.try_again)}</button></p>
                        })}
                        {loaded.image_url.clone().map(|source| {
                            let full = source.clone();
                            view! {
                                <figure class="vstage-source">
                                    <button class="vstage-source__image" on:click=move |_| viewer.set(Some((full.clone(), Signal::derive(move || td_string!(locale.get(), studio.detail_original_photo).to_string()))))>
                                        <img src=source alt=move || td_string!(locale.get(), studio.detail_original_photo) />
                                    </button>
                                    <figcaption>{move || td_string!(locale.get(), studio.detail_original_photo)}</figcaption>
                                </figure>
                            }
                        })}
                    }.into_any()
                }
            }}
            <CompareSection comparison with_base=compare_with_base />
            <Show when=move || render.with(Option::is_some)>
                {move || {
                    let list = variations.get();
                    // A language change draws the cards again, in the new words.
                    let locale = locale.get();
                    grouped(locale, &list).into_iter().map(|(name, members)| {
                        let heading = format!("{name} ({})", members.len());
                        let list = list.clone();
                        view! {
                            <section class="vstage-section">
                                <h2>{heading}</h2>
                                <div class="vstage-variations">
                                    {members.into_iter().enumerate().map(|(index, variation)| {
                                        let kind = describe::variation_type(locale, variation.kind.as_ref());
                                        let title = td_string!(locale, studio.detail_variation_title, kind = kind, number = index + 1);
                                        let lineage = lineage(locale, &variation, &list);
                                        view! {
                                            <VariationCard
                                                variation
                                                title
                                                lineage
                                                now
                                                on_open=move |image| viewer.set(Some(image))
                                                on_compare=move |id| compare.set(Some(id))
                                                on_stage=Callback::new(move |base: String| open_add.run(ConfigDraft::staging_on(&base)))
                                                on_use
                                            />
                                        }
                                    }).collect_view()}
                                </div>
                            </section>
                        }
                    }).collect_view()
                }}
                <Show when=move || more_cursor.get().is_some()>
                    <button class="vstage-button vstage-button--secondary" on:click=move |_| load_more.run(())>{move || td_string!(locale.get(), studio.detail_show_more)}</button>
                </Show>
                <AddVariationsSection render_id form=add_form existing on_added />
            </Show>
            <ImageViewer open=viewer />
        </section>
    }
}
