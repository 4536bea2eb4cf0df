//! The kit's TypeScript declarations of `<vstage-widget>` (kit/), served beside `/embed.js` so a host takes the
//! ones that match the widget its server runs: `/vstage-widget.d.ts` (plain DOM), `/vstage-widget-react.d.ts`
//! (React 19's JSX) and `/vstage-widget-vue.d.ts` (Vue 3), the last two importing the first from the same folder.

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::routing::get;

/// Each file's name and text, compiled into the binary from kit/.
const FILES: [(&str, &str); 3] = [
    ("/vstage-widget.d.ts", include_str!("../../../../kit/vstage-widget.d.ts")),
    ("/vstage-widget-react.d.ts", include_str!("../../../../kit/vstage-widget-react.d.ts")),
    ("/vstage-widget-vue.d.ts", include_str!("../../../../kit/vstage-widget-vue.d.ts")),
];

/// The three files as plain text (a `.ts` name would otherwise be guessed as an MPEG stream), revalidated like
/// `/embed.js` since they change with the server.
pub fn routes() -> Router {
    FILES.iter().fold(Router::new(), |router, &(path, text)| {
        router.route(
            path,
            get(move || async move {
                let headers = [
                    (CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8")),
                    (CACHE_CONTROL, HeaderValue::from_static("no-cache")),
                ];
                (headers, text)
            }),
        )
    })
}

#[cfg(test)]
mod tests {
    use crate::testing::{TestApp, text};

    #[tokio::test]
    async fn the_elements_declarations_are_served_as_text_to_any_page() {
        let server = TestApp::start(&[]).await;
        let kit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kit");
        for name in ["vstage-widget.d.ts", "vstage-widget-react.d.ts", "vstage-widget-vue.d.ts"] {
            let answer = server.get(&format!("/{name}")).await;
            assert_eq!(answer.headers()["content-type"], "text/plain; charset=utf-8", "{name}");
            assert_eq!(answer.headers()["access-control-allow-origin"], "*", "{name}");
            let (status, body) = text(answer).await;
            assert_eq!(status, 200, "{name}");
            assert_eq!(body, std::fs::read_to_string(kit.join(name)).unwrap(), "{name}");
        }
    }
}
