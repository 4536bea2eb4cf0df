//! What stands in the classic renders list when the subject has none: a call to create one.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::components::link::Link;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn NoClassicRenders() -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-empty">
            <h2>{move || td_string!(locale.get(), classic.list_empty)}</h2>
            <Link to=Route::ClassicNew class="vstage-button">{move || td_string!(locale.get(), classic.list_create_one)}</Link>
        </div>
    }
}
