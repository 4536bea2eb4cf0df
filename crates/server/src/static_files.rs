//! The widget's files from `dist/`, with `index.html` for every path the page's router owns (deep links).
//! Everything is revalidated (`no-cache`, answered 304 when unchanged) until hashed assets get long caching.

use std::path::Path;

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::CACHE_CONTROL;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

pub fn router(dist: &Path) -> Router {
    let files = ServeDir::new(dist).fallback(ServeFile::new(dist.join("index.html")));
    Router::new()
        .fallback_service(files)
        .layer(SetResponseHeaderLayer::if_not_present(CACHE_CONTROL, HeaderValue::from_static("no-cache")))
}
