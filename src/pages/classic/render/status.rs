//! The classic render's status in words, with its progress as a percentage and a bar while it is being made.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::shown_percent;
use super::state::ClassicRenderState;
use crate::locale::use_locale;
use crate::pages::classic::model::status_words;

#[component]
pub fn RenderStatus(page: ClassicRenderState) -> impl IntoView {
    let locale = use_locale();
    move || {
        page.render.get().map(|loaded| {
            let percent = shown_percent(&loaded);
            view! {
                <p class="vstage-classic__status" role="status" aria-live="polite">
                    <strong>{status_words(locale.get(), &loaded.status)}</strong>
                    {percent.map(|percent| {
                        td_string!(locale.get(), classic.render_percent, percent = format!("{percent:.0}"))
                    })}
                </p>
                {percent.map(|percent| view! {
                    <progress class="vstage-classic__progress" max="100" value=percent.to_string() aria-label=td_string!(locale.get(), classic.render_progress)></progress>
                })}
            }
        })
    }
}
