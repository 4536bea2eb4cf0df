//! A stand-in for the real service that records what reaches it, to check what the proxy sends upstream
//! (headers, paths, bodies) without the sandbox's own checks in the way.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;

#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path_and_query: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

pub struct RecordingUpstream {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl RecordingUpstream {
    /// Answers every call with `{"id": "rnd_recorded", ...}` and remembers it.
    pub async fn start() -> RecordingUpstream {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let app = Router::new().fallback(record).with_state(seen.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        RecordingUpstream { url, seen }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn record(State(seen): State<Arc<Mutex<Vec<Seen>>>>, request: Request) -> impl IntoResponse {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    seen.lock().unwrap().push(Seen {
        method: parts.method.to_string(),
        path_and_query: parts.uri.path_and_query().map(|p| p.to_string()).unwrap_or_default(),
        headers: parts.headers,
        body,
    });
    (
        [("content-type", "application/json"), ("set-cookie", "upstream=secret"), ("x-upstream-internal", "1")],
        r#"{"id":"rnd_recorded","created_at":1,"eta":null,"variations":{"total_count":0,"next_cursor":null,"items":[]}}"#,
    )
}
