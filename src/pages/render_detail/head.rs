//! The render's heading: what its results are ("Living room · Modern + Empty room", "Render" before any is
//! known), when it was made and how many of its 20 variations it has, and, once one is finished, every finished
//! image as one ZIP.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::MAX_VARIATIONS_PER_RENDER;

use crate::clock::use_now;
use crate::components::screen_heading::ScreenHeading;
use crate::describe;
use crate::locale::use_locale;

#[component]
pub fn RenderHead(
    /// When the render was made, epoch milliseconds.
    created: i64,
    #[prop(into)] variation_count: Signal<u64>,
    /// What its results are, once a variation is known.
    #[prop(into)]
    name: Signal<Option<String>>,
    /// The ZIP's address, once there is something in it.
    #[prop(into)]
    download: Signal<Option<String>>,
) -> impl IntoView {
    let locale = use_locale();
    let now = use_now();
    view! {
        <div class="vstage-render-head">
            <ScreenHeading id="vstage-render-title">
                {move || name.get().unwrap_or_else(|| td_string!(locale.get(), studio.detail_title).to_string())}
            </ScreenHeading>
            <p class="vstage-muted vstage-render-head__meta">
                {move || {
                    let locale = locale.get();
                    let when = describe::relative_time(locale, now.get(), created);
                    td_string!(locale, studio.detail_created, when = when, count = variation_count.get(), max = MAX_VARIATIONS_PER_RENDER)
                }}
            </p>
            {move || download.get().map(|address| view! {
                <a class="vstage-button vstage-button--secondary vstage-download" href=address download>
                    {move || td_string!(locale.get(), studio.detail_download_all)}
                </a>
            })}
        </div>
    }
}
