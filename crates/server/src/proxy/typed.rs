//! The service's successful answers read into the contract's types and written again: the browser gets what this
//! server read and nothing else (a field the contract does not have, the service's own layout), and an answer
//! that is not the shape its call returns is a 502. Read liberally (`vstage_api`): unknown enum values and
//! configuration shapes are kept as read.

use axum::body::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;
use vstage_api::{
    AddedVariations, Analysis, BulkAddedVariations, BulkCreatedRenders, Message, Render, RenderPage, Variation, v1,
};

use super::call::Operation;
use crate::error::ServerError;

/// `body`, a successful answer to `operation`, as this server writes what it read of it.
pub fn rewritten(operation: Operation, body: &[u8]) -> Result<Bytes, ServerError> {
    if body.is_empty() {
        return Ok(Bytes::new());
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
        Operation::V1Ping => through::<v1::Ping>(body),
        Operation::V1Options => through::<v1::Options>(body),
        Operation::V1Create | Operation::V1CreateVariation => through::<v1::Created>(body),
        Operation::V1Render => through::<v1::Render>(body),
    }
}

/// `body` read as `T` and written again.
pub fn through<T: DeserializeOwned + Serialize>(body: &[u8]) -> Result<Bytes, ServerError> {
    let read: T = serde_json::from_slice(body).map_err(|error| {
        tracing::warn!(%error, answer = std::any::type_name::<T>(), "the service's answer is not the contract's shape");
        ServerError::BadGateway("The staging service sent an answer this server cannot read; try again later.".into())
    })?;
    serde_json::to_vec(&read).map(Bytes::from).map_err(|e| ServerError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_contract_does_not_hold_is_not_passed_on() {
        let answer = br#"{"id":"rnd_1","created_at":1700000000000,"eta":null,"account_email":"ops@example.com",
            "variations":{"items":[],"next_cursor":null,"internal":{"cost":3}}}"#;
        let written = String::from_utf8(rewritten(Operation::GetRender, answer).unwrap().to_vec()).unwrap();
        assert!(written.contains(r#""id":"rnd_1""#), "{written}");
        assert!(!written.contains("account_email") && !written.contains("internal"), "{written}");
    }

    #[test]
    fn an_answer_of_another_shape_is_a_bad_gateway() {
        let error = rewritten(Operation::GetVariation, br#"{"hello":"world"}"#).unwrap_err();
        assert!(matches!(error, ServerError::BadGateway(_)), "{error:?}");
        assert!(rewritten(Operation::Status, b"<html>up</html>").unwrap().is_empty());
    }
}
