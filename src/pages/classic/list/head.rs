//! The classic renders list's heading, with "New classic render".

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::components::link::Link;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn ClassicListHead() -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-page__head">
            <ScreenHeading id="vstage-classic-title">{move || td_string!(locale.get(), classic.list_title)}</ScreenHeading>
            <div class="vstage-page__tools">
                <Link to=Route::ClassicNew class="vstage-button" part="primary-button">
                    {move || td_string!(locale.get(), classic.list_new)}
                </Link>
            </div>
        </div>
    }
}
