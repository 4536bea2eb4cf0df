//! Live events through the whole app, in-process: a render created through the proxy finishes in the embedded
//! sandbox, whose signed webhook reaches the receiver, and the stream shows `done`; resume, keep-alive, the cap
//! per subject, each subject's own events, a token's expiry.

use std::time::Duration;

use axum::http::Method;
use serde_json::{Value, json};

use crate::access::token::WidgetSecret;
use crate::testing::deliveries::{done_event, signature};
use crate::testing::sse::EventStream;
use crate::testing::{TEST_WIDGET_SECRET, TestApp};

/// The stream of `GET /api/events` with `headers`.
async fn stream(server: &TestApp, headers: &[(&str, &str)]) -> EventStream {
    let mut asking = server.ask(Method::GET, "/api/events").header("Accept", "text/event-stream");
    for (name, value) in headers {
        asking = asking.header(name, value);
    }
    EventStream::of(asking.send().await)
}

#[tokio::test]
async fn an_sse_client_receives_the_done_event_of_its_render_and_can_resume() {
    let server = TestApp::start(&["--event-keep-alive-s", "1"]).await;
    let mut events = stream(&server, &[]).await;

    let photo = server.sample_url("living-empty.jpg").await;
    let render = server.create_render(None, &photo, json!({"type": "enhancement"}), false).await;
    let variation = render["variations"]["items"][0]["id"].as_str().unwrap();
    let done = events.next(Duration::from_secs(30)).await.expect("a done event within 30 s");
    assert_eq!(done.event.as_deref(), Some("done"));
    let payload: Value = serde_json::from_str(&done.data).unwrap();
    assert_eq!(payload["variation_id"], variation);
    assert_eq!(payload["render_id"], render["id"]);
    // the result is served by this server, not the sandbox's own port
    let result = payload["result"]["url"].as_str().unwrap();
    let path = result.strip_prefix(&server.url).expect("an address on this server");
    assert!(path.starts_with("/sandbox/files/"), "{result}");
    assert_eq!(server.get(path).await.headers()["content-type"], "image/jpeg");

    // keep-alive comments flow while nothing happens
    assert!(events.next(Duration::from_millis(2500)).await.is_none());
    assert!(events.comments >= 1, "keep-alive comments");

    // a client that lost the connection resumes after the last id it saw
    let id: i64 = done.id.unwrap().parse().unwrap();
    let mut resumed = stream(&server, &[("Last-Event-ID", &(id - 1).to_string())]).await;
    assert_eq!(resumed.next(Duration::from_secs(30)).await.unwrap().id, Some(id.to_string()));
    let mut caught_up = stream(&server, &[("Last-Event-ID", &id.to_string())]).await;
    assert!(caught_up.next(Duration::from_millis(1500)).await.is_none(), "nothing after the last id");
}

#[tokio::test]
async fn streams_are_capped_per_subject_and_carry_only_the_subjects_events() {
    let server = TestApp::with_tokens(&["--max-event-streams", "1"]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    // an EventSource cannot send headers: the token may come in the query
    let mut alices = EventStream::of(server.get(&format!("/api/events?access_token={alice}")).await);
    let mut bobs = stream(&server, &[("Authorization", &format!("Bearer {bob}"))]).await;
    let second = server.ask(Method::GET, "/api/events").bearer(&alice).send().await;
    assert_eq!(second.status(), 429, "one stream per subject here");

    let photo = server.sample_url("living-empty.jpg").await;
    // waiting for completion: the webhook arrives before the proxy knows whose render it is, and still reaches alice
    let render = server.create_render(Some(&alice), &photo, json!({"type": "enhancement"}), true).await;
    let done = alices.next(Duration::from_secs(30)).await.expect("alice's event");
    assert!(done.data.contains(render["id"].as_str().unwrap()));
    assert!(bobs.next(Duration::from_secs(2)).await.is_none(), "bob sees nothing of alice's render");
    drop(alices);
    // the server frees the place once it notices the stream closed: ask until it has
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let again = server.ask(Method::GET, "/api/events").bearer(&alice).send().await;
        if again.status() == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "a closed stream frees its place: {}", again.status());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_stream_ends_when_its_token_expires() {
    let server = TestApp::with_tokens(&[]).await;
    // minted here, right before the stream opens, with time enough for a busy machine to open it
    let short = WidgetSecret::new(TEST_WIDGET_SECRET).unwrap().mint("alice", Duration::from_secs(5), None);
    let mut events = stream(&server, &[("Authorization", &format!("Bearer {short}"))]).await;
    let expired = events.next(Duration::from_secs(30)).await.expect("an event when the token expires");
    assert_eq!(expired.event.as_deref(), Some("token_expired"));
    assert!(expired.data.contains("expired"), "{}", expired.data);
    assert!(events.next(Duration::from_secs(30)).await.is_none(), "nothing after it: the stream ends");
    assert!(events.ended, "the stream ends with its token");
}

#[tokio::test]
async fn a_resume_from_before_the_kept_window_is_told_to_reset() {
    let server = TestApp::start(&["--event-window-s", "1"]).await;
    let secret = server.webhook_secret();
    let deliver_done = async |variation: &str| {
        let body = done_event(variation);
        server.deliver(&body, Some(&hex::encode(signature(&secret, &body)))).await
    };
    let resume =
        async |after: &str| stream(&server, &[("Last-Event-ID", after)]).await.next(Duration::from_secs(30)).await;
    assert_eq!(deliver_done("var_1").await, 200);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    // the first event is out of the window when the second is stored
    assert_eq!(deliver_done("var_2").await, 200);

    let reset = resume("0").await.expect("a reset for a client that missed a dropped event");
    assert_eq!((reset.event.as_deref(), reset.id.as_deref()), (Some("reset"), Some("2")));
    assert!(reset.data.contains("reload"), "{}", reset.data);
    // one that saw the first misses nothing that was dropped
    let next = resume("1").await.expect("the second event");
    assert_eq!((next.event.as_deref(), next.id.as_deref()), (Some("done"), Some("2")));
    // an id this log never gave (another server's, or before its data was cleared), or no id at all
    assert_eq!(resume("99").await.expect("a reset").event.as_deref(), Some("reset"));
    for never_given in ["abc", "9223372036854775808", "-"] {
        assert_eq!(resume(never_given).await.expect("a reset").event.as_deref(), Some("reset"), "{never_given}");
    }
}

#[tokio::test]
async fn a_token_that_never_expires_opens_a_stream() {
    // A host may mint tokens that never expire: an expiry beyond what the clock can hold is none.
    let server = TestApp::with_tokens(&[]).await;
    let forever = WidgetSecret::new(TEST_WIDGET_SECRET).unwrap().mint("alice", Duration::MAX, None);
    let answer = server.ask(Method::GET, "/api/events").bearer(&forever).send().await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "text/event-stream");
}

/// The studio reads its usage as it starts and opens its first stream from the usage answer's `Vstage-Event-Id`:
/// the stream brings every event after that answer (a render read after it needs no second read when the stream
/// opens), none before.
#[tokio::test]
async fn a_stream_opened_from_the_usage_answers_event_id_hears_everything_after_it() {
    let server = TestApp::start(&[]).await;
    let secret = server.webhook_secret();
    let deliver_done = async |variation: &str| {
        let body = done_event(variation);
        assert_eq!(server.deliver(&body, Some(&hex::encode(signature(&secret, &body)))).await, 200);
    };
    let event_id = async || {
        let answer = server.get("/api/usage").await;
        assert_eq!(answer.status(), 200);
        answer.headers()["vstage-event-id"].to_str().unwrap().to_string()
    };
    assert_eq!(event_id().await, "0", "no event yet");
    deliver_done("var_1").await;
    let after_first = event_id().await;
    assert_eq!(after_first, "1");
    deliver_done("var_2").await;

    let mut resumed = EventStream::of(server.get(&format!("/api/events?last_event_id={after_first}")).await);
    let next = resumed.next(Duration::from_secs(30)).await.expect("the event after the usage answer");
    assert_eq!((next.event.as_deref(), next.id.as_deref()), (Some("done"), Some("2")));
    assert!(next.data.contains("var_2"), "{}", next.data);
    assert_eq!(event_id().await, "2");
}

/// Deliveries that arrive together (the service may send several at once) each reach the stream: none is lost
/// between the receiver's store and the streams.
#[tokio::test]
async fn done_webhooks_delivered_at_once_all_reach_the_stream() {
    const AT_ONCE: usize = 16;
    let server = TestApp::start(&[]).await;
    let secret = server.webhook_secret();
    let mut events = stream(&server, &[]).await;
    let bodies: Vec<Vec<u8>> = (0..AT_ONCE).map(|n| done_event(&format!("var_at_once_{n}"))).collect();
    let signatures: Vec<String> = bodies.iter().map(|body| hex::encode(signature(&secret, body))).collect();
    let delivered = futures_util::future::join_all(
        bodies.iter().zip(&signatures).map(|(body, signed)| server.deliver(body, Some(signed))),
    )
    .await;
    assert!(delivered.iter().all(|status| *status == 200), "{delivered:?}");
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < AT_ONCE {
        let event = events.next(Duration::from_secs(30)).await.unwrap_or_else(|| panic!("only {seen:?} arrived"));
        let payload: Value = serde_json::from_str(&event.data).unwrap();
        seen.insert(payload["variation_id"].as_str().unwrap().to_string());
    }
}
