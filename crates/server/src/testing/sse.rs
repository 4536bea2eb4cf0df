//! A small Server-Sent Events reader, for checking `/api/events` as a browser would see it: over an in-process
//! answer's body, or over reqwest for the process tests (which include this file by path).

use std::time::Duration;

use futures_util::StreamExt;

#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    pub id: Option<String>,
    pub event: Option<String>,
    pub data: String,
}

pub struct EventStream {
    chunks: futures_util::stream::BoxStream<'static, Result<axum::body::Bytes, String>>,
    buffer: String,
    /// Comment lines seen (keep-alives).
    pub comments: usize,
    /// The server ended the stream.
    pub ended: bool,
}

impl EventStream {
    /// Opens the stream; panics unless the server answers 200 with `text/event-stream`.
    pub async fn open(request: reqwest::RequestBuilder) -> EventStream {
        let response = request.header("Accept", "text/event-stream").send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{:?}", response.text().await);
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        EventStream::reading(response.bytes_stream().map(|chunk| chunk.map_err(|error| error.to_string())).boxed())
    }

    /// Reads an in-process answer; panics unless it is 200 with `text/event-stream`.
    pub fn of(answer: axum::response::Response) -> EventStream {
        assert_eq!(answer.status().as_u16(), 200);
        assert!(answer.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        let chunks = answer.into_body().into_data_stream().map(|chunk| chunk.map_err(|error| error.to_string()));
        EventStream::reading(chunks.boxed())
    }

    fn reading(chunks: futures_util::stream::BoxStream<'static, Result<axum::body::Bytes, String>>) -> EventStream {
        EventStream { chunks, buffer: String::new(), comments: 0, ended: false }
    }

    /// The next event within `within`, or `None` (then `ended` says whether the server ended the stream).
    pub async fn next(&mut self, within: Duration) -> Option<SseEvent> {
        tokio::time::timeout(within, async {
            loop {
                while let Some(end) = self.buffer.find("\n\n") {
                    let block: String = self.buffer.drain(..end + 2).collect();
                    if let Some(event) = self.parse(&block) {
                        return Some(event);
                    }
                }
                match self.chunks.next().await {
                    Some(Ok(chunk)) => self.buffer.push_str(&String::from_utf8_lossy(&chunk)),
                    _ => {
                        self.ended = true;
                        return None;
                    }
                }
            }
        })
        .await
        .ok()
        .flatten()
    }

    fn parse(&mut self, block: &str) -> Option<SseEvent> {
        let mut event = SseEvent { id: None, event: None, data: String::new() };
        let mut has_data = false;
        for line in block.lines() {
            if line.starts_with(':') {
                self.comments += 1;
            } else if let Some((field, value)) = line.split_once(':') {
                let value = value.strip_prefix(' ').unwrap_or(value);
                match field {
                    "id" => event.id = Some(value.to_string()),
                    "event" => event.event = Some(value.to_string()),
                    "data" => {
                        if has_data {
                            event.data.push('\n');
                        }
                        event.data.push_str(value);
                        has_data = true;
                    }
                    _ => {}
                }
            }
        }
        has_data.then_some(event)
    }
}
