//! The photo the render started from, named as the original and opened full size on a click.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;

#[component]
pub fn SourcePhoto(
    source: String,
    /// Where a full image opens: its address and its name.
    viewer: RwSignal<Option<(String, Signal<String>)>>,
) -> impl IntoView {
    let locale = use_locale();
    let name = Signal::derive(move || td_string!(locale.get(), studio.detail_original_photo).to_string());
    let full = source.clone();
    view! {
        <figure class="vstage-source">
            <button class="vstage-source__image" on:click=move |_| viewer.set(Some((full.clone(), name)))>
                <img src=source alt=name />
            </button>
            <figcaption>{name}</figcaption>
        </figure>
    }
}
