//! A subject's own renders, paged from the server's record of who created what (newest first by default, `limit`,
//! `cursor`, `order` as service-api.md, and ours, `listing_id`: only the renders made for that listing), each read
//! from the service the one way (`reading`): `GET /api/v2/renders` with widget tokens or a `listing_id`, and
//! `GET /api/v1/renders`, which v1 lacks, for v1 renders. A page reads at most 20 renders
//! (the widget's page), whatever `limit` asks: the rest follow with `next_cursor`, and each read is counted against
//! the subject's calls.

use std::sync::Arc;

use axum::extract::RawQuery;
use axum::response::{IntoResponse, Json, Response};
use axum::{Extension, Router};
use futures_util::{StreamExt, TryStreamExt};
use serde_json::{Value, json};
use vstage_api::{ListRenders, SortOrder};

use crate::access::Subject;
use crate::error::ServerError;
use crate::proxy::Proxy;
use crate::proxy::call::read_query;
use crate::proxy::reading::ReadRender;
use crate::proxy::typed;
use crate::storage::ownership::Kind;

/// Renders read from the service at once, at most: each read beyond the first takes a place under the subject's
/// in-flight cap while one is free.
const CONCURRENT_READS: usize = 6;
/// Renders read for one page at most: one request costs the account at most this many calls.
pub const MAX_READS_PER_PAGE: u32 = 20;

/// `GET /api/v1/renders`, for the subject the access middleware found.
pub fn v1_route(proxy: Arc<Proxy>) -> Router {
    let list = move |Extension(subject): Extension<Subject>, RawQuery(query): RawQuery| {
        let proxy = proxy.clone();
        async move {
            let query = query.unwrap_or_default();
            let listing = crate::proxy::reference::listing_asked(&query)?;
            let renders: ListRenders = read_query(&query)?;
            page(&proxy, (Kind::V1Render, listing.as_deref()), &subject, &renders).await
        }
    };
    Router::new().route("/v1/renders", axum::routing::get(list))
}

/// One page of `subject`'s renders of `kind` (of `listing` when it names one; `query` as `GET /v2/renders` takes
/// it).
pub async fn page(
    proxy: &Proxy,
    (kind, listing): (Kind, Option<&str>),
    subject: &Subject,
    query: &ListRenders,
) -> Result<Response, ServerError> {
    query.validate().map_err(|e| ServerError::BadRequest(e.to_string()))?;
    let ascending = query.order.unwrap_or_default() == SortOrder::Asc;
    let limit = query.limit.unwrap_or(20).min(MAX_READS_PER_PAGE);
    let ownership = &proxy.state.ownership;
    let of = (kind, subject.as_str(), listing);
    let owned = ownership.renders_page(of, limit, query.cursor.clone(), ascending).await?;
    // The request's arrival counted the first read, and holds one place under the in-flight cap.
    subject.spend_calls((owned.ids.len() as u32).saturating_sub(1)).await?;
    let places = subject.more_places(CONCURRENT_READS - 1);
    let renders: Vec<Option<Value>> = futures_util::stream::iter(owned.ids)
        .map(|id| read_entry(proxy, kind, subject, id))
        .buffered(places.calls_at_once(CONCURRENT_READS))
        .try_collect()
        .await?;
    let items: Vec<Value> = renders.into_iter().flatten().collect();
    Ok(Json(json!({ "total_count": owned.total, "next_cursor": owned.next_cursor, "items": items })).into_response())
}

/// One render (a v2 one with its first page of variations) as this server relays it; `None` when the service no
/// longer has it.
async fn read_entry(proxy: &Proxy, kind: Kind, subject: &Subject, id: String) -> Result<Option<Value>, ServerError> {
    match kind {
        Kind::V1Render => match proxy.read_v1_render(&id).await? {
            Some(ReadRender { render, body }) => typed::relayed_value(&body, &render).map(Some),
            None => Ok(None),
        },
        _ => match proxy.read_render(subject, &id, "include_variations=true&variations_limit=20").await? {
            Some(ReadRender { render, body }) => typed::relayed_value(&body, &render).map(Some),
            None => Ok(None),
        },
    }
}
