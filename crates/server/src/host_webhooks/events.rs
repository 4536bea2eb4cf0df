//! The host's webhooks' events, as the outbox keeps them: one entry per receiver, sharing the event's id, with
//! the Standard Webhooks body `{type, timestamp, data}`. Each names its subject and render, so that the host can
//! join it to its own records.

use chrono::{DateTime, SecondsFormat};
use serde_json::{Map, Value, json};
use vstage_api::disclosure::Disclosure;
use vstage_api::host_events::ResultChosen;
use vstage_api::usage::UsageLevel;
use vstage_api::vocabulary::VariationType;
use vstage_api::webhook::{VariationFailed, WebhookEvent};

use super::HostWebhooks;
use crate::storage::outbox::OutboxEntry;
use crate::storage::store::{LevelReached, StoredEvent};

/// `render.created`: `subject` created render `render_id` through this server.
pub const RENDER_CREATED: &str = "render.created";
/// `variation.done`: a finished variation's images are kept, at lasting links.
pub const VARIATION_DONE: &str = "variation.done";
/// `variation.failed`: the service could not make a variation.
pub const VARIATION_FAILED: &str = "variation.failed";
/// `result.chosen`: a result was chosen for a listing, with its disclosure.
pub const RESULT_CHOSEN: &str = "result.chosen";
/// `allowance.low`: a charge brought an agent's allowance of a kind to 80 % used.
pub const ALLOWANCE_LOW: &str = "allowance.low";
/// `allowance.spent`: a charge used all of it.
pub const ALLOWANCE_SPENT: &str = "allowance.spent";

/// A kept image of a variation: its index in the result, its role (`url`, `optimized_url`, `thumbnail_url`) and
/// its lasting (signed) address.
pub struct KeptImage<'a> {
    pub index: u32,
    pub role: &'a str,
    pub address: String,
}

impl HostWebhooks {
    /// The entries reporting that `subject` created the renders `ids` at `now` (ms).
    pub fn renders_created(&self, subject: &str, ids: &[String], now: i64) -> Vec<OutboxEntry> {
        ids.iter()
            .flat_map(|id| self.event(RENDER_CREATED, id, json!({"subject": subject, "render_id": id}), now))
            .collect()
    }

    /// The entries reporting that `subject`'s variation is done and kept: its images at their lasting addresses, by
    /// index (`[{url, optimized_url, thumbnail_url}]`).
    pub fn variation_done(
        &self,
        subject: &str,
        (render_id, variation_id): (&str, &str),
        kind: Option<&VariationType>,
        images: &[KeptImage<'_>],
        now: i64,
    ) -> Vec<OutboxEntry> {
        let mut by_index: Vec<Map<String, Value>> = Vec::new();
        for image in images {
            let index = usize::try_from(image.index).unwrap_or(usize::MAX).min(by_index.len());
            if index == by_index.len() {
                by_index.push(Map::new());
            }
            by_index[index].insert(image.role.to_string(), Value::String(image.address.clone()));
        }
        let data = json!({
            "subject": subject, "render_id": render_id, "variation_id": variation_id,
            "variation_type": kind.map(VariationType::as_str), "images": by_index,
        });
        self.event(VARIATION_DONE, render_id, data, now)
    }

    /// The entries reporting that `subject`'s variation failed, with the service's reason when it gave one.
    pub fn variation_failed(&self, subject: &str, failed: &VariationFailed, now: i64) -> Vec<OutboxEntry> {
        let data = json!({
            "subject": subject, "render_id": failed.render_id, "variation_id": failed.variation_id,
            "variation_type": failed.variation_type.as_ref().map(VariationType::as_str),
            "error_message": failed.error_message,
        });
        self.event(VARIATION_FAILED, &failed.render_id, data, now)
    }

    /// The entries reporting an event that waited for its owner, now that `event.subject` claimed it: a failed
    /// variation's (its done one is reported when its images are kept, whoever reads it first).
    pub fn claimed_event(&self, event: &StoredEvent, now: i64) -> Vec<OutboxEntry> {
        match serde_json::from_str::<WebhookEvent>(&event.data) {
            Ok(WebhookEvent::Error(failed)) => self.variation_failed(&event.subject, &failed, now),
            _ => Vec::new(),
        }
    }

    /// The entries reporting that a result was chosen for a listing: what `vstage-result-chosen` tells the page,
    /// made from the same record, field for field (`ResultChosen::recorded`).
    pub fn result_chosen(&self, disclosure: &Disclosure, now: i64) -> Vec<OutboxEntry> {
        let data = serde_json::to_value(ResultChosen::recorded(disclosure.clone())).unwrap_or(Value::Null);
        self.event(RESULT_CHOSEN, &disclosure.render_id, data, now)
    }

    /// The entries reporting that a charge brought `subject`'s allowance of a kind to a warning level:
    /// `{subject, kind, used, limit, renews_at}`, what `vstage-allowance-low` (or `-spent`) tells the page, with the
    /// subject. About no render: one subject's go in order with the other allowance events.
    pub fn allowance_level(&self, subject: &str, reached: &LevelReached, renews_at: i64, now: i64) -> Vec<OutboxEntry> {
        let kind = if reached.level == UsageLevel::Reached { ALLOWANCE_SPENT } else { ALLOWANCE_LOW };
        let data = json!({
            "subject": subject, "kind": reached.kind.as_str(), "used": reached.used, "limit": reached.limit,
            "renews_at": renews_at,
        });
        self.event(kind, "", data, now)
    }

    /// One event about render `render_id` (empty for none), for every receiver.
    fn event(&self, kind: &str, render_id: &str, data: Value, now: i64) -> Vec<OutboxEntry> {
        let id = event_id();
        let timestamp =
            DateTime::from_timestamp_millis(now).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Millis, true);
        let payload = json!({"type": kind, "timestamp": timestamp, "data": data}).to_string();
        self.targets
            .iter()
            .map(|target| OutboxEntry {
                id: id.clone(),
                target: target.clone(),
                render_id: render_id.to_string(),
                kind: kind.to_string(),
                payload: payload.clone(),
                created_at: now,
            })
            .collect()
    }
}

/// A new event's id: `msg_` and 128 random bits (`secret::random`, as the other ids); the clock and a counter in
/// the unlikely case the system has no randomness to give.
fn event_id() -> String {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    crate::secret::random("msg_").map(|id| id[.."msg_".len() + 32].to_string()).unwrap_or_else(|_| {
        let count = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("msg_{:016x}{count:016x}", vstage_api::time::now_millis())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hooks(targets: &[String]) -> std::sync::Arc<HostWebhooks> {
        let store: std::sync::Arc<dyn crate::storage::store::Store> =
            std::sync::Arc::new(crate::storage::sqlite::Sqlite::open(tempfile::tempdir().unwrap().path()).unwrap());
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let pacing = crate::host_webhooks::Pacing {
            first_retry: std::time::Duration::from_secs(5),
            attempt_timeout: std::time::Duration::from_secs(10),
            per_receiver: 4,
        };
        HostWebhooks::new(targets, Some(secret), store, pacing).unwrap().unwrap()
    }

    #[tokio::test]
    async fn an_event_goes_to_every_receiver_with_one_id_and_names_its_render() {
        let targets = ["https://a.example/hooks".to_string(), "http://10.0.0.2/in".to_string()];
        let hooks = hooks(&targets);
        let entries = hooks.renders_created("agent-7", &["rnd_1".into()], 1_796_083_200_123);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].id, entries[1].id);
        assert_eq!((entries[1].target.as_str(), entries[1].render_id.as_str()), ("http://10.0.0.2/in", "rnd_1"));
        let body: Value = serde_json::from_str(&entries[0].payload).unwrap();
        assert_eq!(
            body,
            json!({"type": "render.created", "timestamp": "2026-12-01T00:00:00.123Z",
                   "data": {"subject": "agent-7", "render_id": "rnd_1"}})
        );
    }

    #[tokio::test]
    async fn a_failure_that_waited_for_its_owner_is_reported_for_its_claimant() {
        let hooks = hooks(&["https://a.example/hooks".to_string()]);
        let failed = r#"{"event_type": "error", "render_id": "rnd_1", "variation_id": "var_1",
                         "timestamp": 1796083200000, "error_message": "Not a room"}"#;
        let stored = |event_type: &str, data: String| StoredEvent {
            id: 1,
            subject: "agent-7".into(),
            event_type: event_type.into(),
            data,
        };
        let as_stored = serde_json::to_string(&serde_json::from_str::<WebhookEvent>(failed).unwrap()).unwrap();
        let entries = hooks.claimed_event(&stored("error", as_stored), 0);
        let body: Value = serde_json::from_str(&entries[0].payload).unwrap();
        assert_eq!((body["type"].as_str(), &body["data"]["subject"]), (Some(VARIATION_FAILED), &json!("agent-7")));
        assert_eq!(body["data"]["error_message"], "Not a room");
        let other = r#"{"event_type": "update", "render_id": "rnd_1", "variation_id": "var_1",
                        "timestamp": 1796083200000, "status": "rendering"}"#;
        assert!(hooks.claimed_event(&stored("update", other.into()), 0).is_empty(), "only failures wait to be told");
    }
}
