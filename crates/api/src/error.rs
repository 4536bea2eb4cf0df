//! The one error type of the client: every failure of a call, as a sentence a person can act on.
//! A `{"message"}` body from the service is shown as the service wrote it.

use thiserror::Error;

use crate::validate::ValidationError;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum ApiError {
    /// The request breaks a bound of the contract; nothing was sent.
    #[error(transparent)]
    Invalid(#[from] ValidationError),

    /// The request never got an answer: no connection, DNS, CORS, a dropped socket.
    #[error("Could not reach the staging service ({detail}). Check your connection and try again.")]
    Network { detail: String },

    /// The server answered but does not allow the page's origin: a setting of the server, not the network.
    #[error("This page's origin is not allowed by the staging server; add it: vstage serve --allow-origin {origin}")]
    OriginRefused { origin: String },

    /// No answer within the call's time limit.
    #[error("The staging service did not answer within {seconds} seconds. Try again in a moment.")]
    Timeout { seconds: u64 },

    /// The service answered with an error status. `message` is the service's own words when it sent them.
    #[error("{}", http_sentence(*status, message.as_deref()))]
    Http { status: u16, message: Option<String> },

    /// The service answered 2xx with a body that is not what the contract describes.
    #[error(
        "The staging service sent an answer vstage could not read ({detail}). Try again; if it persists, report it."
    )]
    Decode { detail: String },
}

impl ApiError {
    /// The HTTP status, when the service answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }
}

fn http_sentence(status: u16, message: Option<&str>) -> String {
    if let Some(message) = message.filter(|m| !m.trim().is_empty()) {
        return message.to_string();
    }
    match status {
        400 => "The staging service refused the request as invalid. Check the fields and try again.".into(),
        401 => "The staging service did not accept the API key. Check the key configured on the server.".into(),
        403 => "The account may not do this, or its photo limit for this period is reached.".into(),
        404 => "Not found: it may have been deleted, or it belongs to another account.".into(),
        409 => "This cannot be done in the item's current state. Wait for it to finish and try again.".into(),
        429 => "Too many requests at once. Wait a moment and try again.".into(),
        502..=504 => "The staging service is unreachable just now. Try again in a moment.".into(),
        _ => format!("The staging service answered with an error (HTTP {status}). Try again in a moment."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_message_is_shown_as_written() {
        let error = ApiError::Http { status: 400, message: Some("variation_count must be at least 1".into()) };
        assert_eq!(error.to_string(), "variation_count must be at least 1");
    }

    #[test]
    fn without_a_message_the_status_becomes_a_sentence() {
        let error = ApiError::Http { status: 401, message: None };
        assert!(error.to_string().contains("API key"));
        let error = ApiError::Http { status: 418, message: Some("  ".into()) };
        assert!(error.to_string().contains("HTTP 418"));
    }
}
