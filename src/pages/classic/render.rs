//! One classic (v1) render: polled with `GET /v1/render` (from 1 s, backing off, paused while the tab is hidden)
//! until it is done or failed, its status and progress, its outputs as a strip (newest last) with room type and
//! style, before and after against the photo, download and "Use in listing"; and its variations, offered only
//! while it is done, with the service's refusals as sentences.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::host_events::ResultChosen;
use vstage_api::{ApiError, RoomType, Style, v1};

use super::model::{not_done_yet, outputs, refusal, status_words};
use super::{ClassicOptions, RoomAndStyle};
use crate::api::use_api;
use crate::components::before_after::BeforeAfter;
use crate::components::link::Link;
use crate::components::screen_heading::ScreenHeading;
use crate::hooks::use_polling::use_polling;
use crate::host::{RESULT_CHOSEN, use_host};
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::route::{History, Route, use_navigator};

#[component]
pub fn ClassicRender(#[prop(into)] render_id: Signal<String>) -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let render = RwSignal::new(None::<v1::Render>);
    let failure = RwSignal::new(None::<ApiError>);
    let reads = RwSignal::new(0u64);
    let read = {
        let api = api.clone();
        move || {
            let api = api.clone();
            let id = render_id.get_untracked();
            spawn_local(async move {
                match api.v1_render(&id).await {
                    Ok(fresh) => {
                        let _ = render.try_set(Some(fresh));
                        let _ = failure.try_set(None);
                    }
                    Err(error) => {
                        let _ = failure.try_set(Some(error));
                    }
                }
                let _ = reads.try_update(|n| *n += 1);
            });
        }
    };
    let first = read.clone();
    Effect::new(move |_| {
        render_id.track();
        render.set(None);
        first();
    });
    let working = Signal::derive(move || {
        render.with(|r| r.as_ref().is_none_or(|r| matches!(r.status, v1::Status::Queued | v1::Status::Rendering)))
    });
    let progress_key = Signal::derive(move || {
        render.with(|r| {
            r.as_ref()
                .map(|r| format!("{}/{}/{:?}", r.status.as_str(), r.outputs.len(), r.progress))
                .unwrap_or_default()
        })
    });
    use_polling(working, reads.into(), progress_key, read.clone());

    let compare = RwSignal::new(None::<usize>);
    let host = use_host().filter(|_| use_navigator().history() == History::Memory);
    // Whether an image was sent to the listing (said in the live region).
    let announced = RwSignal::new(false);

    view! {
        <section class="vstage-page" aria-labelledby="vstage-classic-render-title">
            <p><Link to=Route::Classic>{move || td_string!(locale.get(), classic.render_back)}</Link></p>
            <ScreenHeading id="vstage-classic-render-title">{move || td_string!(locale.get(), classic.render_title)}</ScreenHeading>
            <div class="vstage-visually-hidden" role="status" aria-live="polite">
                {move || announced.get().then(|| td_string!(locale.get(), classic.render_sent))}
            </div>
            {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{api_error(locale.get(), &error)}</p> })}
            {move || render.get().map(|loaded| {
                let percent = loaded.progress.map(|p| (p * 100.0).round());
                view! {
                    <p class="vstage-classic__status" role="status" aria-live="polite">
                        <strong>{status_words(locale.get(), &loaded.status)}</strong>
                        {percent.filter(|_| working.get_untracked()).map(|percent| {
                            td_string!(locale.get(), classic.render_percent, percent = format!("{percent:.0}"))
                        })}
                    </p>
                    {percent.filter(|_| working.get_untracked()).map(|percent| view! {
                        <progress class="vstage-classic__progress" max="100" value=percent.to_string() aria-label=td_string!(locale.get(), classic.render_progress)></progress>
                    })}
                }
            })}
            <ul class="vstage-classic__outputs" aria-label=move || td_string!(locale.get(), classic.render_images)>
                {move || render.get().map(|loaded| {
                    let original = loaded.image_url.clone();
                    outputs(locale.get(), &loaded).into_iter().enumerate().map(|(index, output)| {
                        let staged = !output.empty;
                        let src = output.url.clone();
                        let download = src.clone();
                        let (render_id, url, original) = (loaded.render_id.clone(), output.url.clone(), original.clone());
                        let has_original = original.is_some();
                        let host = host.clone();
                        view! {
                            <li class="vstage-classic__output">
                                <img src=src alt=output.caption.clone() loading="lazy" />
                                <p>{output.caption.clone()}</p>
                                <div class="vstage-variation__actions">
                                    {host.map(|host| view! {
                                        <button class="vstage-button vstage-button--small" part="primary-button" on:click=move |_| {
                                            host.emit(RESULT_CHOSEN, &ResultChosen::of_v1_output(&render_id, index, &url, staged, original.as_deref()));
                                            announced.set(true);
                                        }>
                                            {td_string!(locale.get(), classic.render_use)}
                                        </button>
                                    })}
                                    <a class="vstage-button vstage-button--small vstage-button--secondary" href=download download="" target="_blank" rel="noopener">
                                        {td_string!(locale.get(), classic.render_download)}
                                    </a>
                                    {has_original.then(|| view! {
                                        <button class="vstage-button vstage-button--small vstage-button--secondary" on:click=move |_| compare.set(Some(index))>
                                            {td_string!(locale.get(), classic.render_compare)}
                                        </button>
                                    })}
                                </div>
                            </li>
                        }
                    }).collect_view()
                })}
            </ul>
            {move || {
                let loaded = render.get()?;
                let before = loaded.image_url.clone()?;
                let index = compare.get().or_else(|| loaded.outputs.len().checked_sub(1))?;
                let after = outputs(locale.get_untracked(), &loaded).into_iter().nth(index)?;
                // the caption follows the language without drawing the slider again
                let after_label = Signal::derive(move || {
                    render.with(|loaded| {
                        let caption = loaded.as_ref().and_then(|loaded| outputs(locale.get(), loaded).into_iter().nth(index));
                        caption.map(|output| output.caption).unwrap_or_default()
                    })
                });
                Some(view! {
                    <section class="vstage-section" aria-label=move || td_string!(locale.get(), classic.render_before_after)>
                        <h2>{move || td_string!(locale.get(), classic.render_before_after)}</h2>
                        <BeforeAfter
                            before=Signal::stored(before)
                            after=Signal::stored(after.url)
                            before_label=Signal::derive(move || td_string!(locale.get(), classic.render_original).to_string())
                            after_label
                        />
                    </section>
                })
            }}
            <ClassicVary render_id render reload=Callback::new(move |()| read()) />
        </section>
    }
}

/// "Add a variation": room type, style from the variation list, the watermark, going to queued at once, waiting;
/// only while the render is done.
#[component]
fn ClassicVary(render_id: Signal<String>, render: RwSignal<Option<v1::Render>>, reload: Callback<()>) -> impl IntoView {
    let api = use_api();
    let locale = use_locale();
    let options = ClassicOptions::load();
    let room_type = RwSignal::new(String::new());
    let style = RwSignal::new(String::new());
    let watermark = RwSignal::new(false);
    let queued_at_once = RwSignal::new(true);
    let wait = RwSignal::new(false);
    let sending = RwSignal::new(false);
    let failure = RwSignal::new(None::<ApiError>);
    let not_done = move || render.with(|r| not_done_yet(locale.get(), r.as_ref().map(|r| &r.status)));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() || not_done().is_some() {
            return;
        }
        let request = v1::CreateVariation {
            wait_for_completion: Some(wait.get_untracked()),
            room_type: Some(RoomType::from(room_type.get_untracked().as_str())),
            style: Some(Style::from(style.get_untracked().as_str())),
            add_virtually_staged_watermark: Some(watermark.get_untracked()),
            switch_to_queued_immediately: Some(queued_at_once.get_untracked()),
        };
        sending.set(true);
        failure.set(None);
        let api = api.clone();
        spawn_local(async move {
            match api.v1_create_variation(&render_id.get_untracked(), &request).await {
                // the page may have been left meanwhile: then there is nothing to reload
                Ok(_) => {
                    let _ = reload.try_run(());
                }
                Err(error) => {
                    let _ = failure.try_set(Some(error));
                }
            }
            let _ = sending.try_set(false);
        });
    };
    view! {
        <section class="vstage-section" aria-labelledby="vstage-classic-vary">
            <h2 id="vstage-classic-vary">{move || td_string!(locale.get(), classic.vary_title)}</h2>
            <form class="vstage-form" on:submit=submit novalidate>
                {options.view(move |options: v1::Options| {
                    let styles = if options.variation_styles.is_empty() { options.styles.clone() } else { options.variation_styles.clone() };
                    view! {
                        <RoomAndStyle id="vstage-classic-vary" room_types=options.room_types styles room_type style />
                    }
                })}
                <label class="vstage-check">
                    <input type="checkbox" prop:checked=move || watermark.get() on:change=move |ev| watermark.set(event_target_checked(&ev)) />
                    {move || td_string!(locale.get(), classic.watermark)}
                </label>
                <label class="vstage-check">
                    <input type="checkbox" prop:checked=move || queued_at_once.get() on:change=move |ev| queued_at_once.set(event_target_checked(&ev)) />
                    {move || td_string!(locale.get(), classic.vary_queued_at_once)}
                </label>
                <label class="vstage-check">
                    <input type="checkbox" prop:checked=move || wait.get() on:change=move |ev| wait.set(event_target_checked(&ev)) />
                    {move || td_string!(locale.get(), classic.vary_wait)}
                </label>
                {move || not_done().map(|reason| view! { <p class="vstage-hint" id="vstage-classic-vary-why">{reason}</p> })}
                {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{move || refusal(locale.get(), &error)}</p> })}
                <div class="vstage-form__actions">
                    <button
                        type="submit"
                        class="vstage-button"
                        disabled=move || sending.get() || not_done().is_some()
                        aria-describedby="vstage-classic-vary-why"
                    >
                        {move || if sending.get() {
                            td_string!(locale.get(), classic.sending)
                        } else {
                            td_string!(locale.get(), classic.vary_title)
                        }}
                    </button>
                </div>
            </form>
        </section>
    }
}
