//! Errors through the whole app, in-process: what axum's extractors and body limits refuse is answered as every
//! other error, `{"message"}` in JSON, with a sentence.

use axum::http::Method;

use crate::testing::{TestApp, json};

#[tokio::test]
async fn what_the_extractors_refuse_is_answered_as_json_with_a_sentence() {
    let server = TestApp::start(&[]).await;
    let too_large = vec![b'x'; 5 * 1024 * 1024];
    for (request, status) in [
        (server.ask(Method::GET, "/api/events?last_event_id=x"), 400),
        (server.ask(Method::POST, "/api/webhooks/service").body(too_large.clone()), 413),
        (server.ask(Method::POST, "/api/disclosures").header("content-type", "application/json").body(too_large), 413),
    ] {
        let answer = request.send().await;
        assert_eq!(answer.headers()["content-type"], "application/json");
        assert_eq!(answer.headers()["x-content-type-options"], "nosniff");
        let (got, body) = json(answer).await;
        assert_eq!(got, status, "{body}");
        let message = body["message"].as_str().unwrap_or_default();
        assert!(message.ends_with('.') && message.len() > 20, "a sentence: {body}");
    }
}
