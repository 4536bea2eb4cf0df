//! The service's successful answers read into the contract's types and written again: the browser gets what this
//! server read (not the service's own layout), with the fields the contract does not list that are safe to pass
//! on (`unlisted.rs`); an answer that is not the shape its call returns is a 502. Read liberally (`vstage_api`):
//! unknown enum values and configuration shapes are kept as read.

use axum::body::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use vstage_api::{
    AddedVariations, Analysis, BulkAddedVariations, BulkCreatedRenders, Message, Render, RenderPage, Variation,
    VariationPage, v1,
};

use super::answer;
use super::answer_json::AnswerJson;
use super::call::{Call, Operation};
use super::{unchanged, unlisted};
use crate::error::ServerError;
use crate::results::kept;

/// A successful answer as this server relays it: the service's bytes when they pass unchanged (`unchanged`), else
/// this server's writing of what it read; and, when it holds finished variations (whose addresses the kept results
/// put in place), its tree as a `Value` for that.
#[derive(Debug)]
pub struct Relayed {
    pub body: Bytes,
    pub with_finished: Option<Value>,
}

impl Relayed {
    fn empty() -> Self {
        Relayed { body: Bytes::new(), with_finished: None }
    }
}

/// `body`, a successful answer to `call` (of `operation`), as this server writes what it read of it. A render or
/// variation read must be the one asked for: one about another render is a 502, another render's variation a 404.
pub fn rewritten(operation: Operation, call: &Call, body: &Bytes) -> Result<Relayed, ServerError> {
    if body.is_empty() {
        return Ok(Relayed::empty());
    }
    match call {
        Call::GetRender { render_id, .. } => return render_relayed(body, render_id).map(|(relayed, _)| relayed),
        Call::ListVariations { render_id, .. } => {
            let tree = tree_of(body)?;
            let page: VariationPage = read(&tree)?;
            all_of_render(render_id, &page.items)?;
            return relayed(body, tree, &page);
        }
        Call::GetVariation { render_id, variation_id } => {
            let tree = tree_of(body)?;
            let variation = variation_in(&tree, render_id, variation_id)?;
            return relayed(body, tree, &variation);
        }
        _ => {}
    }
    match operation {
        // 200 with no content, when the API is up: nothing to read.
        Operation::Status => Ok(Relayed::empty()),
        Operation::User => through::<vstage_api::User>(body),
        Operation::SetWebhookSecret | Operation::DeleteWebhookSecret => through::<Message>(body),
        Operation::ListRenders => through::<RenderPage>(body),
        Operation::CreateRender | Operation::GetRender => through::<Render>(body),
        Operation::CreateRenders => through::<BulkCreatedRenders>(body),
        Operation::AddVariations => through::<AddedVariations>(body),
        Operation::AddVariationsInBulk => through::<BulkAddedVariations>(body),
        Operation::ListVariations => through::<VariationPage>(body),
        Operation::GetVariation => through::<Variation>(body),
        Operation::Analyze => through::<Analysis>(body),
        Operation::CheckViews => through::<vstage_api::multi_view::ViewsCompatibility>(body),
        Operation::V1Ping => through::<v1::Ping>(body),
        Operation::V1Options => through::<v1::Options>(body),
        Operation::V1Create | Operation::V1CreateVariation => through::<v1::Created>(body),
        Operation::V1Render => through::<v1::Render>(body),
    }
}

/// Render `render_id`'s answer as relayed, and as read (for what the proxy does with it besides: a failed render's
/// photos given back), from one reading. It must be about that render, and so must every variation it includes.
pub fn render_relayed(body: &Bytes, render_id: &str) -> Result<(Relayed, Render), ServerError> {
    let tree = tree_of(body)?;
    let render: Render = read(&tree)?;
    all_of_this_render(&render, render_id)?;
    Ok((relayed(body, tree, &render)?, render))
}

/// `render`, read when render `render_id` was asked for, is that render, and so is every variation it includes.
pub fn all_of_this_render(render: &Render, render_id: &str) -> Result<(), ServerError> {
    if render.id != render_id {
        tracing::warn!(render_id, "the service answered with another render");
        return Err(another_render());
    }
    all_of_render(render_id, render.variations.iter().flat_map(|page| &page.items))
}

/// Every one of `variations`, read when render `render_id`'s were asked for, is that render's.
fn all_of_render<'a>(render_id: &str, variations: impl IntoIterator<Item = &'a Variation>) -> Result<(), ServerError> {
    if variations.into_iter().any(|variation| variation.render_id != render_id) {
        tracing::warn!(render_id, "the service answered with another render's variations");
        return Err(another_render());
    }
    Ok(())
}

pub fn another_render() -> ServerError {
    ServerError::BadGateway("The staging service answered about another render.".into())
}

/// The service's answer about variation `variation_id` of render `render_id`, read; another is not found.
pub fn variation_of(body: &[u8], render_id: &str, variation_id: &str) -> Result<Variation, ServerError> {
    variation_in(&tree_of(body)?, render_id, variation_id)
}

fn variation_in(tree: &AnswerJson, render_id: &str, variation_id: &str) -> Result<Variation, ServerError> {
    let variation: Variation = read(tree)?;
    if variation.render_id != render_id || variation.id != variation_id {
        tracing::warn!(render_id, variation_id, "the service answered with another render's variation");
        return Err(ServerError::NotFound(format!("No variation {variation_id} on render {render_id}.")));
    }
    Ok(variation)
}

/// `body` read as `T` and written again.
fn through<T: DeserializeOwned + Serialize>(body: &Bytes) -> Result<Relayed, ServerError> {
    let tree = tree_of(body)?;
    let read = read::<T>(&tree)?;
    relayed(body, tree, &read)
}

/// `read` (of the service's answer `body`) as JSON, with the fields of `body` it does not hold that are safe to
/// pass on.
pub fn relayed_value<T: Serialize>(body: &[u8], read: &T) -> Result<Value, ServerError> {
    let tree = tree_of(body)?;
    if unchanged::is_unchanged(read, &tree) {
        return Ok(tree.into_value());
    }
    written_value(tree, read)
}

/// `read`, the typed reading of `tree` (the answer `body`), as relayed: `body` itself when that is what this
/// server would write.
fn relayed<T: Serialize>(body: &Bytes, tree: AnswerJson, read: &T) -> Result<Relayed, ServerError> {
    if unchanged::is_unchanged(read, &tree) {
        let with_finished = has_finished_variations(&tree).then(|| tree.into_value());
        return Ok(Relayed { body: body.clone(), with_finished });
    }
    let value = written_value(tree, read)?;
    let body = serde_json::to_vec(&value).map(Bytes::from).map_err(|e| ServerError::Internal(e.to_string()))?;
    let with_finished = kept::has_finished_variations_in(&value).then_some(value);
    Ok(Relayed { body, with_finished })
}

/// What this server writes of an answer that does not pass unchanged: its reading, with the safe unlisted fields.
fn written_value<T: Serialize>(tree: AnswerJson, read: &T) -> Result<Value, ServerError> {
    let written = serde_json::to_value(read).map_err(|e| ServerError::Internal(e.to_string()))?;
    Ok(unlisted::merged(tree.into_value(), written))
}

/// The answer's one reading: not JSON at all is the same 502 as an answer declared as something else.
fn tree_of(body: &[u8]) -> Result<AnswerJson<'_>, ServerError> {
    AnswerJson::read(body).map_err(|error| {
        tracing::warn!(%error, "the service's answer said JSON and is not");
        answer::unexpected()
    })
}

fn read<T: DeserializeOwned>(tree: &AnswerJson) -> Result<T, ServerError> {
    T::deserialize(tree).map_err(|error| {
        tracing::warn!(%error, answer = std::any::type_name::<T>(), "the service's answer is not the contract's shape");
        ServerError::BadGateway("The staging service sent an answer this server cannot read; try again later.".into())
    })
}

/// Whether a JSON answer read once (`AnswerJson`) has a finished variation anywhere, by the rule of
/// `kept::has_finished_variations_in`.
fn has_finished_variations(tree: &AnswerJson) -> bool {
    match tree {
        AnswerJson::Object(fields) => {
            let text = |name| tree.get(name).and_then(AnswerJson::as_str);
            let done = text("status") == Some("done") && tree.get("result").is_some();
            (done && text("render_id").is_some() && text("id").is_some())
                || fields.iter().any(|(_, inner)| has_finished_variations(inner))
        }
        AnswerJson::Array(items) => items.iter().any(has_finished_variations),
        _ => false,
    }
}

/// Through the whole app, in-process, and its parts alone.
#[cfg(test)]
mod tests;
