//! One worker's app, a tower service made from the shared state around the worker's own connections to the
//! service: the proxy's endpoints first, as a layer (the hot path, matched against the allow-list in
//! `proxy::routes`), then an axum `Router` for everything else; CORS around both when origins are allowed, the
//! open-access guard, the slow-body answer and the request log around all. The layers wrap the router rather than
//! being the router's own (`Router::layer`), as axum's documentation has middleware that must run before routing:
//! the hot path never reaches the router's matching or its boxed routes.

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use axum::routing::{get, post};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::access::open_guard::GuardLayer;
use crate::error::ServerError;
use crate::live::{events, webhooks};
use crate::proxy::{self, Proxy};
use crate::request_log::LogLayer;
use crate::results::fetch::ResultFetcher;
use crate::serving::min_rate::SlowBodyLayer;
use crate::serving::{App, body_deadline};
use crate::site::{declarations, demo, static_files};
use crate::state::AppState;
use crate::storage::uploads;
use crate::upstream::http_client::HttpClient;
use crate::upstream::sandbox_files;
use crate::{
    access, allowance, board, capabilities, disclosure, downloads, error, examples, health, metrics, references,
    results,
};

/// One worker's app (called once on each worker's thread, each with its own connections to the service). From
/// the outside in: the request log, the slow-body answer, the open-access guard, CORS when origins are allowed,
/// the proxy's endpoints (matched on the raw request: the hot path is one match, then the call), then the router.
pub fn build(state: &AppState) -> anyhow::Result<impl App + use<>> {
    let http = HttpClient::new()?;
    let proxy = Arc::new(Proxy { state: state.proxy.clone(), http: http.clone() });
    let fetcher =
        ResultFetcher::new(http.clone(), state.proxy.upstream.sandbox().cloned(), state.proxy.public_url.clone())?;
    let router = router(state, proxy.clone(), fetcher, http);
    let front = tower::ServiceBuilder::new()
        .layer(LogLayer::new()?)
        .layer(SlowBodyLayer)
        .option_layer(state.guard.clone().map(|guard| GuardLayer(Arc::new(guard))))
        // Every answer is read as the type it says: a relayed body is never run as a script or page of this
        // origin because a browser guessed.
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .option_layer(state.cors.clone())
        .layer(proxy::Routes::new(proxy))
        .service(router);
    Ok(front)
}

/// The routes besides the proxy's: uploads, live events, the board, kept results and ZIPs, capabilities, the
/// forms' example pictures, the webhook receiver, the sandbox's images and demo page, health, the widget's files and `/embed.js`. Each part of
/// the state goes to the routes that use it (`with_state`).
fn router(state: &AppState, proxy: Arc<Proxy>, fetcher: ResultFetcher, http: HttpClient) -> Router {
    let shared = &state.proxy;
    let authenticated = || axum::middleware::from_fn_with_state(shared.gate.clone(), access::authenticate);
    let mut upload = post(uploads::upload).with_state(state.uploads.clone());
    if let Some(limit) = state.upload_timeout {
        upload = upload.layer(axum::middleware::from_fn_with_state(limit, body_deadline::whole_within));
    }
    let uploads = Router::new()
        .route("/uploads", upload.layer(DefaultBodyLimit::max(uploads::BODY_LIMIT)))
        .layer(authenticated());
    let for_a_subject = Router::new()
        .route("/events", get(events::stream).with_state(shared.events.clone()))
        .merge(downloads::routes(proxy.clone(), fetcher.clone(), state.boards.clone(), state.disclosures.clone()))
        .merge(disclosure::routes(state.disclosures.clone(), proxy.clone(), fetcher))
        .merge(board::routes(state.boards.clone(), shared.ownership.clone()))
        .merge(references::routes(shared.ownership.clone()))
        .merge(allowance::routes(shared.allowances.clone(), shared.events.clone()))
        .merge(results::kept::routes(shared.kept.clone()))
        .merge(proxy::listing::v1_route(proxy))
        .layer(authenticated());
    // Anyone may send a webhook delivery (its signature is checked once it is read).
    let webhook =
        post(webhooks::receive).with_state(state.receiver.clone()).layer(DefaultBodyLimit::max(webhooks::BODY_LIMIT));
    let mut api = for_a_subject
        .route("/capabilities", capabilities::route(state.capabilities.clone()))
        .route("/webhooks/service", webhook)
        .route(
            "/uploads/{name}",
            get(uploads::serve).with_state(state.uploads.clone()).layer(static_files::for_any_origin()),
        )
        .merge(results::kept::link_routes(shared.kept.clone()).layer(static_files::for_any_origin()))
        .merge(examples::routes().layer(static_files::for_any_origin()))
        .fallback(|| async { ServerError::NotFound("No such API endpoint on this vstage server.".into()) });
    if let Some(limit) = shared.body_timeout {
        // Every body arrives whole in time, not merely each part of it (the proxy's calls are held to the same).
        api = api.layer(axum::middleware::from_fn_with_state(limit, body_deadline::whole_within));
    }
    // Uploads have a deadline of their own.
    api = api.merge(uploads);
    let loader = state.loader.clone();
    let mut app = Router::new()
        .route(
            "/embed.js",
            get(move |headers: axum::http::HeaderMap| {
                let loader = loader.clone();
                async move { loader.respond(&headers) }
            }),
        )
        .merge(declarations::routes())
        // Only on /embed.js and the declarations: a Router's layer wraps the routes it has so far.
        .layer(static_files::for_any_origin())
        .layer(static_files::compressed());
    if let Some(sandbox) = shared.upstream.sandbox() {
        let (images, samples_index) = sandbox_files::routes(sandbox.clone(), http);
        api = api.merge(samples_index);
        app = app.merge(images.layer(static_files::for_any_origin()));
        if let Some(secret) = shared.gate.access.widget_secret().filter(|_| state.offers_the_demo()) {
            app = app.merge(demo::routes(secret.clone()).layer(axum::middleware::from_fn(error::json_errors)));
        }
    }
    app = app.merge(disclosure::page_routes(state.disclosures.clone()).layer(static_files::for_any_origin()));
    app.nest("/api", api.layer(axum::middleware::from_fn(error::json_errors)))
        .merge(health::routes(state.readiness.clone()))
        .merge(metrics::elsewhere().layer(axum::middleware::from_fn(error::json_errors)))
        .merge(static_files::router(&state.dist))
        .layer(axum::middleware::from_fn(metrics::by_route))
}
