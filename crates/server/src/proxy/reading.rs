//! The one way this server reads a render from the service for its own use (a subject's list, the ZIPs, the board,
//! disclosures, kept copies): the answer is checked to be about the render asked for, and every variation in it of
//! that render, before anything of it is used, relayed or kept; and a render's variation pages are walked within
//! what the contract allows (a render holds at most 20 variations), never by trusting the service's cursors.

use std::collections::HashSet;

use axum::body::Bytes;
use axum::http::StatusCode;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde::de::DeserializeOwned;
use vstage_api::validate::MAX_VARIATIONS_PER_RENDER;
use vstage_api::{Render, Variation, v1};

use super::Proxy;
use super::typed;
use crate::access::Subject;
use crate::error::ServerError;
use crate::upstream::http_client::Answer;

/// Variations asked for per page of a whole render: more than a render can hold, so one page is the rule.
const VARIATIONS_PER_PAGE: u32 = 100;
/// Pages a whole render may take: each must bring at least one variation, and a render holds at most 20.
const MAX_PAGES: u64 = MAX_VARIATIONS_PER_RENDER;

/// A render as read: its typed reading (kept copies' addresses in place of the service's), and the answer's body
/// with the same addresses, from which what is relayed is written.
pub struct ReadRender<T> {
    pub render: T,
    pub body: Bytes,
}

impl Proxy {
    /// Render `render_id` with the page of variations `query` asks for (`include_variations=...`), checked to be
    /// about it alone, with the addresses of its results kept for `subject` (and finished ones copied); `None`
    /// when the service no longer has it.
    pub async fn read_render(
        &self,
        subject: &Subject,
        render_id: &str,
        query: &str,
    ) -> Result<Option<ReadRender<Render>>, ServerError> {
        let path = format!("/v2/renders/{}", utf8_percent_encode(render_id, NON_ALPHANUMERIC));
        let answer = self.get(&path, query).await?;
        let Some(render) = render_answer::<Render>(&answer, render_id)? else { return Ok(None) };
        typed::all_of_this_render(&render, render_id)?;
        let from_start = !query.split('&').any(|pair| pair.starts_with("variations_cursor="));
        self.state.allowances.refund_if_failed(&render, from_start).await;
        // Checked first: only then may its results be kept under this subject.
        let body = self.state.kept.in_answer(answer.body, subject.as_str()).await;
        let render = serde_json::from_slice(&body).unwrap_or(render);
        Ok(Some(ReadRender { render, body }))
    }

    /// v1 render `render_id`, checked to be that render; `None` when the service no longer has it.
    pub async fn read_v1_render(&self, render_id: &str) -> Result<Option<ReadRender<v1::Render>>, ServerError> {
        let query = format!("render_id={}", utf8_percent_encode(render_id, NON_ALPHANUMERIC));
        let answer = self.get("/v1/render", &query).await?;
        let Some(render) = render_answer::<v1::Render>(&answer, render_id)? else { return Ok(None) };
        if render.render_id != render_id {
            tracing::warn!(render_id, "the service answered with another v1 render");
            return Err(typed::another_render());
        }
        Ok(Some(ReadRender { render, body: answer.body }))
    }

    /// The render and all its variations, walking their pages within the contract's bounds; `None` when the
    /// service has no such render. A cursor seen before, a page that brings nothing but a cursor, or more pages
    /// than 20 variations can fill, is a 502.
    pub async fn read_whole_render(
        &self,
        subject: &Subject,
        render_id: &str,
    ) -> Result<Option<(Render, Vec<Variation>)>, ServerError> {
        let mut cursors = HashSet::new();
        let mut cursor: Option<String> = None;
        let mut variations = Vec::new();
        for page in 1..=MAX_PAGES {
            if page > 1 {
                subject.spend_calls(1).await?;
            }
            let mut query = format!("include_variations=true&variations_limit={VARIATIONS_PER_PAGE}");
            if let Some(cursor) = &cursor {
                query.push_str("&variations_cursor=");
                query.extend(utf8_percent_encode(cursor, NON_ALPHANUMERIC));
            }
            let Some(ReadRender { mut render, .. }) = self.read_render(subject, render_id, &query).await? else {
                return Ok(None);
            };
            let (items, next) = render.variations.take().map(|page| (page.items, page.next_cursor)).unwrap_or_default();
            let brought = items.len();
            variations.extend(items);
            match next {
                None => return Ok(Some((render, variations))),
                Some(next) if brought == 0 || !cursors.insert(next.clone()) => {
                    return Err(endless_pages(render_id, "a cursor that brings nothing new"));
                }
                Some(next) => cursor = Some(next),
            }
        }
        Err(endless_pages(render_id, "more pages than a render's 20 variations fill"))
    }
}

fn endless_pages(render_id: &str, why: &str) -> ServerError {
    tracing::warn!(render_id, why, "the service's variation pages do not end; reading stopped");
    ServerError::BadGateway(format!(
        "The staging service's pages of render {render_id}'s variations do not end; try again later."
    ))
}

/// The service's answer to reading render `id`, as JSON of type `T`; `None` when the service no longer has it.
pub fn render_answer<T: DeserializeOwned>(answer: &Answer, id: &str) -> Result<Option<T>, ServerError> {
    if answer.status == StatusCode::NOT_FOUND {
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

/// Through the whole app, in-process.
#[cfg(test)]
mod tests;
