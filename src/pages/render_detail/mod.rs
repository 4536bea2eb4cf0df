//! One render: its source photo and its variations grouped by type, kept live until they finish; the full image,
//! a before/after comparison, and "add variations" (also "stage this empty room" on a removal variation).
//! `state` holds what is shown, `model` works it out, and the sections are components of their own.

mod add_variations;
mod comparison;
mod head;
pub mod model;
mod render_failure;
mod source_photo;
mod variation_groups;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::GetRender;
use vstage_api::VariationStatus;
use vstage_api::host_events::VariationDone;

use self::add_variations::{AddForm, AddVariationsSection};
use self::comparison::CompareSection;
use self::head::RenderHead;
use self::render_failure::RenderFailure;
use self::source_photo::SourcePhoto;
use self::variation_groups::VariationGroups;
use crate::api::{Token, use_api, use_token, with_access_token};
use crate::components::image_viewer::ImageViewer;
use crate::components::link::Link;
use crate::components::screen_heading::ScreenHeading;
use crate::config_draft::ConfigDraft;
use crate::describe;
use crate::host::{VARIATION_DONE, use_host};
use crate::host_reference::emit_about_render;
use crate::listing::use_in_listing;
use crate::live::{follow_render, use_live};
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::render_state::RenderState;
use crate::route::Back;

const VARIATIONS_PAGE: u32 = 20;

#[component]
pub fn RenderDetail(
    /// The render shown; it changes when the host asks for another.
    #[prop(into)]
    render_id: Signal<String>,
    /// Where it was opened from, which its first link returns to.
    #[prop(optional)]
    back: Back,
) -> impl IntoView {
    let locale = use_locale();
    let state = RenderState::new();
    let RenderState { render, variations, more_cursor, failure, .. } = state;
    let viewer = RwSignal::new(None::<(String, Signal<String>)>);
    let compare = RwSignal::new(None::<String>);
    let compare_with_base = RwSignal::new(false);
    let add_form = AddForm::new();
    let announcement = RwSignal::new(String::new());
    let refusal = RwSignal::new(None::<String>);
    let on_use = use_in_listing(render_id, state, announcement, refusal);
    let read_followed = StoredValue::new(false);
    let reload = reader(render_id, state, read_followed);
    announce_finished(state, announcement);
    follow_render(
        render_id,
        Signal::derive(move || state.pending_etas()),
        read_followed,
        move || reload.run(None),
        move |event| state.apply(event),
    );
    let load_more = Callback::new(move |()| reload.run(more_cursor.get_untracked()));
    let existing = Signal::derive(move || state.existing());
    let name = Signal::derive(move || variations.with(|list| describe::render_name(locale.get(), list)));
    let on_added = Callback::new(move |added| {
        state.added(added);
        reload.run(None);
    });
    let on_stage = Callback::new(move |base: String| add_form.open_with(ConfigDraft::staging_on(&base)));
    let download = zip_address(render_id, state);
    let comparison = Memo::new(move |_| {
        let source = render.with(|r| r.as_ref().and_then(|r| r.image_url.clone()));
        let (chosen, locale) = (compare.get(), locale.get());
        variations
            .with(|list| model::comparison(locale, list, source.as_deref(), chosen.as_deref(), compare_with_base.get()))
    });
    let retry = move || reload.run(None);
    let original = move || {
        let source = render.with(|r| r.as_ref().and_then(|r| r.image_url.clone()))?;
        Some(view! { <SourcePhoto source viewer /> })
    };

    view! {
        <section class="vstage-page" aria-labelledby="vstage-render-title">
            <p><Link to=back.route()>{move || model::back_words(locale.get(), back)}</Link></p>
            <div class="vstage-visually-hidden" role="status" aria-live="polite">{move || announcement.get()}</div>
            {move || refusal.get().map(|refused| view! { <p class="vstage-error" role="alert">{refused}</p> })}
            {move || match (render.get(), failure.get()) {
                (None, None) => view! { <RenderLoading /> }.into_any(),
                (None, Some(message)) => view! { <RenderFailed message on_retry=move |()| retry() /> }.into_any(),
                (Some(loaded), failure) => view! {
                    <RenderHead created=loaded.created_at.millis() variation_count=existing name download />
                    {failure.map(|message| view! {
                        <p class="vstage-error" role="alert">{message} " " <button class="vstage-link" on:click=move |_| retry()>{move || td_string!(locale.get(), common.try_again)}</button></p>
                    })}
                    <RenderFailure render_id variations on_added />
                }.into_any(),
            }}
            // The result first: the before/after once there is one, the photo alone until then.
            {move || comparison.with(Option::is_none).then(original)}
            <CompareSection comparison with_base=compare_with_base chosen=compare />
            <Show when=move || render.with(Option::is_some)>
                <VariationGroups variations viewer compare on_stage on_use />
                {move || comparison.with(Option::is_some).then(original)}
                <Show when=move || more_cursor.get().is_some()>
                    <button class="vstage-button vstage-button--secondary" on:click=move |_| load_more.run(())>{move || td_string!(locale.get(), studio.detail_show_more)}</button>
                </Show>
                <AddVariationsSection render_id form=add_form existing variations on_added />
            </Show>
            <ImageViewer open=viewer />
        </section>
    }
}

/// Reads the render (again) whenever `render_id` changes, once the server has said where the live stream
/// starts (so that the stream follows it from then on); the callback reads it again from the start (`None`) or
/// its next page of variations (a cursor), noting in `followed` whether the stream follows that read.
fn reader(render_id: Signal<String>, state: RenderState, followed: StoredValue<bool>) -> Callback<Option<String>> {
    let (api, locale, live) = (use_api(), use_locale(), use_live());
    let read = Callback::new(move |cursor: Option<String>| {
        let api = api.clone();
        let id = render_id.get_untracked();
        followed.set_value(live.follows_reads_now());
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
    });
    Effect::new(move |_| {
        render_id.track();
        if live.start_known.get() {
            state.clear();
            read.run(None);
        }
    });
    read
}

/// Says when a variation finishes, however the news came (an event or a read), to screen readers and the host.
fn announce_finished(state: RenderState, announcement: RwSignal<String>) {
    let (locale, host, api) = (use_locale(), use_host(), use_api());
    Effect::new(move |previous: Option<Vec<(String, bool)>>| {
        let current = state.variations.with(|list| model::finality(list));
        if let Some(previous) = previous {
            let finished = state.variations.with_untracked(|list| model::newly_finished(&previous, list));
            if !finished.is_empty() {
                announcement.set(model::announcement(locale.get_untracked(), &finished));
            }
            if let Some(host) = &host {
                for done in finished.iter().filter(|v| v.status == VariationStatus::Done).cloned() {
                    let render_id = done.render_id.clone();
                    emit_about_render((api.clone(), host.clone()), VARIATION_DONE, render_id, move |reference| {
                        VariationDone::of(&done, reference)
                    });
                }
            }
        }
        current
    });
}

/// Every finished image in one ZIP, streamed by the server (a link: the browser saves it as it arrives); `None`
/// until one is finished.
fn zip_address(render_id: Signal<String>, state: RenderState) -> Signal<Option<String>> {
    let base = use_api().base_url().to_string();
    let token = use_token();
    Signal::derive(move || {
        state.has_finished().then(|| {
            let address = format!("{base}/renders/{}/results.zip", js_sys::encode_uri_component(&render_id.get()));
            with_access_token(address, token.as_ref().and_then(Token::get).as_deref())
        })
    })
}

/// The page while the render is read for the first time.
#[component]
fn RenderLoading() -> impl IntoView {
    let locale = use_locale();
    view! {
        <div aria-busy="true">
            <ScreenHeading id="vstage-render-title" class="vstage-skeleton">{move || td_string!(locale.get(), studio.detail_loading)}</ScreenHeading>
            <div class="vstage-variations">
                {(0..3).map(|_| view! { <div class="vstage-variation vstage-variation--skeleton vstage-skeleton"></div> }).collect_view()}
            </div>
        </div>
    }
}

/// The page when the render could not be read at all.
#[component]
fn RenderFailed(message: String, #[prop(into)] on_retry: Callback<()>) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-panel vstage-panel--error" role="alert">
            <ScreenHeading id="vstage-render-title">{move || td_string!(locale.get(), studio.detail_load_failed)}</ScreenHeading>
            <p>{message}</p>
            <button class="vstage-button" on:click=move |_| on_retry.run(())>{move || td_string!(locale.get(), common.try_again)}</button>
        </div>
    }
}
