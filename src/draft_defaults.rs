//! The defaults the forms take from what the studio knows, rather than the same for every photo and listing: the
//! "Virtually staged" mark on where the listing's disclosure rules ask for a mark on the photo, and furniture removed
//! first where the photo's analysis found some (`crate::furnishing`). Each is given to a draft while the agent has
//! not changed that choice (its value is still the last default given), and follows when what is known changes.

use std::collections::HashMap;

use leptos::prelude::*;
use vstage_api::disclosure::DisclosureProfile;
use vstage_api::{RemovalMode, RoomType};

use crate::config_draft::{ConfigDraft, Kind};
use crate::host::ListingDisclosure;

/// What a draft starts with.
#[derive(Debug, Clone, PartialEq)]
pub struct Defaults {
    /// The "Virtually staged" mark.
    pub mark: bool,
    /// How staging treats the furniture there is.
    pub removal: RemovalMode,
}

impl Default for Defaults {
    /// What a draft is made with before anything is known ([`ConfigDraft::default`]).
    fn default() -> Self {
        let draft = ConfigDraft::default();
        Defaults { mark: draft.watermark, removal: draft.removal }
    }
}

/// Whether the listing's rules (its `disclosure` attribute) ask for a mark on the photo.
pub fn mark_asked(rules: Option<&str>) -> bool {
    rules.and_then(DisclosureProfile::parse).is_some_and(DisclosureProfile::asks_for_a_mark)
}

/// The listing's rules' mark, reactive: on where they ask for one.
pub fn listing_mark() -> Signal<bool> {
    let rules = use_context::<ListingDisclosure>().map_or(Signal::stored(None), |rules| rules.0);
    Signal::derive(move || rules.with(|rules| mark_asked(rules.as_deref())))
}

/// `draft` given `now`'s defaults where it still has `before`'s: a choice the agent made stays. Removal is an
/// interior staging's own (not one staged on an emptied room, nor one with a hand-drawn mask, which always removes,
/// nor the outside, where what the analysis finds is the house and its garden, not furniture to take away).
pub fn defaulted(draft: &ConfigDraft, before: &Defaults, now: &Defaults) -> ConfigDraft {
    let mut given = draft.clone();
    if given.watermark == before.mark {
        given.watermark = now.mark;
    }
    let own_removal = given.kind == Kind::Staging
        && given.base_variation_id.is_none()
        && given.mask_url.is_none()
        && given.room_type != RoomType::Outdoor;
    if own_removal && given.removal == before.removal {
        given.removal = now.removal.clone();
    }
    given
}

/// Keeps `drafts` at `defaults` as they change, and gives them to each draft added; what the agent changed stays.
pub fn keep_defaults(drafts: RwSignal<Vec<(u32, ConfigDraft)>>, defaults: Signal<Defaults>) {
    let given = StoredValue::new(HashMap::<u32, Defaults>::new());
    Effect::new(move |_| {
        let now = defaults.get();
        let changed: Vec<(u32, ConfigDraft)> = drafts.with(|list| {
            list.iter()
                .filter_map(|(id, draft)| {
                    let before = given.with_value(|given| given.get(id).cloned()).unwrap_or_default();
                    let updated = defaulted(draft, &before, &now);
                    (updated != *draft).then_some((*id, updated))
                })
                .collect()
        });
        given.update_value(|given| {
            given.clear();
            drafts.with_untracked(|list| given.extend(list.iter().map(|(id, _)| (*id, now.clone()))));
        });
        if !changed.is_empty() {
            drafts.update(|list| {
                for (id, updated) in changed {
                    if let Some((_, draft)) = list.iter_mut().find(|(other, _)| *other == id) {
                        *draft = updated;
                    }
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_mark_is_on_where_the_listings_rules_ask_for_one() {
        assert!(mark_asked(Some("smart-mls")) && mark_asked(Some(" RMLS ")));
        for rules in [Some("ab723"), Some("mls-now"), Some("realtracs"), Some("no-such-rules"), None] {
            assert!(!mark_asked(rules), "{rules:?}");
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_draft_takes_new_defaults_unless_the_agent_changed_that_choice() {
        let first = Defaults::default();
        let furnished = Defaults { mark: true, removal: RemovalMode::On };
        let draft = defaulted(&ConfigDraft::default(), &first, &furnished);
        assert_eq!((draft.watermark, draft.removal.clone()), (true, RemovalMode::On));
        // the agent keeps the furniture; the next photo's analysis leaves that alone, the mark still follows
        let kept = ConfigDraft { removal: RemovalMode::Off, ..draft };
        let empty = Defaults { mark: false, removal: RemovalMode::Off };
        let next = defaulted(&kept, &furnished, &Defaults { mark: false, ..furnished.clone() });
        assert_eq!((next.watermark, next.removal.clone()), (false, RemovalMode::Off));
        let emptied = defaulted(&ConfigDraft { removal: RemovalMode::On, ..next.clone() }, &furnished, &empty);
        assert_eq!(emptied.removal, RemovalMode::Off, "untouched: an empty room is staged as it is");
        // a staging on an emptied room, a hand-drawn mask and other kinds keep their removal
        let on_base = ConfigDraft::staging_on("var_1");
        assert_eq!(defaulted(&on_base, &first, &furnished).removal, RemovalMode::Off);
        let dusk = ConfigDraft { kind: Kind::DayToDusk, ..ConfigDraft::default() };
        assert_eq!(defaulted(&dusk, &first, &furnished).removal, RemovalMode::Off);
        let outside = ConfigDraft { room_type: RoomType::Outdoor, ..ConfigDraft::default() };
        assert_eq!(defaulted(&outside, &first, &furnished).removal, RemovalMode::Off, "a house is no furniture");
    }
}
