//! The widget's files from `dist/`, with `index.html` for every path the page's router owns (deep links).
//! The build's content-hashed assets are cached for good; everything else is revalidated. The build's precompressed
//! `.br` and `.gz` siblings are sent when the client takes them (`cargo xtask` writes them); other text is gzipped.
//! They are public and loaded by host pages of other origins (`/embed.js`), so any origin may read them.

use std::path::Path;

use axum::Router;
use axum::extract::Request;
use axum::http::HeaderName;
use axum::http::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CACHE_CONTROL, VARY};
use axum::http::{HeaderValue, StatusCode};
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
            // No file has a name longer than the file system takes (255 bytes): not a file, nor a page's path.
            if request.uri().path().split('/').any(|segment| segment.len() > 255) {
                return StatusCode::NOT_FOUND.into_response();
            }
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

    use axum::body::Body;
    use axum::http::Method;

    use crate::testing::{TestApp, text, widget_files};

    #[tokio::test]
    async fn page_paths_fall_back_to_index_html_and_files_are_served() {
        let server = TestApp::start(&[]).await;
        for path in ["/", "/renders/r_123", "/some/deep/link"] {
            let answer = server.get(path).await;
            assert_eq!(answer.headers()["cache-control"], "no-cache", "{path}");
            let (status, body) = text(answer).await;
            assert_eq!(status, 200, "{path}");
            assert!(body.contains("<title>widget</title>"), "{path}");
        }
        let script = server.get("/app.js").await;
        assert!(script.headers()["content-type"].to_str().unwrap().contains("javascript"));
        assert_eq!(text(script).await.1, "console.log('widget')");
    }

    #[tokio::test]
    async fn hashed_assets_are_cached_for_good_and_text_is_compressed() {
        let dist = widget_files();
        std::fs::write(dist.path().join("vstage-widget-0123456789abcdef.js"), "x".repeat(4096)).unwrap();
        let server = TestApp::serving(dist, &[], Default::default()).await;
        let gzipped =
            server.request(Method::GET, "/vstage-widget-0123456789abcdef.js").header("Accept-Encoding", "gzip");
        let hashed = server.call(gzipped.body(Body::empty()).unwrap()).await;
        assert_eq!(hashed.headers()["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(hashed.headers()["content-encoding"], "gzip");
        assert!(text(hashed).await.1.len() < 4096);
        assert_eq!(server.get("/renders/r1").await.headers()["cache-control"], "no-cache");
    }

    #[tokio::test]
    async fn a_missing_hashed_file_is_a_404_never_the_page_cached_for_good() {
        // A chunk of another build (a page loaded before a deploy) must fail plainly, so that a retry after the
        // deploy is not answered from a cache holding the page under the chunk's name.
        let server = TestApp::start(&[]).await;
        let missing = server.get("/split_account_screen-0123456789abcdef.wasm").await;
        assert_eq!(missing.status(), 404);
        assert_eq!(missing.headers()["cache-control"], "no-cache");
    }

    #[tokio::test]
    async fn a_name_longer_than_a_file_system_takes_is_a_404_here_and_in_the_sandbox() {
        let server = TestApp::start(&[]).await;
        let overlong = "a".repeat(256);
        for path in [format!("/{overlong}"), format!("/renders/{overlong}"), format!("/sandbox/files/{overlong}.jpg")] {
            assert_eq!(server.get(&path).await.status(), 404, "{path}");
        }
        assert_eq!(server.get(&format!("/renders/{}", "a".repeat(255))).await.status(), 200, "a page's path");
    }

    #[tokio::test]
    async fn the_builds_precompressed_files_are_sent_to_clients_that_take_them() {
        let dist = widget_files();
        let wasm = dist.path().join("vstage-widget-0123456789abcdef_bg.wasm");
        std::fs::write(&wasm, b"\0asm plain").unwrap();
        std::fs::write(wasm.with_extension("wasm.br"), b"brotli bytes").unwrap();
        std::fs::write(wasm.with_extension("wasm.gz"), b"gzip bytes").unwrap();
        let server = TestApp::serving(dist, &[], Default::default()).await;
        let path = "/vstage-widget-0123456789abcdef_bg.wasm";
        let taking = |accepted: &str| {
            server.request(Method::GET, path).header("Accept-Encoding", accepted).body(Body::empty()).unwrap()
        };
        for (accepted, encoding, body) in
            [("br, gzip", Some("br"), "brotli bytes"), ("gzip", Some("gzip"), "gzip bytes")]
        {
            let answer = server.call(taking(accepted)).await;
            let headers = answer.headers();
            assert_eq!(headers["content-type"], "application/wasm", "for {accepted}");
            assert_eq!(headers.get("content-encoding").map(|v| v.to_str().unwrap()), encoding, "for {accepted}");
            assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");
            assert_eq!(headers["access-control-allow-origin"], "*");
            assert!(headers["vary"].to_str().unwrap().to_lowercase().contains("accept-encoding"));
            assert_eq!(text(answer).await.1, body, "for {accepted}");
        }
        let plain = server.call(taking("identity")).await;
        assert!(plain.headers().get("content-encoding").is_none());
        assert_eq!(text(plain).await.1, "\0asm plain");
    }
}
