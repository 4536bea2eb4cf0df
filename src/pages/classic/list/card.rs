//! A classic render in the list: its newest image (or its photo), its number of images and its status, linking to
//! the render.

use leptos::prelude::*;
use vstage_api::v1;

use super::model::newest_image;
use crate::components::link::Link;
use crate::locale::use_locale;
use crate::pages::classic::model::status_words;
use crate::plural;
use crate::route::Route;

#[component]
pub fn ClassicCard(render: v1::Render) -> impl IntoView {
    let locale = use_locale();
    let newest = newest_image(&render);
    let count = render.outputs.len();
    let v1::Render { render_id, status, .. } = render;
    view! {
        <li class="vstage-card" part="card">
            <Link to=Route::ClassicRender { id: render_id } class="vstage-card__link">
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
