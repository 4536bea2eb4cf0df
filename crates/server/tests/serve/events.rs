//! Live events end to end: a render created through the proxy finishes in the sandbox, the sandbox's signed
//! webhook reaches the receiver, and the SSE stream shows `done`; resume, keep-alive, the cap and subjects.

use std::time::Duration;

use serde_json::Value;

use crate::sse::EventStream;
use crate::support::{Server, widget_dir};
use crate::webhooks::deliver_done;
use crate::{WIDGET_SECRET, alice_and_bob, create_render, mint, sample_url};

#[tokio::test]
async fn an_sse_client_receives_the_done_event_of_its_render_and_can_resume() {
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--event-keep-alive-s", "1"], &[]).await;
    let http = reqwest::Client::new();
    let mut events = EventStream::open(http.get(server.api("/events"))).await;

    let render = create_render(&server, None, &sample_url(&server, "living-empty.jpg").await, false).await;
    let variation = render["variations"]["items"][0]["id"].as_str().unwrap();
    let done = events.next(Duration::from_secs(30)).await.expect("a done event within 30 s");
    assert_eq!(done.event.as_deref(), Some("done"));
    let payload: Value = serde_json::from_str(&done.data).unwrap();
    assert_eq!(payload["variation_id"], variation);
    assert_eq!(payload["render_id"], render["id"]);
    assert!(payload["result"]["url"].as_str().unwrap().starts_with(&format!("{}/sandbox/files/", server.url)));
    // the result is served by this server, not the sandbox's own port
    let image = http.get(payload["result"]["url"].as_str().unwrap()).send().await.unwrap();
    assert_eq!(image.headers()["content-type"], "image/jpeg");

    // keep-alive comments flow while nothing happens
    assert!(events.next(Duration::from_millis(2500)).await.is_none());
    assert!(events.comments >= 1, "keep-alive comments");

    // a client that lost the connection resumes after the last id it saw
    let id: i64 = done.id.unwrap().parse().unwrap();
    let mut resumed =
        EventStream::open(http.get(server.api("/events")).header("Last-Event-ID", (id - 1).to_string())).await;
    assert_eq!(resumed.next(Duration::from_secs(30)).await.unwrap().id, Some(id.to_string()));
    let mut caught_up =
        EventStream::open(http.get(server.api("/events")).header("Last-Event-ID", id.to_string())).await;
    assert!(caught_up.next(Duration::from_millis(1500)).await.is_none(), "nothing after the last id");
}

#[tokio::test]
async fn streams_are_capped_per_subject_and_carry_only_the_subjects_events() {
    let dist = widget_dir();
    let server = Server::start_with(
        dist.path(),
        &["--access", "token", "--max-event-streams", "1"],
        &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)],
    )
    .await;
    let http = reqwest::Client::new();
    let (alice, bob) = alice_and_bob().await;
    // an EventSource cannot send headers: the token may come in the query
    let mut alices = EventStream::open(http.get(server.api(&format!("/events?access_token={alice}")))).await;
    let mut bobs = EventStream::open(http.get(server.api("/events")).bearer_auth(&bob)).await;
    let second = http.get(server.api("/events")).bearer_auth(&alice).send().await.unwrap();
    assert_eq!(second.status().as_u16(), 429, "one stream per subject here");

    let photo = sample_url(&server, "living-empty.jpg").await;
    // waiting for completion: the webhook arrives before the proxy knows whose render it is, and still reaches alice
    let render = create_render(&server, Some(&alice), &photo, true).await;
    let done = alices.next(Duration::from_secs(30)).await.expect("alice's event");
    assert!(done.data.contains(render["id"].as_str().unwrap()));
    assert!(bobs.next(Duration::from_secs(2)).await.is_none(), "bob sees nothing of alice's render");
    drop(alices);
    // the server frees the place once it notices the stream closed: ask until it has
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let again = http.get(server.api("/events")).bearer_auth(&alice).send().await.unwrap();
        if again.status().as_u16() == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "a closed stream frees its place: {}", again.status());
        drop(again);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn open_streams_do_not_hold_up_a_graceful_stop() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let _events = EventStream::open(reqwest::Client::new().get(server.api("/events"))).await;
    assert!(server.stop().await, "the server stopped within 10 s with a stream open");
}

#[tokio::test]
async fn a_stream_ends_when_its_token_expires() {
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--access", "token"], &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    // minted here, right before the stream opens, with time enough for a busy machine to open it
    let secret = vstage_server::token::WidgetSecret::new(WIDGET_SECRET).unwrap();
    let short = secret.mint("alice", Duration::from_secs(5), None);
    let mut events = EventStream::open(reqwest::Client::new().get(server.api("/events")).bearer_auth(&short)).await;
    let expired = events.next(Duration::from_secs(30)).await.expect("an event when the token expires");
    assert_eq!(expired.event.as_deref(), Some("token_expired"));
    assert!(expired.data.contains("expired"), "{}", expired.data);
    assert!(events.next(Duration::from_secs(30)).await.is_none(), "nothing after it: the stream ends");
    assert!(events.ended, "the stream ends with its token");
}

#[tokio::test]
async fn a_resume_from_before_the_kept_window_is_told_to_reset() {
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--event-window-s", "1"], &[]).await;
    let resume = async |after: &str| {
        let request = reqwest::Client::new().get(server.api("/events")).header("Last-Event-ID", after);
        let mut stream = EventStream::open(request).await;
        stream.next(Duration::from_secs(30)).await
    };
    assert_eq!(deliver_done(&server, "var_1").await, 200);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    // the first event is out of the window when the second is stored
    assert_eq!(deliver_done(&server, "var_2").await, 200);

    let reset = resume("0").await.expect("a reset for a client that missed a dropped event");
    assert_eq!((reset.event.as_deref(), reset.id.as_deref()), (Some("reset"), Some("2")));
    assert!(reset.data.contains("reload"), "{}", reset.data);
    // one that saw the first misses nothing that was dropped
    let next = resume("1").await.expect("the second event");
    assert_eq!((next.event.as_deref(), next.id.as_deref()), (Some("done"), Some("2")));
    // an id this log never gave (another server's, or before its data was cleared)
    assert_eq!(resume("99").await.expect("a reset").event.as_deref(), Some("reset"));
}

#[tokio::test]
async fn a_token_that_never_expires_opens_a_stream() {
    // A host may mint tokens that never expire: an expiry beyond what the clock can hold is none.
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--access", "token"], &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    let forever = mint(WIDGET_SECRET, "alice", "300000000000y", None).await;
    let answer = reqwest::Client::new().get(server.api("/events")).bearer_auth(&forever).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "text/event-stream");
}
