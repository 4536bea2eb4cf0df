//! `/embed.js`: the one script a listing site adds. It loads the widget's wasm once per page from this server
//! (whatever page origin it is used from) and so defines `<vstage-widget>`; it is revalidated, what it loads is hashed.
//! The main module and the chunk of each element's first screen (`vstage-screens.json`, written by the build; on the
//! standalone page its language chooser's too) are fetched at once, side by side, before the glue that needs them
//! has arrived.

use std::collections::BTreeMap;
use std::path::Path;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, HOST, IF_NONE_MATCH, ORIGIN, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The widget's wasm-bindgen module as `cargo xtask` names it: `vstage-widget-<hash>.js` beside `..._bg.wasm`.
const BINARY: &str = "vstage-widget";
/// Each screen's `view` to the files its chunk fetches, as the build writes it (`xtask/src/screen_chunks.rs`).
const SCREENS: &str = "vstage-screens.json";

/// `/embed.js`, the widget's loader: made once at start from the built widget's file names. A page whose origin
/// this server does not allow (`--allow-origin`) gets it with a word for the widget and the console first: the
/// browser hides from a page why a call to another origin failed, and the studio should say it to the agent.
#[derive(Debug, Clone)]
pub struct Loader {
    body: Result<String, String>,
    etag: HeaderValue,
    /// The page origins allowed besides this server's own.
    allowed: Vec<String>,
}

impl Loader {
    pub fn from_dist(dist: &Path) -> Self {
        let body = glue_name(dist).and_then(|glue| Ok(loader(&glue, &screens(dist)?)));
        let digest = Sha256::digest(body.as_ref().unwrap_or_else(|missing| missing).as_bytes());
        let etag = HeaderValue::from_str(&format!("\"{}\"", hex::encode(&digest[..12])))
            .unwrap_or_else(|_| HeaderValue::from_static("\"vstage\""));
        Loader { body, etag, allowed: Vec::new() }
    }

    /// Pages of `origins` (`--allow-origin`) may use the studio.
    pub fn allowing(mut self, origins: &[String]) -> Self {
        self.allowed = origins.iter().map(|origin| origin.trim_end_matches('/').to_ascii_lowercase()).collect();
        self
    }

    /// The page's origin when it is another than this server's and not allowed.
    fn refused<'a>(&self, request_headers: &'a HeaderMap) -> Option<&'a str> {
        let origin = request_headers.get(ORIGIN)?.to_str().ok()?;
        let host = request_headers.get(HOST).and_then(|host| host.to_str().ok());
        let own = origin.split_once("://").is_some_and(|(_, authority)| Some(authority) == host);
        let allowed =
            own || origin == "null" || self.allowed.iter().any(|allowed| allowed.eq_ignore_ascii_case(origin));
        (!allowed).then_some(origin)
    }

    /// Whether the widget was found: else what is missing, which the script also says in the host's console.
    pub fn built(&self) -> Result<(), &str> {
        self.body.as_ref().map(|_| ()).map_err(String::as_str)
    }

    pub fn respond(&self, request_headers: &HeaderMap) -> Response {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8"));
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(ETAG, self.etag.clone());
        let body = match &self.body {
            Ok(body) => body.clone(),
            Err(missing) => {
                let message = serde_json::to_string(missing).unwrap_or_default();
                return (StatusCode::SERVICE_UNAVAILABLE, headers, format!("console.error({message});\n"))
                    .into_response();
            }
        };
        headers.insert(VARY, HeaderValue::from_static("Origin"));
        if let Some(origin) = self.refused(request_headers) {
            // Not cached: the operator may allow it and restart.
            headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
            headers.remove(ETAG);
            return (headers, format!("{}{body}", refusal(origin))).into_response();
        }
        if request_headers.get(IF_NONE_MATCH).is_some_and(|tags| matches_etag(tags, &self.etag)) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        (headers, body).into_response()
    }
}

/// What `/embed.js` says first to a page of `origin`, which this server does not allow: the widget reads it
/// (`src/api.rs`) when its calls get no answer, and the page's developer reads the setting in the console.
fn refusal(origin: &str) -> String {
    let origin = serde_json::to_string(origin).unwrap_or_default();
    let told = serde_json::to_string(&format!(
        "vstage: this server does not allow pages of {} to use the studio; start it with --allow-origin {}",
        origin.trim_matches('"'),
        origin.trim_matches('"')
    ))
    .unwrap_or_default();
    format!("globalThis[Symbol.for(\"vstage.widget.refused\")] = {origin};\nconsole.error({told});\n")
}

/// The ES module: loads the glue and the wasm beside it once per page, however often and under whatever address
/// the script is included; the wasm's start defines the element. The wasm and the files of each element's first
/// screen are asked for at once, the glue beside them; wasm-split's loader takes those fetches from
/// `vstage.widget.preloads` (`xtask/src/widget.rs`) rather than asking again. Every `vstage-error` is also written
/// to the console, for the page's developer. Nothing is added to the host's page.
fn loader(glue: &str, screens: &Screens) -> String {
    let wasm = format!("{}_bg.wasm", glue.trim_end_matches(".js"));
    let screens = serde_json::to_string(screens).unwrap_or_else(|_| "{}".into());
    format!(
        r#"// vstage: defines <vstage-widget> (see the README, "Embed vstage in your site").
const loading = Symbol.for("vstage.widget.loading");
globalThis[loading] ??= (async () => {{
  if (customElements.get("vstage-widget")) return;
  document.addEventListener("vstage-error", (event) => console.error("vstage:", event.detail?.message));
  const here = (file) => new URL(`./${{file}}`, import.meta.url);
  const wasm = fetch(here("{wasm}"));
  const screens = {screens};
  const views = Array.from(document.querySelectorAll("vstage-widget"), startView);
  if (document.querySelector('vstage-widget[routing="address"]')) views.push("locale-chooser");
  const preloads = (globalThis[Symbol.for("vstage.widget.preloads")] = new Map());
  for (const file of new Set(views.flatMap((view) => (Object.hasOwn(screens, view) ? screens[view] : [])))) {{
    const url = here(file);
    const response = fetch(url);
    response.catch(() => {{}});
    preloads.set(url.href, response);
  }}
  const glue = await import(here("{glue}").href);
  await glue.default({{ module_or_path: wasm }});
}})();
await globalThis[loading];

// The screen an element starts on: its `view`, or for the standalone page its address (as src/route.rs reads them).
function startView(element) {{
  if (element.getAttribute("routing") !== "address") return element.getAttribute("view")?.trim() || "renders";
  const path = location.pathname.replace(/\/+$/, "");
  const fixed = {{ "": "renders", "/renders/new": "new-render", "/board": "board", "/remove-furniture": "remove-furniture",
    "/account": "account", "/classic": "classic", "/classic/new": "classic-new" }};
  if (Object.hasOwn(fixed, path)) return fixed[path];
  if (/^\/classic\/renders\/[^/]+$/.test(path)) return "classic-render";
  return /^\/renders\/[^/]+$/.test(path) ? "render" : "";
}}
"#
    )
}

/// Each screen's `view` to the files its chunk fetches.
type Screens = BTreeMap<String, Vec<String>>;

/// The build's list of each screen's files, every one a plain file name (a preload of one that is missing fails
/// alone, and the screen then loads as without it); none for a build without chunks (`trunk serve`'s), a sentence
/// saying what to do for a list that cannot be read.
fn screens(dist: &Path) -> Result<Screens, String> {
    let path = dist.join(SCREENS);
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(Screens::new()) };
    let unreadable = |why: String| {
        format!("vstage: {} cannot be read ({why}); build the widget again with `cargo xtask run`.", path.display())
    };
    let screens: Screens = serde_json::from_str(&text).map_err(|error| unreadable(error.to_string()))?;
    for file in screens.values().flatten() {
        let plain = !file.is_empty() && !file.contains(['/', '\\']) && file != "..";
        if !plain {
            return Err(unreadable(format!("it names {file:?}, which is not a file name")));
        }
    }
    Ok(screens)
}

/// The glue's file name in `dist`, or a sentence saying what to do.
fn glue_name(dist: &Path) -> Result<String, String> {
    let not_built = || {
        format!(
            "vstage: the widget is not built in {} on this server; build it with `cargo xtask run` and restart vstage \
             serve.",
            dist.display()
        )
    };
    let entries = std::fs::read_dir(dist).map_err(|_| not_built())?;
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| {
            name.strip_prefix(BINARY)
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|rest| rest.strip_suffix(".js"))
                .is_some_and(|hash| !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_hexdigit()))
        })
        .filter(|name| dist.join(format!("{}_bg.wasm", name.trim_end_matches(".js"))).is_file())
        .collect();
    names.sort();
    match names.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(not_built()),
        _ => Err(format!(
            "vstage: {} holds several builds of the widget ({}); build again into an empty folder.",
            dist.display(),
            names.join(", ")
        )),
    }
}

fn matches_etag(if_none_match: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(tags) = if_none_match.to_str() else { return false };
    let etag = etag.to_str().unwrap_or_default();
    tags.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_names_the_hashed_glue_and_wasm_and_each_screens_files() {
        let folder = tempfile::tempdir().unwrap();
        let dist = folder.path();
        for file in ["vstage-widget-0123456789abcdef.js", "vstage-widget-0123456789abcdef_bg.wasm", "index.html"] {
            std::fs::write(dist.join(file), "").unwrap();
        }
        for file in ["split_board_screen-0123456789abcdef.wasm", "chunk_1-0123456789abcdef.wasm"] {
            std::fs::write(dist.join(file), "").unwrap();
        }
        let screens = r#"{"board": ["split_board_screen-0123456789abcdef.wasm", "chunk_1-0123456789abcdef.wasm"]}"#;
        std::fs::write(dist.join(SCREENS), screens).unwrap();
        let script = Loader::from_dist(dist);
        let body = script.body.clone().unwrap();
        assert!(body.contains(r#"import(here("vstage-widget-0123456789abcdef.js").href)"#), "{body}");
        assert!(body.contains(r#"fetch(here("vstage-widget-0123456789abcdef_bg.wasm"))"#), "{body}");
        let listed = r#"{"board":["split_board_screen-0123456789abcdef.wasm","chunk_1-0123456789abcdef.wasm"]}"#;
        assert!(body.contains(listed), "{body}");

        let mut headers = HeaderMap::new();
        headers.insert(IF_NONE_MATCH, script.etag.clone());
        assert_eq!(script.respond(&headers).status(), StatusCode::NOT_MODIFIED);
        assert_eq!(script.respond(&HeaderMap::new()).status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn a_page_of_an_origin_not_allowed_is_told_so_first() {
        let folder = tempfile::tempdir().unwrap();
        for file in ["vstage-widget-0123456789abcdef.js", "vstage-widget-0123456789abcdef_bg.wasm"] {
            std::fs::write(folder.path().join(file), "").unwrap();
        }
        let script = Loader::from_dist(folder.path()).allowing(&["https://Listings.example/".into()]);
        let body = |origin: Option<&str>| {
            let mut headers = HeaderMap::new();
            headers.insert(HOST, HeaderValue::from_static("vstage.example:8080"));
            if let Some(origin) = origin {
                headers.insert(ORIGIN, HeaderValue::from_str(origin).unwrap());
            }
            let response = script.respond(&headers);
            assert_eq!(response.headers()[VARY], "Origin");
            async move { String::from_utf8(axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap().to_vec()) }
        };
        for allowed in [None, Some("https://listings.example"), Some("http://vstage.example:8080")] {
            let said = body(allowed).await.unwrap();
            assert!(!said.contains("vstage.widget.refused"), "{allowed:?}: {said}");
        }
        let said = body(Some("https://elsewhere.example")).await.unwrap();
        assert!(
            said.starts_with(r#"globalThis[Symbol.for("vstage.widget.refused")] = "https://elsewhere.example";"#),
            "{said}"
        );
        assert!(said.contains("start it with --allow-origin https://elsewhere.example"), "{said}");
        assert!(said.contains("customElements.get"), "and the loader after it: {said}");
    }

    #[test]
    fn a_screens_list_naming_anything_but_file_names_is_refused() {
        let folder = tempfile::tempdir().unwrap();
        let dist = folder.path();
        std::fs::write(dist.join("vstage-widget-0123456789abcdef.js"), "").unwrap();
        std::fs::write(dist.join("vstage-widget-0123456789abcdef_bg.wasm"), "").unwrap();
        for listed in [r#"{"board": ["../secret.wasm"]}"#, r#"{"board": ["https://elsewhere/x.wasm"]}"#, "not json"] {
            std::fs::write(dist.join(SCREENS), listed).unwrap();
            let refused = Loader::from_dist(dist).body.unwrap_err();
            assert!(refused.contains("build the widget again"), "{listed}: {refused}");
        }
    }

    /// `startView` reads the standalone page's fixed addresses as `src/route.rs` does: each `"path" =>
    /// Route::X` of `from_path` maps to the view that `from_view` reads as `Route::X`.
    #[test]
    fn the_standalone_pages_addresses_name_the_views_the_widget_shows_there() {
        let route = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/route.rs")).unwrap();
        // the last quoted word before ` => ` and the variant after `marker` on each arm
        let arms = |marker: &str| -> Vec<(String, String)> {
            route
                .lines()
                .filter_map(|line| {
                    let (pattern, result) = line.trim().split_once(" => ")?;
                    let variant = result.strip_prefix(marker)?.split([',', ')', ' ']).next()?;
                    let word = pattern.rsplit('"').nth(1)?;
                    pattern.ends_with('"').then(|| (word.to_string(), variant.to_string()))
                })
                .collect()
        };
        let paths = arms("Route::");
        let views = arms("Ok(Route::");
        assert!(paths.len() >= 7 && views.len() >= 7, "read {paths:?} and {views:?} from src/route.rs");
        let script = loader("vstage-widget-0123456789abcdef.js", &Screens::new());
        for (path, variant) in paths {
            let (view, _) = views.iter().find(|(_, shown)| *shown == variant).expect("each screen has a view");
            assert!(script.contains(&format!("\"{path}\": \"{view}\"")), "{path} should start on {view}: {script}");
        }
    }

    #[test]
    fn a_missing_build_says_how_to_make_one() {
        let script = Loader::from_dist(tempfile::tempdir().unwrap().path());
        assert!(script.built().is_err());
        assert!(script.body.unwrap_err().contains("cargo xtask run"));
    }

    use axum::body::Body;
    use axum::http::Method;
    use http_body_util::BodyExt;

    use crate::testing::{TestApp, text, widget_files};

    #[tokio::test]
    async fn embed_js_is_compressed_for_clients_that_take_it() {
        // The script carries each screen's list of files: a few kilobytes that compress to a quarter.
        let dist = widget_files();
        let files: Vec<String> = (0..40).map(|n| format!("chunk_{n}-0123456789abcdef.wasm")).collect();
        let screens = serde_json::json!({ "board": files, "account": files });
        std::fs::write(dist.path().join("vstage-screens.json"), screens.to_string()).unwrap();
        let server = TestApp::serving(dist, &[], Default::default()).await;
        let taking = |accepted: &str| {
            server.request(Method::GET, "/embed.js").header("Accept-Encoding", accepted).body(Body::empty()).unwrap()
        };
        let plain = text(server.call(taking("identity")).await).await.1;
        assert!(plain.contains("chunk_39-0123456789abcdef.wasm"));
        let answer = server.call(taking("gzip")).await;
        assert_eq!(answer.headers()["content-encoding"], "gzip");
        let vary: Vec<String> =
            answer.headers().get_all("vary").iter().map(|value| value.to_str().unwrap().to_lowercase()).collect();
        assert!(vary.iter().any(|value| value.contains("accept-encoding")), "{vary:?}");
        assert!(vary.iter().any(|value| value.contains("origin")), "{vary:?}");
        assert_eq!(answer.headers()["access-control-allow-origin"], "*");
        let sent = answer.into_body().collect().await.unwrap().to_bytes();
        assert!(sent.len() * 3 < plain.len(), "{} bytes sent for {}", sent.len(), plain.len());
    }
}
