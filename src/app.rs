//! The studio's shell: global contexts (API client, account, clock, live updates), the header and the router.
//! Pages are routes; deep links work on reload; unknown paths get a page that leads back home.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::account::provide_account;
use crate::api::{DEFAULT_BASE_URL, provide_api};
use crate::clock::provide_clock;
use crate::components::header::Header;
use crate::live::provide_live;
use crate::pages::account::AccountPage;
use crate::pages::furniture_mask::FurnitureMask;
use crate::pages::new_render::NewRender;
use crate::pages::not_found::NotFound;
use crate::pages::render_detail::RenderDetail;
use crate::pages::renders::Renders;

#[component]
pub fn App() -> impl IntoView {
    provide_api(DEFAULT_BASE_URL);
    provide_account();
    provide_clock();
    provide_live();
    view! {
        <Router>
            <div class="vstage">
                <Header />
                <main class="vstage-main">
                    <Routes fallback=NotFound>
                        <Route path=path!("/") view=Renders />
                        <Route path=path!("/renders/new") view=NewRender />
                        <Route path=path!("/renders/:id") view=RenderDetail />
                        <Route path=path!("/remove-furniture") view=FurnitureMask />
                        <Route path=path!("/account") view=AccountPage />
                    </Routes>
                </main>
            </div>
        </Router>
    }
}
