//! What the render page shows, as plain functions of the render's variations: groups by type, lineage, the
//! before/after comparison, what to announce, how a render failed, and where its back link leads. Tested in the
//! browser.

use leptos_i18n::td_string;
use vstage_api::{AddVariations, Config, MAX_VARIATIONS_PER_RENDER, Variation, VariationStatus, VariationType};

use crate::describe;
use crate::locale::Locale;
use crate::route::Back;

/// The back link's words, naming the screen it leads to: "← All renders", "← Back to the listing board".
pub fn back_words(locale: Locale, back: Back) -> &'static str {
    match back {
        Back::Renders => td_string!(locale, studio.detail_back),
        Back::Board => td_string!(locale, studio.detail_back_to_board),
    }
}

/// The order groups are shown in; unknown kinds come last.
fn group_rank(kind: Option<&VariationType>) -> u8 {
    match kind {
        Some(VariationType::Staging) => 0,
        Some(VariationType::Removal) => 1,
        Some(VariationType::DayToDusk) => 2,
        Some(VariationType::Enhancement) => 3,
        _ => 4,
    }
}

/// Variations grouped by type (named in `locale`), each group in creation order.
pub fn grouped(locale: Locale, variations: &[Variation]) -> Vec<(String, Vec<Variation>)> {
    let mut groups: Vec<(u8, String, Vec<Variation>)> = Vec::new();
    for variation in variations {
        let name = describe::variation_type(locale, variation.kind.as_ref());
        match groups.iter_mut().find(|(_, group, _)| *group == name) {
            Some((_, _, members)) => members.push(variation.clone()),
            None => groups.push((group_rank(variation.kind.as_ref()), name, vec![variation.clone()])),
        }
    }
    groups.sort_by_key(|(rank, _, _)| *rank);
    groups.into_iter().map(|(_, name, members)| (name, members)).collect()
}

/// A variation's name on its card and in the comparison: what it is (the room and style it was staged as, "Empty
/// room", ...) and its number among the render's results of that name, in creation order ("Living room · Modern 2").
pub fn title(locale: Locale, variation: &Variation, all: &[Variation]) -> String {
    let name = describe::result_name(locale, variation);
    let same: Vec<&Variation> = all.iter().filter(|v| describe::result_name(locale, v) == name).collect();
    let number = same.iter().position(|v| v.id == variation.id).unwrap_or(0) + 1;
    td_string!(locale, studio.detail_variation_title, kind = name, number = number)
}

/// What a variation's images are saved as, without the extension: what was done and its number
/// (`living-room-modern-2`), as the render's ZIP names them.
pub fn file_name(variation: &Variation, all: &[Variation]) -> String {
    let label = variation.config.as_ref().map_or_else(|| "result".to_string(), Config::file_label);
    format!("{label}-{}", number(variation, all))
}

/// A variation's number among the render's variations of its kind, in creation order, from 1.
fn number(variation: &Variation, all: &[Variation]) -> usize {
    all.iter().filter(|v| v.kind == variation.kind).position(|v| v.id == variation.id).unwrap_or(0) + 1
}

/// Which removal variation a variation was made on: its number among the removals, else its id.
fn base_of(variation: &Variation, all: &[Variation]) -> Option<String> {
    let base = variation.base_variation_id.as_deref()?;
    let removals: Vec<&Variation> = all.iter().filter(|v| v.kind == Some(VariationType::Removal)).collect();
    Some(match removals.iter().position(|v| v.id == base) {
        Some(index) => (index + 1).to_string(),
        None => base.to_string(),
    })
}

/// "Staged on empty room N" for a variation made on a removal base.
pub fn lineage(locale: Locale, variation: &Variation, all: &[Variation]) -> Option<String> {
    let base = base_of(variation, all)?;
    Some(td_string!(locale, studio.detail_lineage, base = base))
}

/// How a render failed, when every variation it has ended in `error`.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The service's reason, its first given.
    pub why: Option<String>,
    /// The same again on this render, while it has room (added variations cost nothing); `None` when the
    /// configuration is not known or the render is full.
    pub again: Option<AddVariations>,
}

/// `Some` when the render failed: it has variations and every one ended in `error`.
pub fn failure(variations: &[Variation]) -> Option<Failure> {
    if variations.is_empty() || variations.iter().any(|v| v.status != VariationStatus::Error) {
        return None;
    }
    let why = variations.iter().find_map(|v| v.error_message.clone().filter(|message| !message.trim().is_empty()));
    let room = MAX_VARIATIONS_PER_RENDER.saturating_sub(variations.len() as u64);
    let count = (variations.len() as u64).min(room);
    let again = variations.iter().find_map(|v| v.config.clone()).filter(|_| count > 0).map(|config| AddVariations {
        config,
        variation_count: count,
        wait_for_completion: None,
    });
    Some(Failure { why, again })
}

/// Each variation's id and whether it is final, to tell later which ones have just finished.
pub fn finality(variations: &[Variation]) -> Vec<(String, bool)> {
    variations.iter().map(|v| (v.id.clone(), v.status.is_final())).collect()
}

/// The variations that were unfinished in `before` and are final now.
pub fn newly_finished(before: &[(String, bool)], now: &[Variation]) -> Vec<Variation> {
    now.iter().filter(|v| v.status.is_final() && before.iter().any(|(id, was)| *id == v.id && !was)).cloned().collect()
}

/// What a screen reader hears about variations that have just finished, e.g. "Virtual staging is done.".
pub fn announcement(locale: Locale, finished: &[Variation]) -> String {
    let words: Vec<String> = finished
        .iter()
        .map(|v| {
            let kind = describe::variation_type(locale, v.kind.as_ref());
            match &v.status {
                VariationStatus::Done => td_string!(locale, studio.announce_done, kind = kind),
                VariationStatus::Error => td_string!(locale, studio.announce_failed, kind = kind),
                other => {
                    let status = describe::status(locale, other).to_lowercase();
                    td_string!(locale, studio.announce_other, kind = kind, status = status)
                }
            }
        })
        .collect();
    words.join(" ")
}

/// What the before/after slider shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub before: String,
    pub after: String,
    pub before_label: String,
    pub after_label: String,
    /// Whether the result was staged on a removal variation, which can be the "before" instead of the photo.
    pub has_base: bool,
}

/// The comparison of the chosen variation (else the newest finished result, staging before removal) against the
/// source photo, or against the empty room it was staged on when `with_base` (or when there is no source). The
/// labels are in `locale`.
pub fn comparison(
    locale: Locale,
    variations: &[Variation],
    source: Option<&str>,
    chosen: Option<&str>,
    with_base: bool,
) -> Option<Comparison> {
    let done = |v: &&Variation| v.status == VariationStatus::Done;
    let newest = || {
        variations
            .iter()
            .filter(done)
            .rfind(|v| v.kind != Some(VariationType::Removal))
            .or_else(|| variations.iter().rfind(done))
    };
    let chosen = chosen.and_then(|id| variations.iter().find(|v| v.id == id)).or_else(newest)?;
    let after = chosen.result.as_ref()?.primary()?.url.clone();
    let base =
        chosen.base_variation_id.as_ref().and_then(|base| variations.iter().find(|v| v.id == *base)).and_then(|base| {
            Some((base.result.as_ref()?.primary()?.url.clone(), base_of(chosen, variations).unwrap_or_default()))
        });
    let (before, before_label) = match (&base, with_base, source) {
        (Some((url, base)), true, _) | (Some((url, base)), false, None) => {
            (url.clone(), td_string!(locale, studio.compare_empty_room, base = base))
        }
        (_, _, Some(source)) => (source.to_string(), td_string!(locale, studio.compare_original_photo).to_string()),
        (None, _, None) => return None,
    };
    Some(Comparison {
        before,
        after,
        before_label,
        after_label: title(locale, chosen, variations),
        has_base: base.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn variation(id: &str, kind: &str, status: &str, base: Option<&str>) -> Variation {
        let result = (status == "done").then(|| json!({"url": format!("https://img.example/{id}.jpg")}));
        serde_json::from_value(json!({
            "id": id, "render_id": "rnd_1", "type": kind, "created_at": 1, "status": status,
            "result": result, "base_variation_id": base,
        }))
        .unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_back_link_says_where_it_leads() {
        assert_eq!(back_words(Locale::en, Back::Renders), "← All renders");
        assert_eq!(back_words(Locale::en, Back::Board), "← Back to the listing board");
        assert_eq!(back_words(Locale::de, Back::Board), "← Zurück zur Inseratsübersicht");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn groups_come_in_a_fixed_order_with_unknown_kinds_last() {
        let list = [
            variation("a", "sky_swap", "done", None),
            variation("b", "removal", "done", None),
            variation("c", "staging", "queued", Some("b")),
            variation("d", "staging", "done", None),
        ];
        let names: Vec<(String, usize)> =
            grouped(Locale::en, &list).into_iter().map(|(name, m)| (name, m.len())).collect();
        assert_eq!(names, [("Virtual staging".into(), 2), ("Empty room".into(), 1), ("sky_swap".into(), 1)]);
        assert_eq!(lineage(Locale::en, &list[2], &list).as_deref(), Some("Staged on empty room 1"));
        assert_eq!(lineage(Locale::en, &list[3], &list), None);
        assert_eq!(grouped(Locale::de, &list)[0].0, "Virtuelles Einrichten");
        assert_eq!(file_name(&list[3], &list), "result-2", "no configuration read: a plain word, and its number");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_render_failed_when_every_variation_failed_and_trying_again_repeats_its_configuration() {
        let failed = |id: &str| {
            let mut variation = variation(id, "staging", "error", None);
            variation.error_message = Some("The photo could not be downloaded.".into());
            variation.config = serde_json::from_value(
                json!({"type": "staging", "add_furniture": {"room_type": "bedroom", "style": "modern"}}),
            )
            .ok();
            variation
        };
        let list = vec![failed("a"), failed("b")];
        let failure = failure(&list).expect("all failed");
        assert_eq!(failure.why.as_deref(), Some("The photo could not be downloaded."));
        let again = failure.again.expect("its configuration is known");
        assert_eq!((again.variation_count, again.config), (2, list[0].config.clone().unwrap()));
        assert_eq!(super::failure(&[]), None, "nothing yet is no failure");
        let mixed = [failed("a"), variation("b", "staging", "done", None)];
        assert_eq!(super::failure(&mixed), None, "one result is a render that worked");
        let full: Vec<Variation> = (0..20).map(|n| failed(&n.to_string())).collect();
        assert_eq!(super::failure(&full).and_then(|failure| failure.again), None, "no room to try again here");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn newly_finished_variations_are_announced_once() {
        let mut list = vec![variation("a", "staging", "processing", None), variation("b", "removal", "queued", None)];
        let before = finality(&list);
        list[0] = variation("a", "staging", "done", None);
        let finished = newly_finished(&before, &list);
        assert_eq!(announcement(Locale::en, &finished), "Virtual staging is done.");
        assert_eq!(announcement(Locale::de, &finished), "Virtuelles Einrichten: fertig.");
        assert!(newly_finished(&finality(&list), &list).is_empty(), "nothing is announced twice");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn results_are_named_by_the_room_and_style_they_were_staged_as() {
        let staged = |id: &str, style: &str| {
            let mut staged = variation(id, "staging", "done", None);
            staged.config = Some(
                serde_json::from_value(
                    json!({"type": "staging", "add_furniture": {"room_type": "bed", "style": style}}),
                )
                .unwrap(),
            );
            staged
        };
        let list = [
            staged("a", "modern"),
            staged("b", "coastal"),
            staged("c", "modern"),
            variation("d", "removal", "done", None),
        ];
        let titles: Vec<String> = list.iter().map(|v| title(Locale::en, v, &list)).collect();
        assert_eq!(titles, ["Bedroom · Modern 1", "Bedroom · Coastal 1", "Bedroom · Modern 2", "Empty room 1"]);
        assert_eq!(title(Locale::fr, &list[3], &list), "Pièce vide 1");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_comparison_prefers_a_staged_result_and_can_show_its_empty_room() {
        let list = [
            variation("removal", "removal", "done", None),
            variation("staged", "staging", "done", Some("removal")),
            variation("later", "staging", "processing", None),
        ];
        let photo = "https://img.example/photo.jpg";
        let against_photo = comparison(Locale::en, &list, Some(photo), None, false).unwrap();
        assert_eq!(against_photo.after, "https://img.example/staged.jpg");
        assert_eq!((against_photo.before.as_str(), against_photo.before_label.as_str()), (photo, "the original photo"));
        assert!(against_photo.has_base);
        let against_base = comparison(Locale::en, &list, Some(photo), None, true).unwrap();
        assert_eq!(against_base.before, "https://img.example/removal.jpg");
        assert_eq!(against_base.before_label, "empty room 1, which it was staged on");
        let in_french = comparison(Locale::fr, &list, Some(photo), None, true).unwrap();
        assert_eq!(in_french.before_label, "la pièce vide 1, sur laquelle elle a été meublée");
        assert_eq!(against_photo.after_label, "Virtual staging 1", "the slider names the card it shows");
        let chosen = comparison(Locale::en, &list, Some(photo), Some("removal"), false).unwrap();
        assert_eq!((chosen.after_label.as_str(), chosen.has_base), ("Empty room 1", false));
        assert_eq!(
            comparison(Locale::en, &list, Some(photo), Some("later"), false),
            None,
            "an unfinished choice has nothing to show"
        );
        assert_eq!(
            comparison(Locale::en, &list[..1], None, None, false),
            None,
            "no photo and no base: nothing to compare"
        );
    }
}
