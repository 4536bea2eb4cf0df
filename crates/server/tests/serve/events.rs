//! Live events end to end: a render created through the proxy finishes in the sandbox, the sandbox's signed
//! webhook reaches the receiver, and the SSE stream shows `done`; resume, keep-alive, the cap and subjects.

use std::time::Duration;

use serde_json::Value;

use crate::sse::EventStream;
use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, create_render, mint, sample_url};

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
    assert_eq!(resumed.next(Duration::from_secs(5)).await.unwrap().id, Some(id.to_string()));
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
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
    let bob = mint(WIDGET_SECRET, "bob", "1h", None).await;
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
    tokio::time::sleep(Duration::from_millis(300)).await;
    let again = http.get(server.api("/events")).bearer_auth(&alice).send().await.unwrap();
    assert_eq!(again.status().as_u16(), 200, "a closed stream frees its place");
}

#[tokio::test]
async fn open_streams_do_not_hold_up_a_graceful_stop() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let _events = EventStream::open(reqwest::Client::new().get(server.api("/events"))).await;
    assert!(server.stop().await, "the server stopped within 10 s with a stream open");
}
