//! The studio's shell: global contexts, the header and the router.
//! Pages are routes; unknown paths get a page that leads back home.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::account::provide_account;
use crate::api::{DEFAULT_BASE_URL, provide_api};
use crate::components::header::Header;
use crate::pages::home::Home;
use crate::pages::not_found::NotFound;

#[component]
pub fn App() -> impl IntoView {
    provide_api(DEFAULT_BASE_URL);
    provide_account();
    view! {
        <Router>
            <div class="vstage">
                <Header />
                <main class="vstage-main">
                    <Routes fallback=NotFound>
                        <Route path=path!("/") view=Home />
                    </Routes>
                </main>
            </div>
        </Router>
    }
}
