//! "Add variations to selected", worked out before anything is sent: each chosen render with the configuration it
//! gets (staged on its own empty room, if asked), and the renders left out with the reason, named, because they have
//! no room left under the 20-per-render limit or no empty room to stage.

use leptos_i18n::td_string;
use vstage_api::usage::{self, Cost, UsageKind};
use vstage_api::{MAX_VARIATIONS_PER_RENDER, Variation, VariationStatus, VariationType};

use crate::config_draft::{ConfigDraft, Kind};
use crate::locale::Locale;
use crate::plural;

/// A render chosen for more variations, as read just before sending.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub render_id: String,
    /// How the person knows it (the photo's name).
    pub label: String,
    /// Variations it has.
    pub existing: u64,
    /// Its newest finished removal variation: the empty room to stage on.
    pub empty_room: Option<String>,
    /// What it stands charged for, and the photos it is made from, as its variations show them (`usage`).
    pub charged: Cost,
    pub photos: u64,
}

impl Target {
    pub fn of(render_id: &str, label: &str, existing: u64, variations: &[Variation]) -> Target {
        let empty_room = variations
            .iter()
            .rev()
            .find(|v| v.kind == Some(VariationType::Removal) && v.status == VariationStatus::Done)
            .map(|v| v.id.clone());
        let (charged, photos) = (usage::charged_by(variations), usage::photos_of(variations));
        Target { render_id: render_id.into(), label: label.into(), existing, empty_room, charged, photos }
    }
}

/// What "Add variations to selected" will do: the renders it sends to, each with its configuration, and those
/// left out with the reason (a sentence in the studio's language).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    pub send: Vec<(String, ConfigDraft)>,
    pub left_out: Vec<String>,
    /// What sending it costs the allowance: another kind than a render stands charged for pays (`usage::of_added`).
    pub cost: Cost,
}

/// One configuration for every target; with `on_empty_rooms`, staged on each render's own empty room (its
/// finished removal variation), and a render without one is left out. A render without room for the draft's
/// variations under the 20-per-render limit is left out, named; the reasons are in `locale`.
pub fn plan(locale: Locale, targets: &[Target], draft: &ConfigDraft, on_empty_rooms: bool) -> Plan {
    let mut plan = Plan::default();
    for target in targets {
        let mut own = draft.clone();
        if on_empty_rooms {
            own.kind = Kind::Staging;
            let Some(base) = &target.empty_room else {
                plan.left_out.push(td_string!(locale, studio.plan_no_empty_room, label = &target.label));
                continue;
            };
            own.base_variation_id = Some(base.clone());
        }
        let needed = own.variations();
        let left = MAX_VARIATIONS_PER_RENDER.saturating_sub(target.existing);
        if needed > left {
            let label = &target.label;
            plan.left_out.push(match left {
                0 => td_string!(locale, studio.plan_full, label = label, max = MAX_VARIATIONS_PER_RENDER),
                left => plural!(
                    locale,
                    left,
                    studio.plan_room_for_singular,
                    studio.plan_room_for_plural,
                    label = label,
                    left = left,
                    needed = needed
                ),
            });
            continue;
        }
        let kinds = [UsageKind::of(&own.to_config())];
        plan.cost = plan.cost.plus(usage::of_added(target.photos, target.charged, &kinds));
        plan.send.push((target.render_id.clone(), own));
    }
    plan
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn variation(id: &str, kind: &str, status: &str) -> Variation {
        serde_json::from_value(json!({"id": id, "render_id": "r", "type": kind, "created_at": 1, "status": status}))
            .unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn renders_without_room_or_empty_room_are_left_out_by_name() {
        let removal_done = [variation("e1", "removal", "done"), variation("s1", "staging", "done")];
        let targets = [
            Target::of("r1", "Kitchen.jpg", 2, &removal_done),
            Target::of("r2", "Bath.jpg", 20, &[]),
            Target::of("r3", "Hall.jpg", 19, &[variation("e2", "removal", "processing")]),
        ];
        assert_eq!(targets[0].empty_room.as_deref(), Some("e1"));
        let draft = ConfigDraft { count: 2, ..ConfigDraft::default() };
        let same = plan(Locale::en, &targets, &draft, false);
        assert_eq!(same.send.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["r1"]);
        assert_eq!(
            same.left_out,
            ["Bath.jpg has no room left: it has 20 variations.", "Hall.jpg has room for 1 more variation(s), not 2."]
        );

        let one = ConfigDraft { count: 1, ..ConfigDraft::default() };
        let staged = plan(Locale::en, &targets, &one, true);
        assert_eq!(staged.send.len(), 1);
        assert_eq!(staged.send[0].1.base_variation_id.as_deref(), Some("e1"));
        assert!(staged.left_out[1].contains("Hall.jpg has no empty room yet"), "{:?}", staged.left_out);

        // removal first makes two variations a count
        let removing = ConfigDraft { removal: vstage_api::RemovalMode::On, kind: Kind::Staging, ..one };
        assert!(plan(Locale::en, &targets[2..], &removing, false).left_out[0].contains("not 2"));

        // more of what a render is costs nothing; another kind, a photo of it per render
        assert_eq!(same.cost, Cost::NONE, "staging added to a staging render");
        let enhancing = ConfigDraft { kind: Kind::Enhancement, ..draft.clone() };
        assert_eq!(plan(Locale::en, &targets, &enhancing, false).cost, Cost::of(UsageKind::ImageEditing, 1));
        let failed = [Target::of("r4", "Porch.jpg", 1, &[variation("f1", "staging", "error")])];
        assert_eq!(plan(Locale::en, &failed, &draft, false).cost, Cost::of(UsageKind::Staging, 1), "given back");

        // in French, one variation is singular
        assert_eq!(
            plan(Locale::fr, &targets, &draft, false).left_out[1],
            "Hall.jpg n’a de place que pour 1 variante de plus, pas 2."
        );
    }
}
