//! The photo the render started from, named as the original and opened full size on a click. A photo that does not
//! load (the address the render was made from does not answer: often why the render failed) is said in words,
//! never shown as a broken image.

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
    let broken = RwSignal::new(false);
    let (full, address) = (source.clone(), source.clone());
    view! {
        <figure class="vstage-source">
            <Show
                when=move || !broken.get()
                fallback=move || {
                    let address = address.clone();
                    view! {
                        <p class="vstage-source__unreachable">
                            {move || td_string!(locale.get(), studio.detail_original_photo_unreachable, address = address.clone())}
                        </p>
                    }
                }
            >
                <button class="vstage-source__image" on:click={
                    let full = full.clone();
                    move |_| viewer.set(Some((full.clone(), name)))
                }>
                    <img src=source.clone() alt=name on:error=move |_| broken.set(true) />
                </button>
            </Show>
            <figcaption>{name}</figcaption>
        </figure>
    }
}
