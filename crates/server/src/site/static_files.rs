//! The widget's files from `dist/`, with `index.html` for every path the page's router owns (deep links).
//! The build's content-hashed assets are cached for good; everything else is revalidated. The build's precompressed
//! `.br` and `.gz` siblings are sent when the client takes them (`cargo xtask` writes them); other text is gzipped.
//! They are public and loaded by host pages of other origins (`/embed.js`), so any origin may read them.

use std::path::Path;

use axum::Router;
use axum::extract::Request;
use axum::http::HeaderName;
use axum::http::HeaderValue;
use axum::http::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CACHE_CONTROL, VARY};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

pub fn router(dist: &Path) -> Router {
    let page = ServeFile::new(dist.join("index.html")).precompressed_br().precompressed_gzip();
    let assets = ServeDir::new(dist).precompressed_br().precompressed_gzip();
    let files = assets.clone().fallback(page);
    // A hashed name is a file of some build, never a page: when it is missing (a chunk of an earlier build asked
    // for by a page loaded before a deploy) the answer is a 404, not the page, which would be cached for good.
    let serve = move |request: Request| {
        let (assets, files) = (assets.clone(), files.clone());
        async move {
            if is_hashed_asset(request.uri().path()) {
                assets.oneshot(request).await.into_response()
            } else {
                files.oneshot(request).await.into_response()
            }
        }
    };
    Router::new()
        .fallback(serve)
        .layer(axum::middleware::from_fn(cache_control))
        .layer(for_any_origin())
        .layer(compressed())
}

/// Compresses what is not precompressed, as the request's Accept-Encoding allows, and says that the encoding follows
/// it: shared caches must know.
pub fn compressed() -> (SetResponseHeaderLayer<HeaderValue>, CompressionLayer) {
    (SetResponseHeaderLayer::if_not_present(VARY, HeaderValue::from_static("accept-encoding")), CompressionLayer::new())
}

/// Lets pages of any origin read a public file (the widget's script and wasm, images for the mask editor's
/// canvas): `Access-Control-Allow-Origin: *` and `Cross-Origin-Resource-Policy: cross-origin`. No credentials are
/// involved, so this shares nothing a page could not fetch anyway.
pub fn for_any_origin() -> (SetResponseHeaderLayer<HeaderValue>, SetResponseHeaderLayer<HeaderValue>) {
    (
        SetResponseHeaderLayer::if_not_present(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*")),
        SetResponseHeaderLayer::overriding(
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("cross-origin"),
        ),
    )
}

/// `immutable` for hashed assets (`name-<16 hex digits>.ext`), `no-cache` (revalidate) for the rest.
async fn cache_control(request: Request, next: Next) -> Response {
    let hashed = is_hashed_asset(request.uri().path());
    let mut response = next.run(request).await;
    let policy =
        if hashed && response.status().is_success() { "public, max-age=31536000, immutable" } else { "no-cache" };
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static(policy));
    response
}

fn is_hashed_asset(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    let Some((stem, _extension)) = name.split_once('.') else { return false };
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    stem.rsplit_once('-').is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::is_hashed_asset;

    #[test]
    fn hashed_names_are_recognised() {
        assert!(is_hashed_asset("/vstage-widget-a8a2d2dfb24930e9.js"));
        assert!(is_hashed_asset("/vstage-widget-a8a2d2dfb24930e9_bg.wasm"));
        assert!(is_hashed_asset("/vstage-split-a8a2d2dfb24930e9.js"));
        assert!(is_hashed_asset("/split_mask_editor-a8a2d2dfb24930e9.wasm"));
        assert!(is_hashed_asset("/style-aabedfa019130628.css"));
        assert!(!is_hashed_asset("/index.html"));
        assert!(!is_hashed_asset("/renders/rnd_0123456789abcdef"));
        assert!(!is_hashed_asset("/app.js"));
    }
}
