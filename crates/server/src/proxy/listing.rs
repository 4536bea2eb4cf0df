//! `GET /api/v2/renders` with widget tokens: the subject's own renders, paged from the server's record of who
//! created what (newest first by default, `limit`, `cursor`, `order` as API.md), each read from the service through
//! the `get` the proxy hands in.

use axum::response::{IntoResponse, Json, Response};
use futures_util::{StreamExt, TryStreamExt};
use serde_json::{Value, json};
use vstage_api::{ListRenders, SortOrder};

use crate::access::Subject;
use crate::error::ServerError;
use crate::proxy::query::Query;
use crate::storage::ownership::Ownership;
use crate::upstream::http_client::Answer;

/// Renders read from the service at once.
const CONCURRENT_READS: usize = 6;

/// One page of `subject`'s renders; `get(path, query)` reads one from the service.
pub async fn page<Get, Reading>(
    ownership: &Ownership,
    subject: &Subject,
    query: &Query,
    get: Get,
) -> Result<Response, ServerError>
where
    Get: Fn(String, &'static str) -> Reading,
    Reading: Future<Output = Result<Answer, ServerError>>,
{
    let query: ListRenders = parse_query(query.encoded())?;
    query.validate().map_err(|e| ServerError::BadRequest(e.to_string()))?;
    let ascending = query.order.unwrap_or_default() == SortOrder::Asc;
    let owned = ownership.renders_page(subject.as_str(), query.limit.unwrap_or(20), query.cursor, ascending).await?;
    let renders: Vec<Option<Value>> = futures_util::stream::iter(owned.ids)
        .map(|id| read_render(&get, id))
        .buffered(CONCURRENT_READS)
        .try_collect()
        .await?;
    let items: Vec<Value> = renders.into_iter().flatten().collect();
    Ok(Json(json!({ "total_count": owned.total, "next_cursor": owned.next_cursor, "items": items })).into_response())
}

/// One render with its first page of variations; `None` when the service no longer has it.
async fn read_render<Get, Reading>(get: &Get, id: String) -> Result<Option<Value>, ServerError>
where
    Get: Fn(String, &'static str) -> Reading,
    Reading: Future<Output = Result<Answer, ServerError>>,
{
    let path =
        format!("/v2/renders/{}", percent_encoding::utf8_percent_encode(&id, percent_encoding::NON_ALPHANUMERIC));
    let answer = get(path, "include_variations=true&variations_limit=20").await?;
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

fn parse_query(query: &str) -> Result<ListRenders, ServerError> {
    let uri: axum::http::Uri =
        format!("/?{query}").parse().map_err(|_| ServerError::BadRequest("The query string is malformed.".into()))?;
    axum::extract::Query::<ListRenders>::try_from_uri(&uri)
        .map(|axum::extract::Query(query)| query)
        .map_err(|e| ServerError::BadRequest(format!("The query is not valid: {}", e.body_text())))
}
