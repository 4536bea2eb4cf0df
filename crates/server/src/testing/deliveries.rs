//! The service's webhook deliveries as the tests send them: a `done` event, and its HMAC-SHA256 signature over
//! the exact bytes (shared with the process tests, which include this file by path).

use hmac::{KeyInit, Mac};
use serde_json::json;

/// HMAC-SHA256 of `body` with `secret`, as the service signs a delivery.
pub fn signature(secret: &str, body: &[u8]) -> [u8; 32] {
    let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body);
    mac.finalize().into_bytes().into()
}

/// A `done` event about `variation`, sent now.
pub fn done_event(variation: &str) -> Vec<u8> {
    done_event_sent_at(variation, vstage_api::time::now_millis())
}

/// A `done` event about `variation` that the service sent at `timestamp` (epoch milliseconds).
pub fn done_event_sent_at(variation: &str, timestamp: i64) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "event_type": "done",
        "render_id": "rnd_from_elsewhere",
        "variation_id": variation,
        "timestamp": timestamp,
        "result": {"url": "https://img.example/a.jpg", "optimized_url": null, "thumbnail_url": null}
    }))
    .unwrap()
}
