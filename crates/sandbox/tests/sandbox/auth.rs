//! The key check of service-api.md part 5 and the account endpoints, over real HTTP.

use crate::support::{answer, client, sandbox};
use vstage_api::ApiError;
use vstage_sandbox::{RunningSandbox, SandboxConfig};

async fn user_with_header(sandbox: &RunningSandbox, header: Option<&str>) -> (u16, serde_json::Value) {
    let mut request = reqwest::Client::new().get(format!("{}/v2/user", sandbox.base_url()));
    if let Some(value) = header {
        request = request.header("Authorization", value);
    }
    answer(request).await
}

/// The key exactly, the scheme (`Api-Key`, or `Bearer`) in any case (RFC 9110 section 11.1), one space or more
/// between them.
#[tokio::test]
async fn only_a_known_key_under_a_known_scheme_is_accepted() {
    let sandbox = sandbox(&["key-one"]).await;
    for accepted in [
        "Api-Key key-one",
        "api-key key-one",
        "API-KEY key-one",
        "Api-key key-one",
        "Api-Key  key-one",
        "Bearer key-one",
    ] {
        assert_eq!(user_with_header(&sandbox, Some(accepted)).await.0, 200, "{accepted} is accepted");
    }
    for refused in [None, Some("Basic key-one"), Some("Api-Key key-two"), Some("Api-Key KEY-ONE"), Some("key-one")] {
        let (status, body) = user_with_header(&sandbox, refused).await;
        assert_eq!(status, 401, "{refused:?} must be refused");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{refused:?} gets a message: {body}");
    }
}

/// "Listing Lab"'s `vsai.js` checks `GET /status` with no key and reads only the status.
#[tokio::test]
async fn the_status_answers_with_or_without_a_key() {
    let sandbox = sandbox(&["key-one"]).await;
    for header in [None, Some("Api-Key key-one"), Some("Api-Key someone-else")] {
        let mut request = reqwest::Client::new().get(format!("{}/v2/status", sandbox.base_url()));
        if let Some(value) = header {
            request = request.header("Authorization", value);
        }
        assert_eq!(request.send().await.unwrap().status(), 200, "{header:?}");
    }
}

#[tokio::test]
async fn each_key_is_its_own_account_with_its_usage() {
    let sandbox = sandbox(&["key-one", "key-two"]).await;
    let client = |key: &str| client(&sandbox, key);
    let one = client("key-one").user().await.unwrap();
    let two = client("key-two").user().await.unwrap();
    assert_ne!(one.user.as_ref().unwrap().uid, two.user.as_ref().unwrap().uid);
    assert_eq!(one.staging_usage(), (0, &SandboxConfig::DEFAULT_PHOTO_LIMIT.into()));
    assert_eq!(one.image_editing_usage(), (0, &SandboxConfig::DEFAULT_PHOTO_LIMIT.into()));
    client("key-one").status().await.unwrap();

    let refused = client("nobody").user().await.unwrap_err();
    assert_eq!(refused, ApiError::Http { status: 401, message: Some("Invalid API key.".into()) });
}

#[tokio::test]
async fn unknown_paths_are_json_404s() {
    let sandbox = sandbox(&["key-one"]).await;
    let response = reqwest::Client::new()
        .get(format!("{}/v2/nothing-here", sandbox.base_url()))
        .header("Authorization", "Api-Key key-one")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 404);
    let body: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert!(body["message"].is_string());
}

#[tokio::test]
async fn a_sandbox_without_keys_or_with_blank_keys_does_not_start() {
    let error = vstage_sandbox::build(&SandboxConfig::new(vec![]), "http://127.0.0.1:1").unwrap_err();
    assert!(error.to_string().contains("--api-key"));
    let error = vstage_sandbox::build(&SandboxConfig::new(vec!["a b".into()]), "http://127.0.0.1:1").unwrap_err();
    assert!(error.to_string().contains("spaces"));
}
