//! The page for paths the studio does not know: says so and leads back home.
//! The server answers such paths with `index.html`, so this is what a mistyped link shows.

use leptos::prelude::*;

use crate::components::link::Link;
use crate::route::Route;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="vstage-panel">
            <h1>"This page does not exist"</h1>
            <p>"The link may be mistyped or out of date."</p>
            <Link to=Route::Renders class="vstage-button">
                "Go to the studio's home"
            </Link>
        </section>
    }
}
