//! A subject's own renders, paged from the server's record of who created what (newest first by default, `limit`,
//! `cursor`, `order` as service-api.md), each read from the service through the `get` the proxy hands in:
//! `GET /api/v2/renders` with widget tokens, and `GET /api/v1/renders`, which v1 lacks, for v1 renders; and one
//! render read whole, every page of its variations, for the ZIPs and disclosures.

use axum::response::{IntoResponse, Json, Response};
use futures_util::{StreamExt, TryStreamExt};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Value, json};
use vstage_api::{ListRenders, Render, SortOrder, Variation};

use axum::extract::RawQuery;
use axum::{Extension, Router};

use crate::access::Subject;
use crate::error::ServerError;
use crate::proxy::Proxy;
use crate::proxy::call::read_query;
use crate::proxy::typed;
use crate::storage::ownership::{Kind, Ownership};
use crate::upstream::http_client::Answer;

/// Renders read from the service at once.
const CONCURRENT_READS: usize = 6;

/// `GET /api/v1/renders`, for the subject the access middleware found; `get(path, query)` reads from the service.
pub fn v1_route<Get, Reading>(ownership: Ownership, get: Get) -> Router
where
    Get: Fn(String, String) -> Reading + Clone + Send + Sync + 'static,
    Reading: Future<Output = Result<Answer, ServerError>> + Send + 'static,
{
    let list = move |Extension(subject): Extension<Subject>, RawQuery(query): RawQuery| {
        let (ownership, get) = (ownership.clone(), get.clone());
        async move {
            let query: ListRenders = read_query(query.as_deref().unwrap_or_default())?;
            page(&ownership, Kind::V1Render, &subject, &query, get).await
        }
    };
    Router::new().route("/v1/renders", axum::routing::get(list))
}

/// One page of `subject`'s renders of `kind` (`query` as `GET /v2/renders` takes it); `get(path, query)` reads one
/// from the service.
pub async fn page<Get, Reading>(
    ownership: &Ownership,
    kind: Kind,
    subject: &Subject,
    query: &ListRenders,
    get: Get,
) -> Result<Response, ServerError>
where
    Get: Fn(String, String) -> Reading,
    Reading: Future<Output = Result<Answer, ServerError>>,
{
    query.validate().map_err(|e| ServerError::BadRequest(e.to_string()))?;
    let ascending = query.order.unwrap_or_default() == SortOrder::Asc;
    let limit = query.limit.unwrap_or(20);
    let owned = ownership.renders_page(kind, subject.as_str(), limit, query.cursor.clone(), ascending).await?;
    let renders: Vec<Option<Value>> = futures_util::stream::iter(owned.ids)
        .map(|id| read_render(&get, kind, id))
        .buffered(CONCURRENT_READS)
        .try_collect()
        .await?;
    let items: Vec<Value> = renders.into_iter().flatten().collect();
    Ok(Json(json!({ "total_count": owned.total, "next_cursor": owned.next_cursor, "items": items })).into_response())
}

/// One render (a v2 one with its first page of variations) as this server read it; `None` when the service no
/// longer has it. An answer about another render than the one asked for is a 502.
async fn read_render<Get, Reading>(get: &Get, kind: Kind, id: String) -> Result<Option<Value>, ServerError>
where
    Get: Fn(String, String) -> Reading,
    Reading: Future<Output = Result<Answer, ServerError>>,
{
    let encoded = percent_encoding::utf8_percent_encode(&id, percent_encoding::NON_ALPHANUMERIC).to_string();
    let read = match kind {
        Kind::V1Render => {
            let answer = get("/v1/render".into(), format!("render_id={encoded}")).await?;
            let Some(render) = render_answer::<vstage_api::v1::Render>(&answer, &id)? else { return Ok(None) };
            if render.render_id != id {
                return Err(typed::another_render());
            }
            typed::relayed_value(&answer.body, &render)
        }
        _ => {
            let answer =
                get(format!("/v2/renders/{encoded}"), "include_variations=true&variations_limit=20".into()).await?;
            let Some(render) = render_answer::<Render>(&answer, &id)? else { return Ok(None) };
            typed::all_of_this_render(&render, &id)?;
            typed::relayed_value(&answer.body, &render)
        }
    };
    read.map(Some)
}

/// The service's answer to reading render `id`, as JSON of type `T`; `None` when the service no longer has it.
pub fn render_answer<T: serde::de::DeserializeOwned>(answer: &Answer, id: &str) -> Result<Option<T>, ServerError> {
    if answer.status == axum::http::StatusCode::NOT_FOUND {
        return Ok(None);
    }
    if !answer.status.is_success() {
        return Err(ServerError::BadGateway(format!(
            "The staging service refused to read render {id} (HTTP {}). Try again in a moment.",
            answer.status.as_u16()
        )));
    }
    serde_json::from_slice(&answer.body)
        .map(Some)
        .map_err(|_| ServerError::BadGateway("The staging service sent a render this server cannot read.".into()))
}

/// The render and all its variations, walking their pages, with their kept copies' addresses where there are;
/// `None` when the service has no such render.
pub async fn render_with_variations(
    proxy: &Proxy,
    subject: &Subject,
    render_id: &str,
) -> Result<Option<(Render, Vec<Variation>)>, ServerError> {
    let path = format!("/v2/renders/{}", utf8_percent_encode(render_id, NON_ALPHANUMERIC));
    let mut cursor: Option<String> = None;
    let mut variations = Vec::new();
    loop {
        let mut query = "include_variations=true&variations_limit=100".to_string();
        if let Some(cursor) = &cursor {
            query.push_str("&variations_cursor=");
            query.extend(utf8_percent_encode(cursor, NON_ALPHANUMERIC));
        }
        let mut answer = proxy.get(&path, &query).await?;
        if answer.status.is_success() {
            answer.body = proxy.state.kept.in_answer(answer.body, subject.as_str()).await;
        }
        let Some(mut render) = render_answer::<Render>(&answer, render_id)? else { return Ok(None) };
        let page = render.variations.take();
        let next = page.as_ref().and_then(|page| page.next_cursor.clone());
        variations.extend(page.map(|page| page.items).unwrap_or_default());
        match next {
            Some(next) if cursor.as_deref() != Some(next.as_str()) => cursor = Some(next),
            _ => return Ok(Some((render, variations))),
        }
    }
}
