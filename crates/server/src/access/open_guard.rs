//! Open access's guard, since open access spends the account's photos for whoever reaches it: only this server's
//! own names get through (a page on another name that resolves here, DNS rebinding, is refused with 421), a
//! state-changing request from another site's page (a plain form post needs no preflight) is refused with 403, and
//! so is any call to `/api` from another site's page (an image tag reads too, and counts against the rate limit),
//! but for the links that are their own permission (signed kept results and uploads, shown by listings anywhere) and
//! the forms' example pictures, which are no one's.
//! The guard runs before a call is admitted, so what it refuses counts against no limit. Same-origin pages,
//! `--allow-origin` pages and clients that send no `Origin` (curl, backends, the service) keep working.

use std::convert::Infallible;
use std::future::Ready;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, Method, Uri};
use axum::response::{IntoResponse, Response};
use futures_util::future::Either;

use crate::error::ServerError;

#[derive(Debug, Clone)]
pub struct OpenGuard {
    /// `host:port` as browsers send it in `Host`, lowercase.
    hosts: Vec<String>,
    /// `scheme://host[:port]`, lowercase: this server's own and the allowed ones.
    origins: Vec<String>,
}

/// Open access's guard as a layer: what it refuses is answered before anything else of the app sees it.
#[derive(Debug, Clone)]
pub struct GuardLayer(pub Arc<OpenGuard>);

impl<S> tower::Layer<S> for GuardLayer {
    type Service = Guarded<S>;

    fn layer(&self, inner: S) -> Guarded<S> {
        Guarded { guard: self.0.clone(), inner }
    }
}

/// `inner` behind open access's guard.
#[derive(Debug, Clone)]
pub struct Guarded<S> {
    guard: Arc<OpenGuard>,
    inner: S,
}

impl<S> tower::Service<axum::extract::Request> for Guarded<S>
where
    S: tower::Service<axum::extract::Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<S::Future, Ready<Result<Response, Infallible>>>;

    fn poll_ready(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::extract::Request) -> Self::Future {
        match self.guard.check(request.method(), request.uri(), request.headers()) {
            Ok(()) => Either::Left(self.inner.call(request)),
            Err(refused) => Either::Right(std::future::ready(Ok(refused.into_response()))),
        }
    }
}

impl OpenGuard {
    /// For a server listening on `listen` (the bound address), reached at `public_url` if given, read by pages of
    /// `allowed_origins`.
    pub fn new(listen: SocketAddr, public_url: Option<&str>, allowed_origins: &[String]) -> Self {
        let port = listen.port();
        let mut hosts = vec![format!("localhost:{port}")];
        hosts.push(match listen {
            SocketAddr::V4(v4) => format!("{}:{port}", v4.ip()),
            SocketAddr::V6(v6) => format!("[{}]:{port}", v6.ip()),
        });
        let mut origins: Vec<String> = hosts.iter().map(|host| format!("http://{host}")).collect();
        if let Some(url) = public_url.and_then(|url| url::Url::parse(url).ok()) {
            if let Some(host) = url.host_str() {
                hosts.push(match url.port() {
                    Some(port) => format!("{host}:{port}"),
                    None => host.to_string(),
                });
            }
            origins.push(url.origin().ascii_serialization());
        }
        origins.extend(allowed_origins.iter().map(|origin| origin.trim_end_matches('/').to_string()));
        let lowercase = |list: Vec<String>| list.into_iter().map(|item| item.to_ascii_lowercase()).collect();
        OpenGuard { hosts: lowercase(hosts), origins: lowercase(origins) }
    }

    /// Whether a request for `uri` may go on.
    pub fn check(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Result<(), ServerError> {
        let host = headers.get(HOST).and_then(|value| value.to_str().ok()).unwrap_or_default();
        if !self.hosts.iter().any(|own| own.eq_ignore_ascii_case(host)) {
            return Err(ServerError::Misdirected(format!(
                "This vstage server answers only to its own address ({}); use that address, or --public-url for \
                 the name it is reached by.",
                self.hosts.join(", ")
            )));
        }
        let reads = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        let calls_the_api = uri.path().starts_with("/api/") && !is_own_permission(uri);
        if reads && !calls_the_api {
            return Ok(());
        }
        if self.is_another_sites(headers) {
            return Err(ServerError::Forbidden(
                "Another site's page may not use this vstage server. Open the studio from the server's own \
                 address, or start the server with --allow-origin for that site."
                    .into(),
            ));
        }
        Ok(())
    }

    /// An `Origin` that is neither ours nor allowed (`null`, from sandboxed frames and files, is nobody's), or
    /// no `Origin` and the browser's word that the page is another site's. An allowed `Origin` passes whatever
    /// `Sec-Fetch-Site` says.
    fn is_another_sites(&self, headers: &HeaderMap) -> bool {
        match headers.get(ORIGIN) {
            Some(origin) => !self.origins.iter().any(|own| own.as_bytes().eq_ignore_ascii_case(origin.as_bytes())),
            None => headers.get("sec-fetch-site").is_some_and(|site| site.as_bytes() == b"cross-site"),
        }
    }
}

/// A GET of a link that is its own permission: a kept result signed by this server, or an upload's random name;
/// or of what is no one's: the forms' example pictures (`examples.rs`), the same for everyone and spending nothing.
fn is_own_permission(uri: &Uri) -> bool {
    let path = uri.path();
    let signed = uri.query().is_some_and(|query| query.split('&').any(|pair| pair.starts_with("sig=")));
    (path.starts_with("/api/results/") && signed)
        || path.starts_with("/api/uploads/")
        || path.starts_with("/api/examples/")
}

/// Through the whole app, in-process, and its parts alone.
#[cfg(test)]
mod tests;
