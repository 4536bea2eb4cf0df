//! A render as a screen keeps it (the render page, and each row of the listing board): the render, its variations
//! as read and as events change them (`variations`), the next page's cursor, and the last failure. Methods take
//! each read or event in; the views only read.

pub mod variations;

use leptos::prelude::*;
use vstage_api::{Render, Variation, VariationStatus, WebhookEvent};

#[derive(Debug, Clone, Copy)]
pub struct RenderState {
    pub render: RwSignal<Option<Render>>,
    pub variations: RwSignal<Vec<Variation>>,
    /// Where the next page of variations starts, while there is one.
    pub more_cursor: RwSignal<Option<String>>,
    pub failure: RwSignal<Option<String>>,
    /// Bumped by every read and applied event, so that the polling schedule is worked out again.
    version: RwSignal<u64>,
}

impl Default for RenderState {
    fn default() -> Self {
        Self::new()
    }
}

impl RenderState {
    pub fn new() -> Self {
        RenderState {
            render: RwSignal::new(None),
            variations: RwSignal::new(Vec::new()),
            more_cursor: RwSignal::new(None),
            failure: RwSignal::new(None),
            version: RwSignal::new(0),
        }
    }

    /// Forgets everything: another render is shown.
    pub fn clear(&self) {
        self.render.set(None);
        self.variations.set(Vec::new());
        self.more_cursor.set(None);
    }

    /// Takes a read of the render (its first page of variations).
    pub fn read(&self, fresh: Render) {
        self.variations.update(|list| variations::merge(list, fresh.variation_items().to_vec()));
        if self.more_cursor.get_untracked().is_none() && self.render.get_untracked().is_none() {
            self.more_cursor.set(fresh.variations.as_ref().and_then(|page| page.next_cursor.clone()));
        }
        self.render.set(Some(fresh));
        self.failure.set(None);
        self.version.update(|v| *v += 1);
    }

    /// Takes a further page of variations.
    pub fn page(&self, page: Render) {
        self.variations.update(|list| variations::merge(list, page.variation_items().to_vec()));
        self.more_cursor.set(page.variations.and_then(|page| page.next_cursor));
    }

    /// Takes variations just added.
    pub fn added(&self, added: Vec<Variation>) {
        self.variations.update(|list| variations::merge(list, added));
    }

    pub fn failed(&self, message: String) {
        self.failure.set(Some(message));
        self.version.update(|v| *v += 1);
    }

    /// Applies a live event in place; `false` when the render must be read again instead.
    pub fn apply(&self, event: &WebhookEvent) -> bool {
        let mut applied = false;
        self.variations.update(|list| applied = variations::apply_event(list, event));
        if applied {
            self.version.update(|v| *v += 1);
        }
        applied
    }

    /// How many variations the render has (the service's count, else those read).
    pub fn existing(&self) -> u64 {
        self.render
            .with(|r| r.as_ref().and_then(|r| r.variations.as_ref()?.total_count))
            .unwrap_or_else(|| self.variations.with(Vec::len) as u64)
    }

    /// Whether any variation is done, so that there is something to download.
    pub fn has_finished(&self) -> bool {
        self.version.track();
        self.variations.with(|list| list.iter().any(|variation| variation.status == VariationStatus::Done))
    }

    /// The etas of its unfinished variations, worked out again at every read and event.
    pub fn pending_etas(&self) -> Vec<Option<i64>> {
        self.version.track();
        self.variations.with(|list| variations::pending_etas(list))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn render(variations: serde_json::Value, total: u64, next: Option<&str>) -> Render {
        serde_json::from_value(json!({
            "id": "rnd_1", "created_at": 1, "eta": null,
            "variations": {"total_count": total, "next_cursor": next, "items": variations},
        }))
        .unwrap()
    }

    fn item(id: &str, status: &str) -> serde_json::Value {
        json!({"id": id, "render_id": "rnd_1", "type": "staging", "created_at": 1, "status": status, "eta": 5000})
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn reads_pages_and_events_keep_one_list() {
        let owner = Owner::new();
        owner.with(|| {
            let state = RenderState::new();
            state.read(render(json!([item("a", "processing")]), 3, Some("a")));
            assert_eq!(state.more_cursor.get_untracked().as_deref(), Some("a"));
            assert_eq!(state.existing(), 3, "the service's count, not the page's");
            state.page(render(json!([item("b", "queued")]), 3, None));
            assert_eq!(state.more_cursor.get_untracked(), None);
            assert_eq!(state.pending_etas(), [Some(5000), Some(5000)]);

            let done: WebhookEvent = serde_json::from_value(json!({
                "event_type": "done", "render_id": "rnd_1", "variation_id": "a", "variation_type": "staging",
                "timestamp": 2, "result": {"url": "https://img.example/a.jpg"},
            }))
            .unwrap();
            assert!(state.apply(&done));
            assert_eq!(state.pending_etas(), [Some(5000)]);
            // a later read does not bring the cursor of the first page back
            state.read(render(json!([item("a", "done")]), 3, Some("a")));
            assert_eq!(state.more_cursor.get_untracked(), None);
            state.clear();
            assert_eq!(state.variations.with_untracked(Vec::len), 0);
        });
    }
}
