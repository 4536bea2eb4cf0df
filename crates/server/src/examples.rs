//! `GET /api/examples/style/{style}.jpg` and `/api/examples/sky/{sky}.jpg`: the small picture the forms show for
//! each style and sky, made here by `vstage_imaging::examples` from its drawn samples, whatever the upstream (the
//! real service included: the examples are ours). Each is made at its first request, off the worker's thread, and
//! kept in memory for the process's life; the set is bounded (the contract's known styles and skies, a 404 for
//! any other name), so the memory is too (a few KiB each). The picture of a name only changes with the drawing
//! code, so it is cached for good and, like a result's link, readable by any page (`public`, no token: it is no
//! one's data).

use std::sync::LazyLock;

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::sync::OnceCell;
use vstage_api::{SkyStyle, Style};

use crate::error::ServerError;
use crate::inert::as_inert;

/// The examples made so far, one slot per known style and sky, in the order of `Style::KNOWN` and
/// `SkyStyle::KNOWN`.
struct Made {
    styles: Vec<OnceCell<Bytes>>,
    skies: Vec<OnceCell<Bytes>>,
}

static MADE: LazyLock<Made> = LazyLock::new(|| Made {
    styles: Style::KNOWN.iter().map(|_| OnceCell::new()).collect(),
    skies: SkyStyle::KNOWN.iter().map(|_| OnceCell::new()).collect(),
});

/// The routes, under `/api`.
pub fn routes() -> Router {
    Router::new().route("/examples/style/{file}", get(style)).route("/examples/sky/{file}", get(sky))
}

async fn style(Path(file): Path<String>) -> Result<impl IntoResponse, ServerError> {
    let index =
        known(&file, Style::KNOWN.iter().map(Style::as_str)).ok_or_else(|| not_found(&file, "style", "modern.jpg"))?;
    let bytes = made(&MADE.styles[index], move || vstage_imaging::examples::style(&Style::KNOWN[index])).await?;
    Ok(jpeg(bytes))
}

async fn sky(Path(file): Path<String>) -> Result<impl IntoResponse, ServerError> {
    let index = known(&file, SkyStyle::KNOWN.iter().map(SkyStyle::as_str))
        .ok_or_else(|| not_found(&file, "sky", "dusk.jpg"))?;
    let bytes = made(&MADE.skies[index], move || vstage_imaging::examples::sky(&SkyStyle::KNOWN[index])).await?;
    Ok(jpeg(bytes))
}

/// The position among `names` of the one `file` names (`{name}.jpg`).
fn known<'a>(file: &str, mut names: impl Iterator<Item = &'a str>) -> Option<usize> {
    let name = file.strip_suffix(".jpg")?;
    names.position(|known| known == name)
}

fn not_found(file: &str, what: &str, like: &str) -> ServerError {
    ServerError::NotFound(format!(
        "There is no example picture {file:?}: ask for a {what} the service knows, as /api/examples/{what}/{like}."
    ))
}

/// The example in `slot`, made by `make` the first time (on a thread for blocking work: staging a room takes a
/// moment), the same bytes every time after. Requests that come while it is being made wait for it: a burst of
/// first requests makes it once.
async fn made(
    slot: &OnceCell<Bytes>,
    make: impl FnOnce() -> Result<Vec<u8>, String> + Send + 'static,
) -> Result<Bytes, ServerError> {
    let failed = |error: String| ServerError::Internal(format!("The example picture could not be made ({error})."));
    let making = || async move {
        let made = tokio::task::spawn_blocking(make).await.map_err(|error| failed(error.to_string()))?;
        made.map(Bytes::from).map_err(failed)
    };
    slot.get_or_try_init(making).await.cloned()
}

fn jpeg(bytes: Bytes) -> impl IntoResponse {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("image/jpeg"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    as_inert(&mut headers);
    (headers, bytes)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::testing::TestApp;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_first_requests_makes_the_picture_once() {
        static SLOT: OnceCell<Bytes> = OnceCell::const_new();
        static MAKING: AtomicUsize = AtomicUsize::new(0);
        let asking = (0..16).map(|_| {
            tokio::spawn(made(&SLOT, || {
                MAKING.fetch_add(1, Ordering::SeqCst);
                vstage_imaging::examples::sky(&SkyStyle::KNOWN[0])
            }))
        });
        let pictures: Vec<Bytes> =
            futures_util::future::try_join_all(asking).await.unwrap().into_iter().collect::<Result<_, _>>().unwrap();
        assert!(pictures.windows(2).all(|pair| pair[0] == pair[1]), "the same picture for every request");
        assert_eq!(MAKING.load(Ordering::SeqCst), 1, "made once");
    }

    #[tokio::test]
    async fn each_known_style_and_sky_has_a_picture_cached_for_good() {
        let server = TestApp::start(&[]).await;
        for path in ["/api/examples/style/modern.jpg", "/api/examples/style/coastal.jpg", "/api/examples/sky/blue.jpg"]
        {
            let (head, bytes) = server.bytes(path).await;
            assert_eq!(head.status(), 200, "{path}");
            assert_eq!(head.headers()["content-type"], "image/jpeg", "{path}");
            assert_eq!(head.headers()["cache-control"], "public, max-age=31536000, immutable", "{path}");
            assert_eq!(head.headers()["cross-origin-resource-policy"], "cross-origin", "{path}: any page may show it");
            let picture = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).unwrap();
            assert_eq!(picture.width(), vstage_imaging::examples::WIDTH, "{path}");
            assert!(bytes.len() < 8 * 1024, "{path}: {} bytes", bytes.len());
            let (_, again) = server.bytes(path).await;
            assert_eq!(again, bytes, "{path}: the same picture every time");
        }
        let (_, modern) = server.bytes("/api/examples/style/modern.jpg").await;
        let (_, luxury) = server.bytes("/api/examples/style/luxury.jpg").await;
        assert_ne!(modern, luxury, "each style looks its own");
    }

    #[tokio::test]
    async fn only_known_styles_and_skies_have_a_picture() {
        let server = TestApp::start(&[]).await;
        for path in [
            "/api/examples/style/gothic.jpg",
            "/api/examples/style/modern.png",
            "/api/examples/style/modern",
            "/api/examples/sky/dusk.jpg.jpg",
            "/api/examples/sky/modern.jpg",
            "/api/examples/room/living.jpg",
            "/api/examples/style/..%2Fsky%2Fdusk.jpg",
        ] {
            let answer = server.get(path).await;
            assert_eq!(answer.status(), 404, "{path}");
        }
    }

    #[tokio::test]
    async fn a_page_of_another_site_may_show_the_pictures() {
        let server = TestApp::start(&[]).await;
        let answer = server
            .ask(axum::http::Method::GET, "/api/examples/style/luxury.jpg")
            .header("sec-fetch-site", "cross-site")
            .send()
            .await;
        assert_eq!(answer.status(), 200, "an image tag on a listing shows it");
    }
}
