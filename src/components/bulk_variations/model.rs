//! What "Add variations to selected" works out as plain functions, beside the plan (`crate::variation_plan`): how
//! each render is read and what it is as a target, the requests a plan is sent in, and the sentences for what they
//! did and for the button. Tested in the browser.

use leptos_i18n::td_string;
use vstage_api::validate::MAX_BULK_ENTRIES;
use vstage_api::{ApiError, BulkAddVariations, BulkVariations, GetRender, MAX_VARIATIONS_PER_RENDER, Render};

use crate::config_draft::ConfigDraft;
use crate::locale::Locale;
use crate::locale::errors::form_error;
use crate::plural;
use crate::variation_plan::Target;

/// The draft id of this form's configuration (apart from other forms' on the same screen).
pub const DRAFT_ID: u32 = 2000;

/// Where the reading of the chosen renders is.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    Pending,
    Read(Vec<Target>),
    /// The render named `label` could not be read.
    Failed {
        label: String,
        error: ApiError,
    },
}

/// What one request of the sending did, put in words when shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Added { variations: usize, renders: usize },
    Refused { renders: usize, error: ApiError },
}

impl Outcome {
    pub fn sentence(&self, locale: Locale) -> String {
        match self {
            Outcome::Added { variations, renders } => plural!(
                locale,
                *variations,
                studio.bulk_added_singular,
                studio.bulk_added_plural,
                count = variations,
                renders = renders
            ),
            Outcome::Refused { renders, error } => {
                let error = form_error(locale, error);
                plural!(
                    locale,
                    *renders,
                    studio.bulk_nothing_singular,
                    studio.bulk_nothing_plural,
                    count = renders,
                    error = error
                )
            }
        }
    }
}

/// How each chosen render is read: with as many variations as a render can have, to find its empty room.
pub fn read_query() -> GetRender {
    GetRender {
        include_variations: Some(true),
        variations_limit: Some(MAX_VARIATIONS_PER_RENDER as u32),
        ..GetRender::default()
    }
}

/// The render `id` (named `label`) as read: its variations (the service's count, else those read) and empty room.
pub fn target_of(id: &str, label: &str, render: &Render) -> Target {
    let existing = render.variations.as_ref().and_then(|page| page.total_count);
    let existing = existing.unwrap_or(render.variation_items().len() as u64);
    Target::of(id, label, existing, render.variation_items())
}

/// The requests the plan's renders are sent in, as many to a request as the service takes.
pub fn requests(send: &[(String, ConfigDraft)]) -> Vec<BulkAddVariations> {
    send.chunks(MAX_BULK_ENTRIES)
        .map(|part| BulkAddVariations {
            wait_for_completion: None,
            renders: part
                .iter()
                .map(|(render_id, draft)| BulkVariations {
                    render_id: render_id.clone(),
                    variation_count: draft.count,
                    config: draft.to_config(),
                })
                .collect(),
        })
        .collect()
}

/// The send button's words: "Adding…" while it sends, else how many renders it adds to once they are read.
pub fn send_words(locale: Locale, sending: bool, renders: Option<usize>) -> String {
    match renders {
        _ if sending => td_string!(locale, studio.adding).to_string(),
        Some(n) => plural!(locale, n, studio.bulk_add_to_singular, studio.bulk_add_to_plural, count = n),
        None => td_string!(locale, studio.add).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn a_target_counts_the_service_s_total_and_finds_its_empty_room() {
        let removal = json!({"id": "e1", "render_id": "r1", "type": "removal", "created_at": 1, "status": "done"});
        let render: Render = serde_json::from_value(json!({
            "id": "r1", "created_at": 1, "eta": null,
            "variations": {"total_count": 7, "items": [removal]},
        }))
        .unwrap();
        let target = target_of("r1", "Kitchen.jpg", &render);
        assert_eq!((target.existing, target.empty_room.as_deref()), (7, Some("e1")));
        let unpaged: Render = serde_json::from_value(json!({"id": "r2", "created_at": 1, "eta": null})).unwrap();
        assert_eq!(target_of("r2", "Bath.jpg", &unpaged).existing, 0);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_plan_goes_in_requests_of_at_most_the_service_s_bulk_limit() {
        let send: Vec<(String, ConfigDraft)> =
            (0..MAX_BULK_ENTRIES + 2).map(|n| (format!("r{n}"), ConfigDraft::default())).collect();
        let sent = requests(&send);
        let sizes: Vec<usize> = sent.iter().map(|request| request.renders.len()).collect();
        assert_eq!(sizes, [MAX_BULK_ENTRIES, 2]);
        assert_eq!(sent[1].renders[1].render_id, format!("r{}", MAX_BULK_ENTRIES + 1));
        assert!(requests(&[]).is_empty());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn outcomes_and_the_button_are_put_in_words() {
        let added = Outcome::Added { variations: 4, renders: 2 };
        assert_eq!(added.sentence(Locale::en), "4 variation(s) added to 2 render(s).");
        let refused = Outcome::Refused { renders: 1, error: ApiError::Timeout { seconds: 30 } };
        assert!(
            refused.sentence(Locale::en).starts_with("1 render(s) got nothing: "),
            "{}",
            refused.sentence(Locale::en)
        );
        assert_eq!(send_words(Locale::en, false, Some(1)), "Add to 1 render");
        assert_eq!(send_words(Locale::en, false, Some(3)), "Add to 3 renders");
        assert_eq!(send_words(Locale::en, true, Some(3)), "Adding…");
        assert_eq!(send_words(Locale::en, false, None), "Add");
    }
}
