//! A variation card's picture: the result's thumbnail, which opens the full image, or an empty frame (shimmering
//! while the variation works).

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::ResultImage;

use crate::locale::use_locale;

#[component]
pub fn VariationPicture(
    /// The result, once there is one.
    image: Option<ResultImage>,
    /// Whether the variation is still at work.
    working: bool,
    /// "Variation 2" or the like.
    title: String,
    /// The card's name, which the full image takes.
    label: Signal<String>,
    /// Opens the full image.
    on_open: Callback<(String, Signal<String>)>,
) -> impl IntoView {
    let locale = use_locale();
    match (image, working) {
        (Some(image), _) => {
            let full = image.url.clone();
            let thumbnail = image.thumbnail().to_string();
            view! {
                <button class="vstage-variation__thumb" on:click=move |_| on_open.run((full.clone(), label))>
                    <img src=thumbnail alt=move || td_string!(locale.get(), studio.variation_open_full, title = &title) loading="lazy" />
                </button>
            }
            .into_any()
        }
        (None, true) => {
            view! { <div class="vstage-variation__placeholder vstage-skeleton" aria-hidden="true"></div> }.into_any()
        }
        (None, false) => view! { <div class="vstage-variation__placeholder" aria-hidden="true"></div> }.into_any(),
    }
}
