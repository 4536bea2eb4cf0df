//! The studio's shell: one per `<vstage-widget>`, with its own contexts (API client and token, account, clock,
//! live updates, route), the header and the screen the route names. Embedded or standalone, the same studio.

use leptos::prelude::*;
use vstage_api::host_events::{Ready, TokenExpired};

use crate::account::{provide_account, use_account};
use crate::api::{Token, provide_api};
use crate::attributes::{Attributes, ListingPhoto};
use crate::chunks::{chunk, screen};
use crate::clock::provide_clock;
use crate::components::header::Header;
use crate::components::locale_chooser::LocaleChooser;
use crate::components::screen_heading::ScreenFocus;
use crate::host::{Host, ListingDisclosure, READY, TOKEN_EXPIRED, provide_host, use_host};
use crate::host_reference::HostReferences;
use crate::live::provide_live;
use crate::locale::provide_locale;
use crate::pages::account::AccountPage;
use crate::pages::board::Board;
use crate::pages::board::photos::BoardPhotos;
use crate::pages::classic::create::ClassicNew;
use crate::pages::classic::list::ClassicRenders;
use crate::pages::classic::render::ClassicRender;
use crate::pages::furniture_mask::FurnitureMask;
use crate::pages::new_render::NewRender;
use crate::pages::not_found::NotFound;
use crate::pages::render_detail::RenderDetail;
use crate::pages::renders::Renders;
use crate::parts::{Part, is_shown};
use crate::route::{Back, History, Route, provide_navigator};

/// What the element gives its studio: its attributes, live, itself for events, and the `/api` to use when
/// `api-base` is not set (that of the server the code came from).
#[derive(Clone)]
pub struct StudioOptions {
    attributes: Attributes,
    host: Host,
    default_api_base: String,
}

impl StudioOptions {
    pub fn new(attributes: Attributes, host: Host, default_api_base: String) -> Self {
        StudioOptions { attributes, host, default_api_base }
    }
}

#[component]
pub fn App(options: StudioOptions) -> impl IntoView {
    let StudioOptions { attributes, host, default_api_base } = options;
    // Another server is another studio: everything starts again with its own contexts.
    move || {
        let base = attributes.api_base.get().unwrap_or_else(|| default_api_base.clone());
        let host = host.clone();
        untrack(move || view! { <Studio base attributes host /> })
    }
}

#[component]
fn Studio(base: String, attributes: Attributes, host: Host) -> impl IntoView {
    provide_host(host.clone());
    let expired = host.clone();
    let token = Token::new(attributes.token, move |message| expired.emit(TOKEN_EXPIRED, &TokenExpired { message }));
    let references = HostReferences {
        listing_id: attributes.listing_id,
        photo_id: attributes.photo_id,
        photo_url: attributes.photo_url,
        metadata: attributes.metadata,
        header: RwSignal::new(None),
    };
    provide_context(references);
    provide_api(&base, token, references.header);
    provide_account();
    provide_clock();
    provide_live();
    let locale = provide_locale(attributes.lang.into());
    provide_context(ListingPhoto(attributes.photo_url.into()));
    provide_context(ListingDisclosure(attributes.disclosure.into()));
    // The board's waiting photos outlive the board screen: leaving it loses no upload.
    provide_context(BoardPhotos::new());

    let history = match attributes.routing.get_untracked().as_deref() {
        Some("address") => History::Address,
        _ => History::Memory,
    };
    let asked = move || Route::from_view(attributes.view.get().as_deref(), attributes.render_id.get().as_deref());
    let start = untrack(asked).unwrap_or_else(|message| {
        host.error(message);
        Route::Renders
    });
    let navigator = provide_navigator(history, start);
    // The host asks for another screen.
    let refused = host.clone();
    Effect::new(move |first: Option<()>| {
        let wanted = asked();
        if first.is_some() {
            match wanted {
                Ok(route) => navigator.replace(route),
                Err(message) => refused.error(message),
            }
        }
    });
    announce_ready(host, base);
    focus_each_new_screen(navigator);

    // The standalone page offers a language; embedded, the host's `lang` decides.
    let lang = attributes.lang;
    let chooser = (history == History::Address).then(|| screen(move || Box::pin(locale_chooser(lang))));
    view! {
        <div class="vstage" lang=move || leptos_i18n::Locale::as_str(locale.get())>
            {chooser}
            <Header />
            <main class="vstage-main">
                {move || match navigator.route() {
                    Route::Renders => screen(|| Box::pin(renders_screen())),
                    Route::NewRender => screen(|| Box::pin(new_render_screen())),
                    Route::Board => screen(|| Box::pin(board_screen())),
                    Route::Render { id, back } => screen(move || Box::pin(render_screen(id.clone(), back))),
                    Route::RemoveFurniture => screen(|| Box::pin(remove_furniture_screen())),
                    Route::Account => screen(|| Box::pin(account_screen())),
                    Route::Classic => screen(|| Box::pin(classic_screen())),
                    Route::ClassicNew => screen(|| Box::pin(classic_new_screen())),
                    Route::ClassicRender { id } => screen(move || Box::pin(classic_render_screen(id.clone()))),
                    Route::NotFound { .. } => screen(|| Box::pin(unknown_path())),
                }}
            </main>
        </div>
    }
}

// Every screen loads on first use, each a chunk named after its `view` (`-` as `_`, then `_screen`): `/embed.js`
// fetches the one an element starts on beside the main module (`xtask/src/screen_chunks.rs`), so the first load is
// the shell alone (the build holds it to its budget: `xtask/src/first_load.rs`). The screens a host may hide
// (`crate::parts`) check it there, in the chunk.
chunk! {
    list fn renders_screen() -> AnyView {
        view! { <Renders /> }.into_any()
    }
}

chunk! {
    fn new_render_screen() -> AnyView {
        view! { <NewRender /> }.into_any()
    }
}

chunk! {
    fn board_screen() -> AnyView {
        unless_hidden(Part::Board, || view! { <Board /> }.into_any())
    }
}

chunk! {
    fn render_screen(id: String, back: Back) -> AnyView {
        view! { <RenderDetail render_id=Signal::stored(id) back /> }.into_any()
    }
}

chunk! {
    fn remove_furniture_screen() -> AnyView {
        view! { <FurnitureMask /> }.into_any()
    }
}

chunk! {
    fn account_screen() -> AnyView {
        unless_hidden(Part::Account, || view! { <AccountPage /> }.into_any())
    }
}

chunk! {
    fn classic_screen() -> AnyView {
        unless_hidden(Part::Classic, || view! { <ClassicRenders /> }.into_any())
    }
}

chunk! {
    fn classic_new_screen() -> AnyView {
        unless_hidden(Part::Classic, || view! { <ClassicNew /> }.into_any())
    }
}

chunk! {
    fn classic_render_screen(id: String) -> AnyView {
        unless_hidden(Part::Classic, || view! { <ClassicRender render_id=Signal::stored(id) /> }.into_any())
    }
}

// A mistyped link's page, which no host starts on (not a `view`, so not named as a screen).
chunk! {
    fn unknown_path() -> AnyView {
        view! { <NotFound /> }.into_any()
    }
}

// The standalone page's language chooser, which embedded studios never show.
chunk! {
    list fn locale_chooser(lang: RwSignal<Option<String>>) -> AnyView {
        view! { <LocaleChooser lang /> }.into_any()
    }
}

/// Asks each new screen's heading to take the focus; the first screen leaves it where the host page has it.
fn focus_each_new_screen(navigator: crate::route::Navigator) {
    let focus = ScreenFocus::provide();
    Effect::new(move |previous: Option<Route>| {
        let route = navigator.route();
        if previous.is_some_and(|previous| previous != route) {
            focus.screen_changed();
        }
        route
    });
}

/// `vstage-ready` once the server first answers; `vstage-error` with the reason when it cannot be reached (`/embed.js`
/// writes every `vstage-error` to the console for the page's developer; a refused origin names the server's setting).
fn announce_ready(host: Host, api_base: String) {
    let account = use_account();
    Effect::new(move |announced: Option<bool>| {
        if announced == Some(true) {
            return true;
        }
        match account.reachable() {
            None => false,
            Some(Ok(())) => {
                host.emit(READY, &Ready { api_base: api_base.clone() });
                true
            }
            Some(Err(message)) => {
                host.error(message);
                true
            }
        }
    });
}

/// `screen` when the host shows `part`; else the page for what is not found, and a word to the developer.
pub fn unless_hidden(part: Part, screen: impl FnOnce() -> AnyView) -> AnyView {
    let Some(host) = use_host() else { return screen() };
    if is_shown(part, host.attribute("hide").as_deref(), host.attribute("show").as_deref()) {
        return screen();
    }
    host.error(format!("the {} screens are hidden on this page by its hide and show attributes", part.word()));
    view! { <NotFound /> }.into_any()
}
