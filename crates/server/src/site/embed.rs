//! `/embed.js`: the one script a listing site adds. It loads the widget's wasm once per page from this server
//! (whatever page origin it is used from) and so defines `<vstage-widget>`; it is revalidated, what it loads is hashed.

use std::path::Path;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The widget's wasm-bindgen module as `cargo xtask` names it: `vstage-widget-<hash>.js` beside `..._bg.wasm`.
const BINARY: &str = "vstage-widget";

/// The script, made once at start from the built widget's file names.
#[derive(Debug, Clone)]
pub struct EmbedScript {
    body: Result<String, String>,
    etag: HeaderValue,
}

impl EmbedScript {
    pub fn from_dist(dist: &Path) -> Self {
        let body = glue_name(dist).map(|glue| loader(&glue));
        let digest = Sha256::digest(body.as_ref().unwrap_or_else(|missing| missing).as_bytes());
        let etag = HeaderValue::from_str(&format!("\"{}\"", hex::encode(&digest[..12])))
            .unwrap_or_else(|_| HeaderValue::from_static("\"vstage\""));
        EmbedScript { body, etag }
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
        if request_headers.get(IF_NONE_MATCH).is_some_and(|tags| matches_etag(tags, &self.etag)) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        (headers, body).into_response()
    }
}

/// The ES module: loads the glue and the wasm beside it once per page, however often and under whatever address
/// the script is included; the wasm's start defines the element.
fn loader(glue: &str) -> String {
    let wasm = format!("{}_bg.wasm", glue.trim_end_matches(".js"));
    format!(
        r#"// vstage: defines <vstage-widget> (see the README, "Embed vstage in your site").
const loading = Symbol.for("vstage.widget.loading");
globalThis[loading] ??= (async () => {{
  if (customElements.get("vstage-widget")) return;
  const glue = await import(new URL("./{glue}", import.meta.url).href);
  await glue.default({{ module_or_path: new URL("./{wasm}", import.meta.url) }});
}})();
await globalThis[loading];
"#
    )
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
    fn the_loader_names_the_hashed_glue_and_wasm() {
        let folder = tempfile::tempdir().unwrap();
        let dist = folder.path();
        std::fs::write(dist.join("vstage-widget-0123456789abcdef.js"), "").unwrap();
        std::fs::write(dist.join("vstage-widget-0123456789abcdef_bg.wasm"), "").unwrap();
        std::fs::write(dist.join("index.html"), "").unwrap();
        let script = EmbedScript::from_dist(dist);
        let body = script.body.clone().unwrap();
        assert!(body.contains(r#"new URL("./vstage-widget-0123456789abcdef.js", import.meta.url)"#), "{body}");
        assert!(body.contains(r#"new URL("./vstage-widget-0123456789abcdef_bg.wasm", import.meta.url)"#), "{body}");

        let mut headers = HeaderMap::new();
        headers.insert(IF_NONE_MATCH, script.etag.clone());
        assert_eq!(script.respond(&headers).status(), StatusCode::NOT_MODIFIED);
        assert_eq!(script.respond(&HeaderMap::new()).status(), StatusCode::OK);
    }

    #[test]
    fn a_missing_build_says_how_to_make_one() {
        let script = EmbedScript::from_dist(tempfile::tempdir().unwrap().path());
        assert!(script.built().is_err());
        assert!(script.body.unwrap_err().contains("cargo xtask run"));
    }
}
