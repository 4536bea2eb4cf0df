//! A variation card's picture: the result's thumbnail, which opens the full image; for a multi-view result one
//! thumbnail per view, side by side, each named by its place; or an empty frame (shimmering while the variation
//! works).

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::ResultImage;

use crate::locale::use_locale;

#[component]
pub fn VariationPicture(
    /// The result's images: one, or one per view of a multi-view result; none before there is a result.
    images: Vec<ResultImage>,
    /// Whether the variation is still at work.
    working: bool,
    /// "Variation 2" or the like.
    title: String,
    /// The card's name, which the full image takes.
    label: Signal<String>,
    /// Opens the full image.
    on_open: Callback<(String, Signal<String>)>,
) -> impl IntoView {
    let count = images.len();
    match (count, working) {
        (0, true) => {
            view! { <div class="vstage-variation__placeholder vstage-skeleton" aria-hidden="true"></div> }.into_any()
        }
        (0, false) => view! { <div class="vstage-variation__placeholder" aria-hidden="true"></div> }.into_any(),
        (1, _) => view! { <Thumbnail image=images[0].clone() title label on_open /> }.into_any(),
        _ => view! {
            <ul class="vstage-variation__views">
                {images.into_iter().enumerate().map(|(index, image)| {
                    let view = View { number: index + 1, count };
                    view! { <li><Thumbnail image title=title.clone() label on_open view /></li> }
                }).collect_view()}
            </ul>
        }
        .into_any(),
    }
}

/// Which view of a multi-view result a thumbnail shows.
#[derive(Clone, Copy)]
struct View {
    number: usize,
    count: usize,
}

/// One image's thumbnail, opening the full image.
#[component]
fn Thumbnail(
    image: ResultImage,
    title: String,
    label: Signal<String>,
    on_open: Callback<(String, Signal<String>)>,
    #[prop(optional)] view: Option<View>,
) -> impl IntoView {
    let locale = use_locale();
    let full = image.url.clone();
    let thumbnail = image.thumbnail().to_string();
    let name = move || {
        let locale = locale.get();
        match view {
            None => td_string!(locale, studio.variation_open_full, title = &title).to_string(),
            Some(View { number, count }) => {
                td_string!(locale, studio.variation_open_view, title = &title, number = number, count = count)
                    .to_string()
            }
        }
    };
    let opened = Signal::derive(move || match view {
        None => label.get(),
        Some(View { number, count }) => {
            td_string!(locale.get(), studio.variation_view_label, label = label.get(), number = number, count = count)
                .to_string()
        }
    });
    view! {
        <button class="vstage-variation__thumb" on:click=move |_| on_open.run((full.clone(), opened))>
            <img src=thumbnail alt=name loading="lazy" />
        </button>
    }
}
