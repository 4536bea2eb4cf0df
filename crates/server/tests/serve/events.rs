//! A live event stream held open does not hold up the server's graceful stop (the stream's own tests run
//! in-process, in `src/live/events/served.rs`).

use crate::sse::EventStream;
use crate::support::{Server, widget_dir};

#[tokio::test]
async fn open_streams_do_not_hold_up_a_graceful_stop() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let _events = EventStream::open(reqwest::Client::new().get(server.api("/events"))).await;
    assert!(server.stop().await, "the server stopped within 10 s with a stream open");
}
