//! The client of the service: one method per endpoint of service-api.md (v2 and v1), over any `Transport`.
//! GETs are retried on network errors, 429 and 502-504 (backoff with full jitter, `Retry-After` honoured); POSTs never.

use std::fmt;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::analysis::Analysis;
use crate::board::{AddToBoard, Board, BoardRender};
use crate::capabilities::{Capabilities, Sample};
use crate::disclosure::{DiscloseRequest, Disclosure, DisclosureList};
use crate::error::ApiError;
use crate::host_reference::HostReference;
use crate::multi_view::{CheckViews, ViewsCompatibility};
use crate::multipart::{self, PhotoFile};
use crate::query::percent_encode;
use crate::render::{Render, RenderPage, Variation};
use crate::requests::{
    AddVariations, AddedVariations, Analyze, BulkAddVariations, BulkAddedVariations, BulkCreateRenders,
    BulkCreatedRenders, CreateRender, GetRender, ListRenders, Message, SetWebhookSecret,
};
use crate::transport::{HttpRequest, HttpResponse, Method, Transport, TransportError};
use crate::user::User;
use crate::v1;
use crate::validate::{self, MAX_BULK_ENTRIES, PAGE_LIMIT};
use crate::vocabulary::SortOrder;

/// How the client authenticates.
#[derive(Clone, PartialEq, Eq, Default)]
pub enum Auth {
    /// Behind vstage's proxy, which adds the key itself.
    #[default]
    None,
    /// Direct use: `Authorization: Api-Key <key>` on every call.
    ApiKey(String),
}

impl fmt::Debug for Auth {
    // The key is never printed, not even in debug output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Auth::None => f.write_str("None"),
            Auth::ApiKey(_) => f.write_str("ApiKey(<redacted>)"),
        }
    }
}

/// The default time limit of one call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The limit of a `wait_for_completion` call on the regular address: the service's 60 s plus a margin.
pub const SYNC_TIMEOUT: Duration = Duration::from_secs(75);
/// The limit of a `wait_for_completion` call on `direct_sync_url`, meant for longer work.
pub const DIRECT_SYNC_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// When and how GETs are tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The backoff's first step; it doubles every retry, up to `max_delay`. The wait is random in [0, step).
    pub base_delay: Duration,
    pub max_delay: Duration,
    /// A `Retry-After` longer than this is not waited for: the error goes to the person instead.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(300),
            max_delay: Duration::from_secs(5),
            max_retry_after: Duration::from_secs(30),
        }
    }
}

/// One request of `Client::bulk_create_renders_in_chunks`: its entries start at `first` in the whole request.
#[derive(Debug)]
pub struct BulkChunk {
    pub first: usize,
    /// The renders created for those entries, in their order, or why none was.
    pub outcome: Result<Vec<Render>, ApiError>,
}

#[derive(Debug, Clone)]
pub struct Client<T> {
    base_url: String,
    direct_sync_url: Option<String>,
    auth: Auth,
    timeout: Duration,
    retry: RetryPolicy,
    transport: T,
}

/// What a call sends: its method, the path under the base, a JSON body, and whether it waits for completion.
struct Call {
    method: Method,
    path: String,
    body: Option<Vec<u8>>,
    /// The body's type when it is not JSON.
    content_type: Option<String>,
    waits: bool,
}

impl<T: Transport> Client<T> {
    /// `base_url` is the root under which `/v2/...` and `/v1/...` live: `/api` behind vstage's proxy, or the
    /// service's own address for direct use.
    pub fn new(base_url: impl Into<String>, transport: T) -> Self {
        Client {
            base_url: trim_base(base_url.into()),
            direct_sync_url: None,
            auth: Auth::None,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
            transport,
        }
    }

    pub fn with_auth(mut self, auth: Auth) -> Self {
        self.auth = auth;
        self
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// The alternative address for long synchronous v2 calls (`wait_for_completion: true`).
    pub fn with_direct_sync_url(mut self, url: impl Into<String>) -> Self {
        self.direct_sync_url = Some(trim_base(url.into()));
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// `GET {base}/capabilities`: what the vstage server offers (a 404 means a plain proxy or the service itself).
    pub async fn capabilities(&self) -> Result<Capabilities, ApiError> {
        self.json(Call::get("/capabilities".into())).await
    }

    /// `GET {base}/samples`: the embedded sandbox's sample photos (a 404 elsewhere).
    pub async fn samples(&self) -> Result<Vec<Sample>, ApiError> {
        self.json(Call::get("/samples".into())).await
    }

    /// `GET {base}/usage`: the caller's own allowance and use this period as `vstage serve` keeps them, read in
    /// the account's shape (`photoLimit` a number for each kind it limits, `"UNLIMITED"` for the others, and
    /// `renewsAt`); a 404 behind a plain proxy.
    pub async fn usage(&self) -> Result<User, ApiError> {
        self.json(Call::get("/usage".into())).await
    }

    /// `GET {base}/board`: the listing board the server remembers for this subject.
    pub async fn board(&self) -> Result<Board, ApiError> {
        self.json(Call::get("/board".into())).await
    }

    /// `POST {base}/board/renders`: `renders` added to the board; the whole board comes back.
    pub async fn add_to_board(&self, renders: Vec<BoardRender>) -> Result<Board, ApiError> {
        self.json(Call::post("/board/renders".into(), &AddToBoard { renders }, None)?).await
    }

    /// `DELETE {base}/board/renders/{render_id}`: one render off the board (the render itself stays).
    pub async fn remove_from_board(&self, render_id: &str) -> Result<Board, ApiError> {
        let path = format!("/board/renders/{}", percent_encode(render_id));
        self.json(Call { method: Method::Delete, ..Call::get(path) }).await
    }

    /// `POST {base}/disclosures`: a finished result chosen for a listing, recorded; the answer is what the listing
    /// shows with it.
    pub async fn disclose(&self, request: &DiscloseRequest) -> Result<Disclosure, ApiError> {
        self.json(Call::post("/disclosures".into(), request, None)?).await
    }

    /// `GET {base}/disclosures`: the caller's records, newest first.
    pub async fn disclosures(&self) -> Result<DisclosureList, ApiError> {
        self.json(Call::get("/disclosures".into())).await
    }

    /// `DELETE {base}/board`: an empty board for the next listing (the renders stay).
    pub async fn clear_board(&self) -> Result<Board, ApiError> {
        self.json(Call { method: Method::Delete, ..Call::get("/board".into()) }).await
    }

    // ---- v2 ----

    /// `GET /v2/status`: `Ok(())` when the service runs.
    pub async fn status(&self) -> Result<(), ApiError> {
        self.send(Call::get("/v2/status".into())).await.map(drop)
    }

    /// `GET /v2/user`: the account, its limits and its usage this period.
    pub async fn user(&self) -> Result<User, ApiError> {
        self.json(Call::get("/v2/user".into())).await
    }

    /// `GET /v2/renders`: one page of the account's renders.
    pub async fn list_renders(&self, query: &ListRenders) -> Result<RenderPage, ApiError> {
        query.validate()?;
        self.json(Call::get(format!("/v2/renders{}", query.to_query()))).await
    }

    /// `GET /v2/renders?listing_id=..` of `vstage serve` (beyond the service): one page of the renders made for
    /// the host's listing `listing_id`, or of all the subject's without one.
    pub async fn list_renders_of_listing(
        &self,
        query: &ListRenders,
        listing_id: Option<&str>,
    ) -> Result<RenderPage, ApiError> {
        query.validate()?;
        self.json(Call::get(format!("/v2/renders{}", query.to_query_of_listing(listing_id)))).await
    }

    /// `POST /v2/renders`.
    pub async fn create_render(&self, request: &CreateRender) -> Result<Render, ApiError> {
        request.validate()?;
        self.json(Call::post("/v2/renders".into(), request, request.wait_for_completion)?).await
    }

    /// `GET /v2/renders/{render_id}`.
    pub async fn get_render(&self, render_id: &str, query: &GetRender) -> Result<Render, ApiError> {
        validate::id("render_id", render_id)?;
        query.validate()?;
        self.json(Call::get(format!("/v2/renders/{}{}", percent_encode(render_id), query.to_query()))).await
    }

    /// `GET /references/{render_id}` of a vstage server (not the service's): the host's references kept with
    /// a render.
    pub async fn host_reference(&self, render_id: &str) -> Result<HostReference, ApiError> {
        validate::id("render_id", render_id)?;
        self.json(Call::get(format!("/references/{}", percent_encode(render_id)))).await
    }

    /// `GET /v2/renders/{render_id}/variations/{variation_id}`.
    pub async fn get_variation(&self, render_id: &str, variation_id: &str) -> Result<Variation, ApiError> {
        validate::id("render_id", render_id)?;
        validate::id("variation_id", variation_id)?;
        let path = format!("/v2/renders/{}/variations/{}", percent_encode(render_id), percent_encode(variation_id));
        self.json(Call::get(path)).await
    }

    /// `POST /v2/renders/{render_id}/variations`. `existing`: the render's variation count when known, so the
    /// 20-per-render bound is checked before sending.
    pub async fn add_variations(
        &self,
        render_id: &str,
        request: &AddVariations,
        existing: Option<u64>,
    ) -> Result<AddedVariations, ApiError> {
        validate::id("render_id", render_id)?;
        request.validate(existing)?;
        let path = format!("/v2/renders/{}/variations", percent_encode(render_id));
        self.json(Call::post(path, request, request.wait_for_completion)?).await
    }

    /// `POST /v2/renders/bulk`.
    pub async fn bulk_create_renders(&self, request: &BulkCreateRenders) -> Result<BulkCreatedRenders, ApiError> {
        request.validate()?;
        self.json(Call::post("/v2/renders/bulk".into(), request, request.wait_for_completion)?).await
    }

    /// The renders of `request`, created in as many `POST /v2/renders/bulk` requests as `MAX_BULK_ENTRIES` asks, one
    /// after another. Each request is all or nothing, so the answer says, for each run of entries, what was created
    /// or why not: a caller shows every photo's outcome and can send a failed run again.
    pub async fn bulk_create_renders_in_chunks(&self, request: &BulkCreateRenders) -> Vec<BulkChunk> {
        let mut chunks = Vec::new();
        for (index, renders) in request.renders.chunks(MAX_BULK_ENTRIES).enumerate() {
            let chunk = BulkCreateRenders { renders: renders.to_vec(), ..request.clone() };
            let outcome = self.bulk_create_renders(&chunk).await.map(|created| created.renders);
            chunks.push(BulkChunk { first: index * MAX_BULK_ENTRIES, outcome });
        }
        chunks
    }

    /// `POST /v2/renders/variations/bulk`.
    pub async fn bulk_add_variations(&self, request: &BulkAddVariations) -> Result<BulkAddedVariations, ApiError> {
        request.validate()?;
        self.json(Call::post("/v2/renders/variations/bulk".into(), request, request.wait_for_completion)?).await
    }

    /// `POST /v2/analyze`.
    pub async fn analyze(&self, request: &Analyze) -> Result<Analysis, ApiError> {
        request.validate()?;
        self.json(Call::post("/v2/analyze".into(), request, None)?).await
    }

    /// `POST /v2/multi-view-compatability` (the service's spelling): whether these photos can be staged together.
    pub async fn check_views(&self, request: &CheckViews) -> Result<ViewsCompatibility, ApiError> {
        request.validate()?;
        self.json(Call::post("/v2/multi-view-compatability".into(), request, None)?).await
    }

    /// `POST /v2/user/webhook-secret`.
    pub async fn set_webhook_secret(&self, request: &SetWebhookSecret) -> Result<Message, ApiError> {
        request.validate()?;
        self.json(Call::post("/v2/user/webhook-secret".into(), request, None)?).await
    }

    /// `DELETE /v2/user/webhook-secret`.
    pub async fn delete_webhook_secret(&self) -> Result<Message, ApiError> {
        self.json(Call { method: Method::Delete, ..Call::get("/v2/user/webhook-secret".into()) }).await
    }

    /// Every render, walking the cursor pages (`limit` 100) in `order`.
    pub async fn all_renders(&self, order: SortOrder) -> Result<Vec<Render>, ApiError> {
        let mut renders = Vec::new();
        let mut query = ListRenders { limit: Some(*PAGE_LIMIT.end()), order: Some(order), ..ListRenders::default() };
        loop {
            let page = self.list_renders(&query).await?;
            renders.extend(page.items);
            match page.next_cursor {
                Some(cursor) if query.cursor.as_deref() != Some(cursor.as_str()) => query.cursor = Some(cursor),
                _ => return Ok(renders),
            }
        }
    }

    /// Every variation of a render, walking its variation pages (`variations_limit` 100), oldest first.
    pub async fn all_variations(&self, render_id: &str) -> Result<Vec<Variation>, ApiError> {
        let mut variations = Vec::new();
        let mut query = GetRender::with_variations(*PAGE_LIMIT.end());
        loop {
            let render = self.get_render(render_id, &query).await?;
            let Some(page) = render.variations else { return Ok(variations) };
            variations.extend(page.items);
            match page.next_cursor {
                Some(cursor) if query.variations_cursor.as_deref() != Some(cursor.as_str()) => {
                    query.variations_cursor = Some(cursor)
                }
                _ => return Ok(variations),
            }
        }
    }

    // ---- v1 ----

    /// `GET /v1/ping`.
    pub async fn v1_ping(&self) -> Result<v1::Ping, ApiError> {
        self.json(Call::get("/v1/ping".into())).await
    }

    /// `GET /v1/options`.
    pub async fn v1_options(&self) -> Result<v1::Options, ApiError> {
        self.json(Call::get("/v1/options".into())).await
    }

    /// `POST /v1/render/create` with `image_url` (JSON). `wait_for_completion` defaults to true on the service.
    pub async fn v1_create_render(&self, request: &v1::CreateRender) -> Result<v1::Created, ApiError> {
        request.validate(false)?;
        let waits = request.wait_for_completion.unwrap_or(true);
        self.json(Call { waits, ..Call::post("/v1/render/create".into(), request, None)? }).await
    }

    /// `POST /v1/render/create` with the photo as the multipart `file` and the other arguments in the query, as
    /// service-api.md says for a file. `wait_for_completion` defaults to true on the service.
    pub async fn v1_create_render_with_file(
        &self,
        request: &v1::CreateRender,
        photo: &PhotoFile,
    ) -> Result<v1::Created, ApiError> {
        request.validate(true)?;
        let (body, content_type) = multipart::form("file", photo, || self.transport.random_unit());
        let call = Call {
            method: Method::Post,
            path: format!("/v1/render/create{}", request.query()),
            body: Some(body),
            content_type: Some(content_type),
            waits: request.wait_for_completion.unwrap_or(true),
        };
        self.json(call).await
    }

    /// `GET {base}/v1/renders`: a page of the v1 renders `vstage serve` recorded for this subject (only those made
    /// for the host's listing `listing_id` when there is one).
    pub async fn v1_list_renders(
        &self,
        query: &ListRenders,
        listing_id: Option<&str>,
    ) -> Result<v1::RenderPage, ApiError> {
        query.validate()?;
        self.json(Call::get(format!("/v1/renders{}", query.to_query_of_listing(listing_id)))).await
    }

    /// `GET /v1/render?render_id=...`.
    pub async fn v1_render(&self, render_id: &str) -> Result<v1::Render, ApiError> {
        validate::id("render_id", render_id)?;
        self.json(Call::get(format!("/v1/render?render_id={}", percent_encode(render_id)))).await
    }

    /// `POST /v1/render/create-variation?render_id=...`.
    pub async fn v1_create_variation(
        &self,
        render_id: &str,
        request: &v1::CreateVariation,
    ) -> Result<v1::Created, ApiError> {
        validate::id("render_id", render_id)?;
        request.validate()?;
        let path = format!("/v1/render/create-variation?render_id={}", percent_encode(render_id));
        let waits = request.wait_for_completion.unwrap_or(false);
        self.json(Call { waits, ..Call::post(path, request, None)? }).await
    }

    // ---- the exchange ----

    async fn json<R: DeserializeOwned>(&self, call: Call) -> Result<R, ApiError> {
        let response = self.send(call).await?;
        serde_json::from_slice(&response.body).map_err(|e| ApiError::Decode { detail: e.to_string() })
    }

    async fn send(&self, call: Call) -> Result<HttpResponse, ApiError> {
        let (base, timeout) = match (call.waits, &self.direct_sync_url) {
            (true, Some(direct)) if call.path.starts_with("/v2/") => (direct.as_str(), DIRECT_SYNC_TIMEOUT),
            (true, _) => (self.base_url.as_str(), SYNC_TIMEOUT.max(self.timeout)),
            (false, _) => (self.base_url.as_str(), self.timeout),
        };
        let mut headers = vec![("Accept", "application/json".to_string())];
        if call.body.is_some() {
            headers.push(("Content-Type", call.content_type.unwrap_or_else(|| "application/json".to_string())));
        }
        if let Auth::ApiKey(key) = &self.auth {
            headers.push(("Authorization", format!("Api-Key {key}")));
        }
        let request =
            HttpRequest { method: call.method, url: format!("{base}{}", call.path), headers, body: call.body, timeout };
        // Only GETs are retried: a POST may have been carried out even when its answer was lost.
        let retries = if call.method == Method::Get { self.retry.max_retries } else { 0 };
        let mut attempt = 0;
        loop {
            let outcome = self.transport.send(request.clone()).await;
            let retry_after = match &outcome {
                Err(TransportError::OriginRefused { .. }) => None,
                Err(_) => Some(None),
                Ok(response) if matches!(response.status, 429 | 502 | 503 | 504) => {
                    Some(response.retry_after.as_deref().and_then(parse_retry_after))
                }
                Ok(_) => None,
            };
            match retry_after {
                Some(asked) if attempt < retries => {
                    let delay = match asked {
                        Some(asked) if asked > self.retry.max_retry_after => return finish(outcome, timeout),
                        Some(asked) => asked,
                        None => self.backoff(attempt),
                    };
                    self.transport.sleep(delay).await;
                    attempt += 1;
                }
                _ => return finish(outcome, timeout),
            }
        }
    }

    /// Exponential backoff with full jitter: random in [0, min(max, base * 2^attempt)).
    fn backoff(&self, attempt: u32) -> Duration {
        let step = self.retry.base_delay.saturating_mul(1u32 << attempt.min(16)).min(self.retry.max_delay);
        step.mul_f64(self.transport.random_unit().clamp(0.0, 1.0))
    }
}

impl Call {
    fn get(path: String) -> Self {
        Call { method: Method::Get, path, body: None, content_type: None, waits: false }
    }

    fn post(path: String, body: &impl Serialize, wait_for_completion: Option<bool>) -> Result<Self, ApiError> {
        let body = serde_json::to_vec(body).map_err(|e| ApiError::Decode { detail: e.to_string() })?;
        Ok(Call {
            method: Method::Post,
            path,
            body: Some(body),
            content_type: None,
            waits: wait_for_completion.unwrap_or(false),
        })
    }
}

fn finish(outcome: Result<HttpResponse, TransportError>, timeout: Duration) -> Result<HttpResponse, ApiError> {
    let response = outcome.map_err(|e| match e {
        TransportError::Network(detail) => ApiError::Network { detail },
        TransportError::Timeout => ApiError::Timeout { seconds: timeout.as_secs() },
        TransportError::OriginRefused { origin } => ApiError::OriginRefused { origin },
    })?;
    if (200..300).contains(&response.status) {
        Ok(response)
    } else {
        Err(ApiError::Http { status: response.status, message: service_message(&response.body) })
    }
}

/// `Retry-After` in seconds. (The HTTP-date form is not used by the service; it falls back to backoff.)
fn parse_retry_after(value: &str) -> Option<Duration> {
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

fn trim_base(url: String) -> String {
    url.trim_end_matches('/').to_string()
}

/// The `message` of a `{"message": ...}` error body, when there is one.
fn service_message(body: &[u8]) -> Option<String> {
    serde_json::from_slice::<Message>(body).ok().map(|b| b.message)
}
