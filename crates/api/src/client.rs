//! The client of the service: one method per endpoint, over any `Transport`.
//! Behind our proxy the base is relative (`/api`) and carries no key; direct use sends `Api-Key`.

use std::fmt;
use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::transport::{HttpRequest, HttpResponse, Method, Transport, TransportError};
use crate::user::User;

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

#[derive(Debug, Clone)]
pub struct Client<T> {
    base_url: String,
    auth: Auth,
    timeout: Duration,
    transport: T,
}

impl<T: Transport> Client<T> {
    /// `base_url` is the root under which `/v2/...` and `/v1/...` live: `/api` behind vstage's proxy, or the
    /// service's own address for direct use.
    pub fn new(base_url: impl Into<String>, transport: T) -> Self {
        let base_url = base_url.into().trim_end_matches('/').to_string();
        Client { base_url, auth: Auth::None, timeout: DEFAULT_TIMEOUT, transport }
    }

    pub fn with_auth(mut self, auth: Auth) -> Self {
        self.auth = auth;
        self
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// `GET /v2/status`: `Ok(())` when the service runs.
    pub async fn status(&self) -> Result<(), ApiError> {
        self.call(Method::Get, "/v2/status", None).await.map(drop)
    }

    /// `GET /v2/user`: the account, its limits and its usage this period.
    pub async fn user(&self) -> Result<User, ApiError> {
        self.get_json("/v2/user").await
    }

    async fn get_json<R: DeserializeOwned>(&self, path: &str) -> Result<R, ApiError> {
        let response = self.call(Method::Get, path, None).await?;
        serde_json::from_slice(&response.body).map_err(|e| ApiError::Decode { detail: e.to_string() })
    }

    async fn call(&self, method: Method, path: &str, body: Option<Vec<u8>>) -> Result<HttpResponse, ApiError> {
        let mut headers = vec![("Accept", "application/json".to_string())];
        if body.is_some() {
            headers.push(("Content-Type", "application/json".to_string()));
        }
        if let Auth::ApiKey(key) = &self.auth {
            headers.push(("Authorization", format!("Api-Key {key}")));
        }
        let request =
            HttpRequest { method, url: format!("{}{path}", self.base_url), headers, body, timeout: self.timeout };
        let response = self.transport.send(request).await.map_err(|e| match e {
            TransportError::Network(detail) => ApiError::Network { detail },
            TransportError::Timeout => ApiError::Timeout { seconds: self.timeout.as_secs() },
        })?;
        if (200..300).contains(&response.status) {
            Ok(response)
        } else {
            Err(ApiError::Http { status: response.status, message: service_message(&response.body) })
        }
    }
}

/// The `message` of a `{"message": ...}` error body, when there is one.
fn service_message(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct ErrorBody {
        message: String,
    }
    serde_json::from_slice::<ErrorBody>(body).ok().map(|b| b.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_executor::block_on;
    use std::cell::RefCell;

    /// A transport that answers from a script and records what it was asked.
    #[derive(Debug)]
    struct Scripted {
        answers: RefCell<Vec<Result<HttpResponse, TransportError>>>,
        seen: RefCell<Vec<HttpRequest>>,
    }

    impl Scripted {
        fn new(answers: Vec<Result<HttpResponse, TransportError>>) -> Self {
            Scripted { answers: RefCell::new(answers), seen: RefCell::default() }
        }
    }

    impl Transport for Scripted {
        async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
            self.seen.borrow_mut().push(request);
            self.answers.borrow_mut().remove(0)
        }
    }

    fn answer(status: u16, body: &str) -> Result<HttpResponse, TransportError> {
        Ok(HttpResponse { status, retry_after: None, body: body.as_bytes().to_vec() })
    }


    #[test]
    fn builds_urls_under_a_relative_base_and_sends_no_key_by_default() {
        let client = Client::new("/api/", Scripted::new(vec![answer(200, "")]));
        block_on(client.status()).unwrap();
        let seen = client.transport.seen.borrow();
        assert_eq!(seen[0].url, "/api/v2/status");
        assert!(seen[0].headers.iter().all(|(name, _)| *name != "Authorization"));
    }

    #[test]
    fn direct_use_sends_the_api_key_header_and_hides_it_in_debug() {
        let client = Client::new("http://service", Scripted::new(vec![answer(200, "")]))
            .with_auth(Auth::ApiKey("k_secret".into()));
        block_on(client.status()).unwrap();
        let seen = client.transport.seen.borrow();
        assert!(seen[0].headers.contains(&("Authorization", "Api-Key k_secret".to_string())));
        assert!(!format!("{client:?}").contains("k_secret"));
    }

    #[test]
    fn errors_carry_the_service_message_or_a_sentence() {
        let client = Client::new("/api", Scripted::new(vec![answer(401, r#"{"message":"Invalid API key"}"#)]));
        let error = block_on(client.user()).unwrap_err();
        assert_eq!(error, ApiError::Http { status: 401, message: Some("Invalid API key".into()) });

        let client = Client::new("/api", Scripted::new(vec![Err(TransportError::Timeout)]));
        let error = block_on(client.user()).unwrap_err();
        assert!(error.to_string().contains("did not answer within 30 seconds"));
    }

    #[test]
    fn a_body_that_is_not_a_user_is_a_decode_error() {
        let client = Client::new("/api", Scripted::new(vec![answer(200, "<html>")]));
        assert!(matches!(block_on(client.user()), Err(ApiError::Decode { .. })));
    }
}
