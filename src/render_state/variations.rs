//! A render's variations as the studio keeps them: events applied in place, pages merged by id, and the etas still
//! to come. Plain functions, tested in the browser.

use vstage_api::{Variation, VariationStatus, WebhookEvent};

/// Updates the variation an event is about from the event alone (no request); `false` when the event is not
/// one this can apply (an unknown variation or event type), so the render must be read again.
pub fn apply_event(variations: &mut [Variation], event: &WebhookEvent) -> bool {
    let id = match event {
        WebhookEvent::Done(done) => &done.variation_id,
        WebhookEvent::Error(failed) => &failed.variation_id,
        WebhookEvent::Update(update) => &update.variation_id,
        _ => return false,
    };
    let Some(variation) = variations.iter_mut().find(|v| v.id == *id) else { return false };
    match event {
        WebhookEvent::Done(done) => {
            variation.status = VariationStatus::Done;
            variation.result = Some(done.result.clone());
            variation.eta = None;
            if done.base_variation_id.is_some() {
                variation.base_variation_id.clone_from(&done.base_variation_id);
            }
        }
        WebhookEvent::Error(failed) => {
            variation.status = VariationStatus::Error;
            variation.eta = None;
            variation.error_message.clone_from(&failed.error_message);
        }
        WebhookEvent::Update(update) => {
            if let Some(status) = &update.status {
                variation.status = status.clone();
            }
            if update.eta.is_some() {
                variation.eta.clone_from(&update.eta);
            }
        }
        _ => {}
    }
    true
}

/// Keeps the newest copy of each variation, in the order first seen, adding new ones at the end.
pub fn merge(existing: &mut Vec<Variation>, fresh: Vec<Variation>) {
    for variation in fresh {
        match existing.iter_mut().find(|v| v.id == variation.id) {
            Some(old) => *old = variation,
            None => existing.push(variation),
        }
    }
}

/// The etas of the unfinished variations (epoch ms; `None` where the service gave none).
pub fn pending_etas(variations: &[Variation]) -> Vec<Option<i64>> {
    variations.iter().filter(|v| !v.status.is_final()).map(|v| v.eta.as_ref().map(|e| e.millis())).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn variation(id: &str, status: &str) -> Variation {
        serde_json::from_value(json!({
            "id": id, "render_id": "rnd_1", "type": "staging", "created_at": 1, "status": status,
        }))
        .unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_done_event_finishes_its_variation_and_an_unknown_one_asks_for_a_read() {
        let mut list = vec![variation("a", "processing")];
        let done: WebhookEvent = serde_json::from_value(json!({
            "event_type": "done", "render_id": "rnd_1", "variation_id": "a", "variation_type": "staging",
            "timestamp": 2, "result": {"url": "https://img.example/a.jpg"},
        }))
        .unwrap();
        assert!(apply_event(&mut list, &done));
        assert_eq!(list[0].status, VariationStatus::Done);
        let about_another: WebhookEvent = serde_json::from_value(json!({
            "event_type": "done", "render_id": "rnd_1", "variation_id": "zz", "variation_type": "staging",
            "timestamp": 2, "result": {"url": "https://img.example/z.jpg"},
        }))
        .unwrap();
        assert!(!apply_event(&mut list, &about_another), "a variation this page has not seen is read, not guessed");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn pages_merge_by_id_keeping_the_newest_copy_where_it_was_first_seen() {
        let mut list = vec![variation("a", "processing"), variation("b", "queued")];
        merge(&mut list, vec![variation("a", "done"), variation("c", "queued")]);
        let ids: Vec<&str> = list.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"], "the newest copy in the place first seen, new ones last");
        assert_eq!(list[0].status, VariationStatus::Done);
        assert_eq!(pending_etas(&list).len(), 2);
    }
}
