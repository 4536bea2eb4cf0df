//! The disclosure's HTTP side: `POST` and `GET /api/disclosures` for the subject the access middleware found,
//! and the public page and QR codes under `/disclosures/{id}`, to whoever holds the signed link. A link not
//! signed here, or a record whose kept photos are gone, looks exactly like one that never existed.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde::Deserialize;
use vstage_api::disclosure::{DiscloseRequest, Disclosure, DisclosureList};

use super::create::ORIGINAL_FOR_SCREENS;
use super::create::Recorder;
use super::page::{POLICY, Page, Shown};
use super::statement::Facts;
use super::words::words;
use super::{Disclosures, LIST_LIMIT, MAX_LIST_LIMIT, qr};
use crate::access::Subject;
use crate::error::ServerError;
use crate::proxy::Proxy;
use crate::results::fetch::ResultFetcher;
use crate::results::kept::VariationFiles;
use crate::storage::store::{DisclosureCursor, DisclosureRecord};

/// A request body is a few ids and names.
pub const BODY_LIMIT: usize = 4 * 1024;

/// `POST` and `GET /api/disclosures`, with this worker's proxy.
pub fn routes(disclosures: Arc<Disclosures>, proxy: Arc<Proxy>, fetcher: ResultFetcher) -> Router {
    Router::new()
        .route("/disclosures", get(list).post(record))
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(Arc::new(Recorder { disclosures, proxy, fetcher }))
}

async fn record(
    State(recorder): State<Arc<Recorder>>,
    Extension(subject): Extension<Subject>,
    body: Bytes,
) -> Result<Json<Disclosure>, ServerError> {
    let request: DiscloseRequest = serde_json::from_slice(&body).map_err(|error| {
        ServerError::BadRequest(format!(
            "The body must be {{\"render_id\": \"...\", \"variation_id\": \"...\", \"image_index\": 0, \"profile\": \
             \"ab723\", \"lang\": \"en\"}}: {error}"
        ))
    })?;
    Ok(Json(recorder.record(&subject, request).await?))
}

/// `?limit=` (1 to 1,000, 100 by default) and `?cursor=` of `GET /api/disclosures`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    limit: Option<u32>,
    cursor: Option<String>,
}

/// A page of the subject's records; with open access or the operator's own key, everyone's.
async fn list(
    State(recorder): State<Arc<Recorder>>,
    Extension(subject): Extension<Subject>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<DisclosureList>, ServerError> {
    let Query(query) = query.map_err(|e| ServerError::BadRequest(format!("{e}; ask with ?limit=100&cursor=...")))?;
    let limit = query.limit.unwrap_or(LIST_LIMIT);
    if !(1..=MAX_LIST_LIMIT).contains(&limit) {
        return Err(ServerError::BadRequest(format!("limit: ask for between 1 and {MAX_LIST_LIMIT} records.")));
    }
    let after = query.cursor.as_deref().map(DisclosureCursor::decoded).transpose()?;
    let disclosures = &recorder.disclosures;
    let whose = subject.by_token().then(|| subject.as_str());
    let records = disclosures.store.disclosures(whose, limit, after.as_ref()).await?;
    let next_cursor = records.last().filter(|_| records.len() == limit as usize).map(DisclosureCursor::after);
    Ok(Json(DisclosureList {
        items: records.iter().map(|record| disclosures.shown(record)).collect(),
        next_cursor: next_cursor.map(|cursor| cursor.encoded()),
    }))
}

/// The page and its QR codes, to whoever holds a signed link.
pub fn page_routes(disclosures: Arc<Disclosures>) -> Router {
    Router::new()
        .route("/disclosures/{id}", get(page))
        .route("/disclosures/{id}/{file}", get(qr_code))
        .with_state(disclosures)
}

/// A page link's query: its signature, and a language other than the listing's.
#[derive(Debug, Deserialize)]
struct PageLink {
    sig: Option<String>,
    lang: Option<String>,
}

impl Disclosures {
    /// The record a signed link names, and its variation's kept files, while its photos are among them.
    async fn linked(
        &self,
        id: &str,
        signature: Option<&str>,
    ) -> Result<(DisclosureRecord, VariationFiles), ServerError> {
        let missing = || ServerError::NotFound("No such disclosure; it may have been removed.".into());
        if !signature.is_some_and(|signature| self.verifies(id, signature)) {
            return Err(missing());
        }
        let record = self.store.disclosure(id).await?.ok_or_else(missing)?;
        let files = self.kept.variation_files(&record.render_id, &record.variation_id).await?;
        if !files.contains(&record.photo_file) || !files.contains(&record.original_file) {
            return Err(missing());
        }
        Ok((record, files))
    }
}

/// The kept files the page shows: the result's and the original's copies sized for screens where there are (a
/// labelled photo is shown as labelled), else the full ones.
fn on_screen<'a>(record: &'a DisclosureRecord, files: &'a VariationFiles) -> (&'a str, &'a str) {
    let index = record.image_index;
    let photo = (files.get(index, "url") == Some(record.photo_file.as_str()))
        .then(|| files.get(index, "optimized_url"))
        .flatten();
    let original = files.get(0, ORIGINAL_FOR_SCREENS);
    (photo.unwrap_or(&record.photo_file), original.unwrap_or(&record.original_file))
}

async fn page(
    State(disclosures): State<Arc<Disclosures>>,
    Path(id): Path<String>,
    Query(link): Query<PageLink>,
) -> Result<Response, ServerError> {
    let (record, files) = disclosures.linked(&id, link.sig.as_deref()).await?;
    let words = words(link.lang.as_deref().unwrap_or(&record.lang));
    let facts = Facts::of_record(&record);
    let page_path = disclosures.page_path(&record.id);
    let date = humantime::format_rfc3339(
        std::time::UNIX_EPOCH + std::time::Duration::from_millis(record.created_at.max(0) as u64),
    )
    .to_string();
    let kept = &disclosures.kept;
    let (photo_on_screen, original_on_screen) = on_screen(&record, &files);
    let (photo, original) = (kept.path(&record.photo_file), kept.path(&record.original_file));
    let credentials = disclosures.verdict(&record).await;
    let html = Page {
        words,
        facts: &facts,
        photo: Shown { on_screen: &kept.path(photo_on_screen), full: &photo },
        original: Shown { on_screen: &kept.path(original_on_screen), full: &original },
        page: &page_path,
        date: &date[..10],
        credentials: credentials.as_ref(),
    }
    .render()
    .into_string();
    let mut response = html.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    public_page_headers(headers);
    Ok(response)
}

/// `/disclosures/{id}/qr.svg` or `qr.png`: the page's address as a QR code.
async fn qr_code(
    State(disclosures): State<Arc<Disclosures>>,
    Path((id, file)): Path<(String, String)>,
    Query(link): Query<PageLink>,
) -> Result<Response, ServerError> {
    let missing = || ServerError::NotFound("No such file; the QR codes are qr.svg and qr.png.".into());
    if file != "qr.svg" && file != "qr.png" {
        return Err(missing());
    }
    let (record, _) = disclosures.linked(&id, link.sig.as_deref()).await?;
    let address = disclosures.page_address(&record.id);
    Ok(match file.as_str() {
        "qr.svg" => image(qr::svg(&address)?.into_bytes(), "image/svg+xml"),
        _ => image(qr::png(&address)?, "image/png"),
    })
}

fn image(bytes: Vec<u8>, content_type: &'static str) -> Response {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    crate::inert::as_inert(headers);
    public_page_headers(headers);
    response
}

/// No cookie is ever set here; nothing is sent on to other sites; a removed record is not served from a cache.
fn public_page_headers(headers: &mut HeaderMap) {
    if !headers.contains_key(CONTENT_SECURITY_POLICY)
        && let Ok(policy) = HeaderValue::from_str(&POLICY)
    {
        headers.insert(CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
}
