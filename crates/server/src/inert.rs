//! The headers that keep a file served under this server's origin (an upload, a kept result, a relayed image, a QR
//! code) from ever acting as one of its pages.

use axum::http::header::CONTENT_SECURITY_POLICY;
use axum::http::{HeaderMap, HeaderValue};

/// A file (an image above all) served under this origin can never act as a page of it: opened on its own, it runs
/// no script and reaches nothing (`sandbox`), and it is read as its declared type only (`nosniff`, also set on
/// every answer).
pub fn as_inert(headers: &mut HeaderMap) {
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox; default-src 'none'"));
    headers.insert(axum::http::HeaderName::from_static("x-content-type-options"), HeaderValue::from_static("nosniff"));
}
