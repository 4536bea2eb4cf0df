//! Where the studio is: one `Route` value in a signal, kept in memory (embedded: the host's address and history
//! are never touched) or mirrored in the page's address (the standalone page: deep links survive a reload).

use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// A screen of the studio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Renders,
    NewRender,
    /// The listing board: many photos at once.
    Board,
    /// One render, and the screen its "back" link returns to (where the agent opened it from).
    Render {
        id: String,
        back: Back,
    },
    RemoveFurniture,
    Account,
    /// The classic (v1) renders, a new one, and one of them.
    Classic,
    ClassicNew,
    ClassicRender {
        id: String,
    },
    /// An address the studio does not know (only the standalone page can be sent to one).
    NotFound {
        path: String,
    },
}

/// Where a render's page was opened from, which its "back" link returns to: the list of renders (and wherever
/// else a render is opened, a new one's page included), or the listing board. On the standalone page the board's
/// renders have addresses of their own (`/board/renders/{id}`), so a reload keeps the way back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Back {
    #[default]
    Renders,
    Board,
}

impl Back {
    /// The screen the link leads to.
    pub fn route(self) -> Route {
        match self {
            Back::Renders => Route::Renders,
            Back::Board => Route::Board,
        }
    }
}

/// The `view` attribute's values, in the order `docs/embedding.md` lists them.
pub const VIEWS: [&str; 9] = [
    "renders",
    "new-render",
    "board",
    "render",
    "remove-furniture",
    "account",
    "classic",
    "classic-new",
    "classic-render",
];

impl Route {
    /// The screen at a page path; a trailing slash is ignored.
    pub fn from_path(path: &str) -> Route {
        let trimmed = path.trim_end_matches('/');
        match trimmed {
            "" => Route::Renders,
            "/renders/new" => Route::NewRender,
            "/board" => Route::Board,
            "/remove-furniture" => Route::RemoveFurniture,
            "/account" => Route::Account,
            "/classic" => Route::Classic,
            "/classic/new" => Route::ClassicNew,
            _ => render_from_path(trimmed).unwrap_or_else(|| Route::NotFound { path: path.to_string() }),
        }
    }

    /// The path this screen has on the standalone page.
    pub fn path(&self) -> String {
        match self {
            Route::Renders => "/".into(),
            Route::NewRender => "/renders/new".into(),
            Route::Board => "/board".into(),
            Route::Render { id, back: Back::Renders } => format!("/renders/{id}"),
            Route::Render { id, back: Back::Board } => format!("/board/renders/{id}"),
            Route::RemoveFurniture => "/remove-furniture".into(),
            Route::Account => "/account".into(),
            Route::Classic => "/classic".into(),
            Route::ClassicNew => "/classic/new".into(),
            Route::ClassicRender { id } => format!("/classic/renders/{id}"),
            Route::NotFound { path } => path.clone(),
        }
    }

    /// The screen an embedded widget's `view` and `render-id` attributes ask for; a sentence for the host's
    /// developer when they do not name one.
    pub fn from_view(view: Option<&str>, render_id: Option<&str>) -> Result<Route, String> {
        match view.map(str::trim).unwrap_or("renders") {
            "" | "renders" => Ok(Route::Renders),
            "new-render" => Ok(Route::NewRender),
            "board" => Ok(Route::Board),
            "remove-furniture" => Ok(Route::RemoveFurniture),
            "account" => Ok(Route::Account),
            "classic" => Ok(Route::Classic),
            "classic-new" => Ok(Route::ClassicNew),
            view @ ("render" | "classic-render") => match render_id.map(str::trim) {
                Some(id) if is_render_id(id) && view == "render" => {
                    Ok(Route::Render { id: id.to_string(), back: Back::Renders })
                }
                Some(id) if is_render_id(id) => Ok(Route::ClassicRender { id: id.to_string() }),
                Some(id) if !id.is_empty() => {
                    Err(format!("render-id \"{id}\" is not a render id; give the id the service returned"))
                }
                _ => Err(format!("view=\"{view}\" needs a render-id attribute naming the render to show")),
            },
            other => Err(format!("view \"{other}\" is not one of {}", VIEWS.join(", "))),
        }
    }
}

/// A render's screen at `path` (without a trailing slash), opened from the list or the board, or a classic one.
fn render_from_path(path: &str) -> Option<Route> {
    let id = |prefix: &str| path.strip_prefix(prefix).filter(|id| is_render_id(id)).map(str::to_string);
    if let Some(id) = id("/renders/") {
        return Some(Route::Render { id, back: Back::Renders });
    }
    if let Some(id) = id("/board/renders/") {
        return Some(Route::Render { id, back: Back::Board });
    }
    id("/classic/renders/").map(|id| Route::ClassicRender { id })
}

/// What the service's ids look like (letters, digits, `_` and `-`); anything else is not a render.
fn is_render_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Where the route lives besides its signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum History {
    /// Only in memory: the embedded widget.
    #[default]
    Memory,
    /// Also in the page's address and history: the standalone page.
    Address,
}

/// The current route and how to move: shared through context by the studio.
#[derive(Debug, Clone, Copy)]
pub struct Navigator {
    route: RwSignal<Route>,
    history: History,
}

impl Navigator {
    pub fn route(&self) -> Route {
        self.route.get()
    }

    pub fn history(&self) -> History {
        self.history
    }

    /// Whether `to` is the screen shown now.
    pub fn is_current(&self, to: &Route) -> bool {
        self.route.with(|route| route == to)
    }

    /// Shows `to`; on the standalone page it becomes a new entry of the page's history.
    pub fn go(&self, to: Route) {
        if self.route.with_untracked(|route| *route == to) {
            return;
        }
        if self.history == History::Address
            && let Some(window) = web_sys::window()
        {
            if let Ok(history) = window.history() {
                let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&to.path()));
            }
            window.scroll_to_with_x_and_y(0.0, 0.0);
        }
        self.route.set(to);
    }

    /// Shows `to` without adding to the page's history (the host changed the `view` attribute).
    pub fn replace(&self, to: Route) {
        self.route.set(to);
    }
}

/// Starts at `start` (the standalone page starts where its address says) and provides the navigator below.
/// With the page's address, the back and forward buttons move the studio; the listener goes with the studio.
pub fn provide_navigator(history: History, start: Route) -> Navigator {
    let route = RwSignal::new(match history {
        History::Memory => start,
        History::Address => page_path().map(|path| Route::from_path(&path)).unwrap_or(start),
    });
    if history == History::Address {
        let listener = window_event_listener(leptos::ev::popstate, move |_| {
            if let Some(path) = page_path() {
                route.set(Route::from_path(&path));
            }
        });
        on_cleanup(move || listener.remove());
    }
    let navigator = Navigator { route, history };
    provide_context(navigator);
    navigator
}

pub fn use_navigator() -> Navigator {
    use_context::<Navigator>().expect("provide_navigator is called by the studio before any page")
}

fn page_path() -> Option<String> {
    web_sys::window()?.location().pathname().ok()
}
