//! One classic (v1) render: polled with `GET /v1/render` (from 1 s, backing off, paused while the tab is hidden)
//! until it is done or failed, its status and progress, its outputs as a strip (newest last) with room type and
//! style, before and after against the photo, download and "Use in listing"; and its variations, offered only
//! while it is done, with the service's refusals as sentences. `state` holds what is shown and the variation
//! form, `model` works it out, and the sections are components of their own.

mod comparison;
mod model;
mod outputs;
mod state;
mod status;
mod vary;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;

use self::comparison::BeforeAfterSection;
use self::outputs::OutputStrip;
use self::state::ClassicRenderState;
use self::status::RenderStatus;
use self::vary::ClassicVary;
use crate::api::use_api;
use crate::components::link::Link;
use crate::components::screen_heading::ScreenHeading;
use crate::hooks::use_polling::use_polling;
use crate::locale::errors::api_error;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn ClassicRender(#[prop(into)] render_id: Signal<String>) -> impl IntoView {
    let locale = use_locale();
    let page = ClassicRenderState::new();
    let read = reader(render_id, page);
    let ClassicRenderState { failure, announced, .. } = page;

    view! {
        <section class="vstage-page" aria-labelledby="vstage-classic-render-title">
            <p><Link to=Route::Classic>{move || td_string!(locale.get(), classic.render_back)}</Link></p>
            <ScreenHeading id="vstage-classic-render-title">{move || td_string!(locale.get(), classic.render_title)}</ScreenHeading>
            <div class="vstage-visually-hidden" role="status" aria-live="polite">
                {move || announced.get().then(|| td_string!(locale.get(), classic.render_sent))}
            </div>
            {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{api_error(locale.get(), &error)}</p> })}
            <RenderStatus page />
            <OutputStrip page />
            <BeforeAfterSection page />
            <ClassicVary render_id render=page.render reload=Callback::new(move |()| read()) />
        </section>
    }
}

/// Reads the render whenever `render_id` changes, and again on the polling's schedule while it is being made;
/// returns the read, for reading it again at once.
fn reader(render_id: Signal<String>, page: ClassicRenderState) -> impl Fn() + Clone + Send + Sync + 'static {
    let api = use_api();
    let read = move || {
        let api = api.clone();
        let id = render_id.get_untracked();
        spawn_local(async move { page.read(api.v1_render(&id).await) });
    };
    let first = read.clone();
    Effect::new(move |_| {
        render_id.track();
        page.clear();
        first();
    });
    let working = Signal::derive(move || page.working());
    let progress_key = Signal::derive(move || page.progress_key());
    use_polling(working, page.reads.into(), progress_key, read.clone());
    read
}
