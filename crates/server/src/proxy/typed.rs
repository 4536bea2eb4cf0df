//! The service's successful answers read into the contract's types and written again: the browser gets what this
//! server read (not the service's own layout), with the fields the contract does not list that are safe to pass
//! on (`unlisted.rs`); an answer that is not the shape its call returns is a 502. Read liberally (`vstage_api`):
//! unknown enum values and configuration shapes are kept as read.

use axum::body::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;
use vstage_api::{
    AddedVariations, Analysis, BulkAddedVariations, BulkCreatedRenders, Message, Render, RenderPage, Variation, v1,
};

use super::call::{Call, Operation};
use super::unlisted;
use crate::error::ServerError;

/// `body`, a successful answer to `call` (of `operation`), as this server writes what it read of it. A render or
/// variation read must be the one asked for: one about another render is a 502, another render's variation a 404.
pub fn rewritten(operation: Operation, call: &Call, body: &[u8]) -> Result<Bytes, ServerError> {
    if body.is_empty() {
        return Ok(Bytes::new());
    }
    match call {
        Call::GetRender { render_id, .. } => return render_relayed(body, render_id).map(|(relayed, _)| relayed),
        Call::GetVariation { render_id, variation_id } => {
            return relayed(body, &variation_of(body, render_id, variation_id)?);
        }
        _ => {}
    }
    match operation {
        // 200 with no content, when the API is up: nothing to read.
        Operation::Status => Ok(Bytes::new()),
        Operation::User => through::<vstage_api::User>(body),
        Operation::SetWebhookSecret | Operation::DeleteWebhookSecret => through::<Message>(body),
        Operation::ListRenders => through::<RenderPage>(body),
        Operation::CreateRender | Operation::GetRender => through::<Render>(body),
        Operation::CreateRenders => through::<BulkCreatedRenders>(body),
        Operation::AddVariations => through::<AddedVariations>(body),
        Operation::AddVariationsInBulk => through::<BulkAddedVariations>(body),
        Operation::GetVariation => through::<Variation>(body),
        Operation::Analyze => through::<Analysis>(body),
        Operation::CheckViews => through::<vstage_api::multi_view::ViewsCompatibility>(body),
        Operation::V1Ping => through::<v1::Ping>(body),
        Operation::V1Options => through::<v1::Options>(body),
        Operation::V1Create | Operation::V1CreateVariation => through::<v1::Created>(body),
        Operation::V1Render => through::<v1::Render>(body),
    }
}

/// The service's answer about render `render_id`, read; it must be about that render, and so must every variation
/// it includes.
/// Render `render_id`'s answer as relayed, and as read (for what the proxy does with it besides: a failed render's
/// photos given back), from one reading.
pub fn render_relayed(body: &[u8], render_id: &str) -> Result<(Bytes, Render), ServerError> {
    let render = render_of(body, render_id)?;
    Ok((relayed(body, &render)?, render))
}

fn render_of(body: &[u8], render_id: &str) -> Result<Render, ServerError> {
    let render: Render = read(body)?;
    all_of_this_render(&render, render_id)?;
    Ok(render)
}

/// `render`, read when render `render_id` was asked for, is that render, and so is every variation it includes.
pub fn all_of_this_render(render: &Render, render_id: &str) -> Result<(), ServerError> {
    let variations = render.variations.iter().flat_map(|page| &page.items);
    if render.id != render_id || variations.into_iter().any(|variation| variation.render_id != render_id) {
        tracing::warn!(render_id, "the service answered with another render, or another render's variations");
        return Err(another_render());
    }
    Ok(())
}

pub fn another_render() -> ServerError {
    ServerError::BadGateway("The staging service answered about another render.".into())
}

/// The service's answer about variation `variation_id` of render `render_id`, read; another is not found.
pub fn variation_of(body: &[u8], render_id: &str, variation_id: &str) -> Result<Variation, ServerError> {
    let variation: Variation = read(body)?;
    if variation.render_id != render_id || variation.id != variation_id {
        tracing::warn!(render_id, variation_id, "the service answered with another render's variation");
        return Err(ServerError::NotFound(format!("No variation {variation_id} on render {render_id}.")));
    }
    Ok(variation)
}

/// `body` read as `T` and written again.
fn through<T: DeserializeOwned + Serialize>(body: &[u8]) -> Result<Bytes, ServerError> {
    relayed(body, &read::<T>(body)?)
}

/// `read` (of the service's answer `body`) as JSON, with the fields of `body` it does not hold that are safe to
/// pass on.
pub fn relayed_value<T: Serialize>(body: &[u8], read: &T) -> Result<serde_json::Value, ServerError> {
    let written = serde_json::to_value(read).map_err(|e| ServerError::Internal(e.to_string()))?;
    // `body` was read as `T` already, so it is JSON.
    let sent: serde_json::Value = serde_json::from_slice(body).unwrap_or(serde_json::Value::Null);
    Ok(unlisted::merged(sent, written))
}

fn relayed<T: Serialize>(body: &[u8], read: &T) -> Result<Bytes, ServerError> {
    written(&relayed_value(body, read)?)
}

fn read<T: DeserializeOwned>(body: &[u8]) -> Result<T, ServerError> {
    serde_json::from_slice(body).map_err(|error| {
        tracing::warn!(%error, answer = std::any::type_name::<T>(), "the service's answer is not the contract's shape");
        ServerError::BadGateway("The staging service sent an answer this server cannot read; try again later.".into())
    })
}

fn written<T: Serialize>(read: &T) -> Result<Bytes, ServerError> {
    serde_json::to_vec(read).map(Bytes::from).map_err(|e| ServerError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_contract_does_not_hold_is_passed_on_when_safe() {
        let answer = br#"{"id":"rnd_1","created_at":1700000000000,"eta":null,"account_email":"ops@example.com",
            "room_detected":"bedroom","variations":{"items":[],"next_cursor":null,"internal":{"cost":3}}}"#;
        let call = Call::GetRender { render_id: "rnd_1".into(), query: Default::default() };
        let written = String::from_utf8(rewritten(Operation::GetRender, &call, answer).unwrap().to_vec()).unwrap();
        assert!(written.contains(r#""id":"rnd_1""#) && written.contains(r#""room_detected":"bedroom""#), "{written}");
        assert!(!written.contains("account_email") && !written.contains("internal"), "{written}");
    }

    #[test]
    fn an_answer_of_another_shape_is_a_bad_gateway() {
        let call = Call::GetVariation { render_id: "rnd_1".into(), variation_id: "var_1".into() };
        let error = rewritten(Operation::GetVariation, &call, br#"{"hello":"world"}"#).unwrap_err();
        assert!(matches!(error, ServerError::BadGateway(_)), "{error:?}");
        assert!(rewritten(Operation::Status, &Call::Status, b"<html>up</html>").unwrap().is_empty());
        let another = br#"{"id":"rnd_2","created_at":1,"eta":null}"#;
        let call = Call::GetRender { render_id: "rnd_1".into(), query: Default::default() };
        assert!(matches!(rewritten(Operation::GetRender, &call, another), Err(ServerError::BadGateway(_))));
    }
}

/// Through the whole app, in-process.
#[cfg(test)]
mod served;
