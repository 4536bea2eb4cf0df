//! The studio's screens, one per route.
//! A page reads shared state from context and composes components.

pub mod account;
pub mod board;
pub mod classic;
pub mod furniture_mask;
pub mod new_render;
pub mod not_found;
pub mod render_detail;
pub mod renders;

use vstage_api::host_events::RenderCreated;

use crate::account::use_account;
use crate::host::{RENDER_CREATED, use_host};
use crate::host_reference::emit_about_render;
use crate::route::{Back, Route, use_navigator};

/// What follows a new render, on whichever screen it was made: this period's usage is read again (its variations
/// count against it), the host hears `vstage-render-created` (with the references the server kept with it), and
/// the render is shown.
pub fn use_render_created() -> impl Fn(String) + Clone + 'static {
    crate::host_reference::send_with_creations();
    let account = use_account();
    let (host, api) = (use_host(), crate::api::use_api());
    let navigator = use_navigator();
    move |render_id: String| {
        account.refresh();
        if let Some(host) = &host {
            let created = render_id.clone();
            emit_about_render((api.clone(), host.clone()), RENDER_CREATED, render_id.clone(), move |reference| {
                RenderCreated { render_id: created, reference }
            });
        }
        navigator.go(Route::Render { id: render_id, back: Back::Renders });
    }
}
