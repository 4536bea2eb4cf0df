//! The classic render's outputs as a strip, newest last: each image with its room type and style, "Use in
//! listing" (embedded with a host that keeps the address), download, and "Compare" against the photo.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::host_events::ResultChosen;

use super::state::ClassicRenderState;
use crate::api::use_api;
use crate::host::{Host, use_host};
use crate::listing::{self, NotRecorded};
use crate::locale::use_locale;
use crate::pages::classic::model::{Output, outputs};
use crate::route::{History, use_navigator};

#[component]
pub fn OutputStrip(page: ClassicRenderState) -> impl IntoView {
    let locale = use_locale();
    let host = use_host().filter(|_| use_navigator().history() == History::Memory);
    view! {
        <ul class="vstage-classic__outputs" aria-label=move || td_string!(locale.get(), classic.render_images)>
            {move || page.render.get().map(|loaded| {
                outputs(locale.get(), &loaded).into_iter().enumerate().map(|(index, output)| {
                    let (render_id, original, host) = (loaded.render_id.clone(), loaded.image_url.clone(), host.clone());
                    view! { <OutputItem page render_id index output original host /> }
                }).collect_view()
            })}
        </ul>
    }
}

/// One output with its caption and actions.
#[component]
fn OutputItem(
    page: ClassicRenderState,
    render_id: String,
    /// Its place in the strip, oldest first.
    index: usize,
    output: Output,
    /// The render's photo, when the service sent it.
    original: Option<String>,
    /// The host page that takes an image for its listing.
    host: Option<Host>,
) -> impl IntoView {
    let (locale, api) = (use_locale(), use_api());
    let Output { url, caption, empty } = output;
    let download = url.clone();
    let has_original = original.is_some();
    // recorded with the listing's disclosure rules; the host hears why when it cannot be
    let use_in_listing = move |host: Host| {
        let chosen = ResultChosen::of_v1_output(&render_id, index, &url, !empty, original.as_deref());
        let (api, profile) = (api.clone(), listing::listing_profile(&host));
        spawn_local(async move {
            match listing::hand_over(&api, &host, chosen, profile, locale.get_untracked()).await {
                Ok(_) => {}
                Err(NotRecorded::PlainCaption(error)) => {
                    host.error(format!("The result was sent without its disclosure record: {error}"));
                }
                Err(NotRecorded::AgainstRules(error)) => {
                    page.announced.set(false);
                    page.failure.set(Some(error));
                }
            }
        });
        page.announced.set(true);
    };
    view! {
        <li class="vstage-classic__output">
            <img src=download.clone() alt=caption.clone() loading="lazy" />
            <p>{caption}</p>
            <div class="vstage-variation__actions">
                {host.map(|host| view! {
                    <button class="vstage-button vstage-button--small" part="primary-button" on:click=move |_| use_in_listing(host.clone())>
                        {td_string!(locale.get(), classic.render_use)}
                    </button>
                })}
                <a class="vstage-button vstage-button--small vstage-button--secondary" href=download download="" target="_blank" rel="noopener">
                    {td_string!(locale.get(), classic.render_download)}
                </a>
                {has_original.then(|| view! {
                    <button class="vstage-button vstage-button--small vstage-button--secondary" on:click=move |_| page.compare.set(Some(index))>
                        {td_string!(locale.get(), classic.render_compare)}
                    </button>
                })}
            </div>
        </li>
    }
}
