//! `/healthz` and `/readyz`, for load balancers and orchestrators: liveness (this process serves) and readiness
//! (the database, the object store and the service each answered within a short bound). Readiness is worked out
//! at most once every few seconds and shared by every probe meanwhile, so that many balancers probing often cost
//! the dependencies one call each per interval. Answers say which part is unready, never why: the why (host names,
//! the database's words) goes to the log. Beside them, what the service's webhook deliveries say (`webhooks`),
//! which is the operator's to read and never makes the server unready.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt};
use serde::Serialize;
use tokio::sync::Mutex;

use crate::live::verification::{Deliveries, Verification};
use crate::storage::store::Store;
use crate::upstream::Upstream;
use crate::upstream::http_client::HttpClient;

/// How long each part has to answer.
const TIME_LIMIT: Duration = Duration::from_secs(2);
/// How long a worked-out readiness is given to probes before it is worked out again.
const KEPT_FOR: Duration = Duration::from_secs(5);

/// What readiness asks, and its last answer.
pub struct Readiness {
    store: Arc<dyn Store>,
    files: Arc<dyn ObjectStore>,
    upstream: Arc<Upstream>,
    http: HttpClient,
    verification: Arc<Verification>,
    last: Mutex<Option<(Instant, Report)>>,
}

/// Each part's state, as `/readyz` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub ready: bool,
    pub database: Part,
    pub store: Part,
    pub upstream: Part,
    pub webhooks: Deliveries,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    Ready,
    Unready,
}

impl Readiness {
    pub fn new(store: Arc<dyn Store>, files: Arc<dyn ObjectStore>, upstream: Arc<Upstream>, http: HttpClient) -> Self {
        Readiness { store, files, upstream, http, verification: Arc::default(), last: Mutex::new(None) }
    }

    /// Readiness that names what `verification` says of the webhook deliveries.
    pub fn reporting(self, verification: Arc<Verification>) -> Self {
        Readiness { verification, ..self }
    }

    /// The readiness of the last few seconds, or worked out now (probes arriving meanwhile wait for it), with
    /// what the webhook deliveries say now.
    pub async fn report(&self) -> Report {
        let webhooks = self.verification.deliveries();
        let mut last = self.last.lock().await;
        if let Some((_, report)) = last.as_ref().filter(|(at, _)| at.elapsed() < KEPT_FOR) {
            return Report { webhooks, ..report.clone() };
        }
        let (database, store, upstream) = tokio::join!(
            part("database", self.store.ping()),
            part("store", self.store_answers()),
            part("upstream", self.upstream_answers()),
        );
        let report = Report {
            ready: [database, store, upstream].iter().all(|part| *part == Part::Ready),
            database,
            store,
            upstream,
            webhooks,
        };
        let changed = last.as_ref().is_some_and(|(_, before)| before.ready != report.ready);
        if changed || (last.is_none() && !report.ready) {
            tracing::warn!(ready = report.ready, ?report, "readiness changed");
        }
        *last = Some((Instant::now(), report.clone()));
        report
    }

    /// A read of an object that is not there: any answer but an error means the store is up.
    async fn store_answers(&self) -> Result<(), object_store::Error> {
        match self.files.head(&ObjectPath::from("vstage-readiness-probe")).await {
            Ok(_) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// `GET /v2/user` with the key, answered with success.
    async fn upstream_answers(&self) -> anyhow::Result<()> {
        let status = self.upstream.probe(&self.http, TIME_LIMIT).await??;
        anyhow::ensure!(status.is_success(), "the service answered HTTP {}", status.as_u16());
        Ok(())
    }
}

/// Whether `check` succeeded within the time limit; why not is logged.
async fn part<E: std::fmt::Display>(name: &str, check: impl Future<Output = Result<(), E>>) -> Part {
    match tokio::time::timeout(TIME_LIMIT, check).await {
        Ok(Ok(())) => Part::Ready,
        Ok(Err(error)) => {
            tracing::warn!(part = name, %error, "readiness: unready");
            Part::Unready
        }
        Err(_) => {
            tracing::warn!(part = name, limit_ms = TIME_LIMIT.as_millis() as u64, "readiness: no answer in time");
            Part::Unready
        }
    }
}

/// `/healthz` (200 while the process serves) and `/readyz` (200 or 503 with each part's state).
pub fn routes(readiness: Arc<Readiness>) -> Router {
    Router::new()
        .route("/healthz", get(|| async { not_cached(StatusCode::OK, "ok\n".into_response()) }))
        .route("/readyz", get(ready).with_state(readiness))
}

async fn ready(State(readiness): State<Arc<Readiness>>) -> Response {
    let report = readiness.report().await;
    let status = if report.ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    not_cached(status, Json(report).into_response())
}

fn not_cached(status: StatusCode, mut response: Response) -> Response {
    *response.status_mut() = status;
    response.headers_mut().insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    response
}
