//! The page for paths the studio does not know: says so and leads back home.
//! The server answers such paths with `index.html`, so this is what a mistyped link shows.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::components::link::Link;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn NotFound() -> impl IntoView {
    let locale = use_locale();
    view! {
        <section class="vstage-panel">
            <ScreenHeading id="vstage-screen-title">{move || td_string!(locale.get(), studio.not_found_title)}</ScreenHeading>
            <p>{move || td_string!(locale.get(), studio.not_found_text)}</p>
            <Link to=Route::Renders class="vstage-button">
                {move || td_string!(locale.get(), studio.not_found_home)}
            </Link>
        </section>
    }
}
