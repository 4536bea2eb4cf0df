//! A render in the list: the newest result's thumbnail (or the source photo), named by what its results are
//! ("Living room · Modern"; its variations' count when none is listed yet), its variations counted by status,
//! and when it was made. The card links to the render; a checkbox on it selects it for bulk variations.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Render;

use crate::components::link::Link;
use crate::describe;
use crate::locale::use_locale;
use crate::plural;
use crate::route::{Back, Route};

#[component]
pub fn RenderCard(
    render: Render,
    #[prop(into)] now: Signal<i64>,
    /// The list's selection, by render id.
    selection: RwSignal<Vec<String>>,
) -> impl IntoView {
    let locale = use_locale();
    let variations = render.variation_items().to_vec();
    let thumbnail = describe::newest_thumbnail(&variations).or_else(|| render.image_url.clone());
    let total = render.variations.as_ref().and_then(|page| page.total_count).unwrap_or(variations.len() as u64);
    let name = {
        let variations = variations.clone();
        move || describe::render_name(locale.get(), &variations)
    };
    let counts = move || describe::status_counts(locale.get(), &variations);
    let created = render.created_at.millis();
    let to = Route::Render { id: render.id.clone(), back: Back::Renders };
    let id = render.id.clone();
    let chosen = {
        let id = id.clone();
        move || selection.with(|list| list.contains(&id))
    };
    let toggle = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        selection.update(|list| {
            list.retain(|other| *other != id);
            if on {
                list.push(id.clone());
            }
        });
    };
    view! {
        <li class="vstage-card" part="card">
            <label class="vstage-card__select">
                <input type="checkbox" prop:checked=chosen on:change=toggle />
                <span class="vstage-visually-hidden">{move || td_string!(locale.get(), studio.card_select)}</span>
            </label>
            <Link to class="vstage-card__link">
                {match thumbnail {
                    Some(src) => view! { <img class="vstage-card__thumb" src=src alt="" loading="lazy" /> }.into_any(),
                    None => view! { <div class="vstage-card__thumb vstage-card__thumb--empty" aria-hidden="true"></div> }.into_any(),
                }}
                <span class="vstage-card__title">{move || name().unwrap_or_else(|| {
                    plural!(locale.get(), total, studio.card_variations_singular, studio.card_variations_plural, count = total)
                })}</span>
                <span class="vstage-card__counts">{counts}</span>
                <span class="vstage-card__time">{move || describe::relative_time(locale.get(), now.get(), created)}</span>
            </Link>
        </li>
    }
}
