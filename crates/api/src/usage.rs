//! What a call costs the account's photo allowance, in one place (the sandbox charges by it, the server's
//! allowances reserve by it, the studio shows it before the click). The service counts photos of two kinds
//! (`photoLimit.staging`, `photoLimit.imageEditing` in `GET /v2/user`).
//!
//! The evidence, none of it the service's own words (its public docs say nothing of billing): a public client in
//! production ("Listing Lab", vsai.js) notes "one photo per render REQUEST regardless of variation_count", and that
//! variations added to a render cost nothing ("Regenerations are unlimited on the plan": `photosCharged: 0`), as the
//! service's landing page says ("Unlimited regenerations"); v1 clients say the same of `create-variation` ("same
//! render, no new credit consumed"), and a WordPress plugin (milosdjakovic/virtual-staging-wp-plugin) counts only
//! `render/create`. So: a render costs one photo per photo it is made from (every view of a multi-view render),
//! whatever its variations; added variations cost nothing. Which kind: staging and furniture removal count
//! `staging`, day-to-dusk and enhancement `imageEditing` (our reading; a render whose configs ask for both kinds
//! costs one of each). "Unlimited regenerations" are regenerations of what was paid for: variations of a kind the
//! render was not charged for (an enhancement added to a staging render) cost what a render of that kind would,
//! one photo per photo of the render, once (`of_added`). docs/api-notes.md says the same.

use serde::{Deserialize, Serialize};

use crate::Config;
use crate::requests::{BulkCreateRenders, BulkRender, CreateRender};
use crate::vocabulary::{VariationStatus, VariationType};
use crate::{Variation, VariationResult};

/// The service's two kinds of usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UsageKind {
    Staging,
    ImageEditing,
}

impl UsageKind {
    pub const ALL: [UsageKind; 2] = [UsageKind::Staging, UsageKind::ImageEditing];

    /// The kind a config's variations count as; a config of a type the contract does not have counts as staging.
    pub fn of(config: &Config) -> UsageKind {
        UsageKind::of_type(config.variation_type().as_ref())
    }

    /// The kind variations of `kind` count as (a variation without a type counts as staging).
    pub fn of_type(kind: Option<&VariationType>) -> UsageKind {
        match kind {
            Some(VariationType::DayToDusk | VariationType::Enhancement) => UsageKind::ImageEditing,
            _ => UsageKind::Staging,
        }
    }

    /// The kinds `configs` count as, each once, in order.
    pub fn of_all<'a>(configs: impl IntoIterator<Item = &'a Config>) -> Vec<UsageKind> {
        let mut kinds: Vec<UsageKind> = configs.into_iter().map(UsageKind::of).collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    /// As written in the ledger and on the command line: `staging`, `image-editing`.
    pub fn as_str(self) -> &'static str {
        match self {
            UsageKind::Staging => "staging",
            UsageKind::ImageEditing => "image-editing",
        }
    }

    pub fn parse(name: &str) -> Option<UsageKind> {
        UsageKind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// How much of an allowance of one kind is used: below 80 % of it, from 80 % on (the studio's meter warns and
/// the host hears `vstage-allowance-low`), or all of it (`-spent`). The widget and the server read it alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum UsageLevel {
    Normal,
    /// At or above 80 % of the limit.
    Near,
    /// Nothing left this period.
    Reached,
}

impl UsageLevel {
    /// The level of `used` photos of `limit`, worked out in whole numbers (80 % is `used × 5 ≥ limit × 4`).
    pub fn of(used: u64, limit: u64) -> Self {
        if used >= limit {
            UsageLevel::Reached
        } else if u128::from(used) * 5 >= u128::from(limit) * 4 {
            UsageLevel::Near
        } else {
            UsageLevel::Normal
        }
    }

    /// The level a charge from `before` to `after` photos brings `limit` to, when it is a warning one it was not
    /// at before: once each time the allowance gets there (a refund can bring it back below).
    pub fn reached(before: u64, after: u64, limit: u64) -> Option<Self> {
        let (was, now) = (UsageLevel::of(before, limit), UsageLevel::of(after, limit));
        (now != was && now != UsageLevel::Normal).then_some(now)
    }
}

/// Photos of each kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    pub staging: u64,
    pub image_editing: u64,
}

impl Cost {
    pub const NONE: Cost = Cost { staging: 0, image_editing: 0 };

    pub fn of(kind: UsageKind, photos: u64) -> Cost {
        let mut cost = Cost::NONE;
        *cost.get_mut(kind) = photos;
        cost
    }

    pub fn get(self, kind: UsageKind) -> u64 {
        match kind {
            UsageKind::Staging => self.staging,
            UsageKind::ImageEditing => self.image_editing,
        }
    }

    fn get_mut(&mut self, kind: UsageKind) -> &mut u64 {
        match kind {
            UsageKind::Staging => &mut self.staging,
            UsageKind::ImageEditing => &mut self.image_editing,
        }
    }

    pub fn is_none(self) -> bool {
        self == Cost::NONE
    }

    /// Each kind's photos, those with any.
    pub fn parts(self) -> impl Iterator<Item = (UsageKind, u64)> {
        UsageKind::ALL.into_iter().map(move |kind| (kind, self.get(kind))).filter(|(_, photos)| *photos > 0)
    }

    pub fn plus(self, other: Cost) -> Cost {
        Cost {
            staging: self.staging.saturating_add(other.staging),
            image_editing: self.image_editing.saturating_add(other.image_editing),
        }
    }
}

/// A render of `photos` photos (several for multi-view) with `configs`: one photo each, of each kind asked for.
fn of_photos<'a>(photos: usize, configs: impl IntoIterator<Item = &'a Config>) -> Cost {
    UsageKind::of_all(configs)
        .into_iter()
        .fold(Cost::NONE, |cost, kind| cost.plus(Cost::of(kind, photos.max(1) as u64)))
}

/// `POST /v2/renders`.
pub fn of_render(request: &CreateRender) -> Cost {
    // `image_urls` holds every photo of a multi-view render, the first being `image_url`.
    let photos = request.image_urls.len().max(1);
    of_photos(photos, request.configs.entries().into_iter().map(|(config, _)| config))
}

/// `POST /v2/renders/bulk`: each entry as a render.
pub fn of_bulk_renders(request: &BulkCreateRenders) -> Cost {
    of_each_bulk_render(request).into_iter().fold(Cost::NONE, Cost::plus)
}

/// `POST /v2/renders/bulk`, render by render, in the request's order (which is the answer's).
pub fn of_each_bulk_render(request: &BulkCreateRenders) -> Vec<Cost> {
    request.renders.iter().map(|BulkRender { config, .. }| of_photos(1, [config])).collect()
}

/// Variations of `kinds` added to a render made from `photos` photos (several for multi-view), which stands
/// charged for `charged` (what its creation and earlier additions paid, less what was refunded): nothing for a
/// kind it stands charged for (regenerations), one photo per photo of the render for each other kind. The same
/// for v2's single and bulk additions and v1's `create-variation` (whose variations are staging).
pub fn of_added(photos: u64, charged: Cost, kinds: &[UsageKind]) -> Cost {
    let mut cost = Cost::NONE;
    for &kind in kinds {
        if charged.get(kind) == 0 {
            *cost.get_mut(kind) = photos.max(1);
        }
    }
    cost
}

/// v1's `render/create`: one staging photo (staging, removal or both).
pub const V1_RENDER: Cost = Cost { staging: 1, image_editing: 0 };

/// What a render stands charged for as its variations show it, for the studio to say what an addition will cost:
/// of each kind of variation it holds, one photo per photo it is made from (`photos_of`), nothing when every one
/// of them failed (the server gave its photos back, so what is added pays again).
pub fn charged_by(variations: &[Variation]) -> Cost {
    if !variations.is_empty() && variations.iter().all(|variation| variation.status == VariationStatus::Error) {
        return Cost::NONE;
    }
    let photos = photos_of(variations);
    let kinds: Vec<UsageKind> =
        variations.iter().map(|variation| UsageKind::of_type(variation.kind.as_ref())).collect();
    kinds
        .into_iter()
        .fold(Cost::NONE, |cost, kind| if cost.get(kind) > 0 { cost } else { cost.plus(Cost::of(kind, photos)) })
}

/// The photos a render is made from as its variations show it: a multi-view result holds an image per view.
pub fn photos_of(variations: &[Variation]) -> u64 {
    let views = |variation: &Variation| match &variation.result {
        Some(VariationResult::Many(images)) => images.len() as u64,
        _ => 1,
    };
    variations.iter().map(views).max().unwrap_or(1).max(1)
}

/// What adding variations of `config` to a render holding `variations` costs, as the studio predicts it.
pub fn of_adding_to(variations: &[Variation], config: &Config) -> Cost {
    of_added(photos_of(variations), charged_by(variations), &[UsageKind::of(config)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_levels_follow_the_thresholds() {
        assert_eq!(UsageLevel::of(0, 100), UsageLevel::Normal);
        assert_eq!(UsageLevel::of(79, 100), UsageLevel::Normal);
        assert_eq!(UsageLevel::of(80, 100), UsageLevel::Near);
        assert_eq!(UsageLevel::of(4, 5), UsageLevel::Near, "80 % exactly, with no rounding");
        assert_eq!(UsageLevel::of(100, 100), UsageLevel::Reached);
        assert_eq!(UsageLevel::of(0, 0), UsageLevel::Reached, "a plan without photos has nothing left");
        assert_eq!(UsageLevel::of(u64::MAX - 1, u64::MAX), UsageLevel::Near, "no overflow");
    }

    #[test]
    fn a_charge_reaches_a_level_once_each_time_it_gets_there() {
        assert_eq!(UsageLevel::reached(7, 8, 10), Some(UsageLevel::Near));
        assert_eq!(UsageLevel::reached(8, 9, 10), None, "already near");
        assert_eq!(UsageLevel::reached(9, 10, 10), Some(UsageLevel::Reached));
        assert_eq!(UsageLevel::reached(2, 10, 10), Some(UsageLevel::Reached), "the highest level it got to");
        assert_eq!(UsageLevel::reached(1, 2, 10), None);
    }

    fn render(json: serde_json::Value) -> CreateRender {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_render_costs_a_photo_per_view_and_kind_whatever_its_variations() {
        let staging =
            serde_json::json!({"type": "staging", "add_furniture": {"room_type": "bedroom", "style": "modern"}});
        let one = render(serde_json::json!({"image_url": "https://a/1.jpg", "variation_count": 20, "config": staging}));
        assert_eq!(of_render(&one), Cost::of(UsageKind::Staging, 1));
        let views = render(serde_json::json!({"image_url": "https://a/1.jpg",
            "image_urls": ["https://a/1.jpg", "https://a/2.jpg", "https://a/3.jpg"],
            "variation_count": 2, "config": staging}));
        assert_eq!(of_render(&views), Cost::of(UsageKind::Staging, 3));
        let both = render(serde_json::json!({"image_url": "https://a/1.jpg", "configs": [
            {"type": "enhancement", "variation_count": 1}, {"type": "daytodusk", "sky_style": "sunset", "variation_count": 1},
            {"type": "staging", "remove_furniture": {"mode": "on"}, "variation_count": 3}]}));
        assert_eq!(of_render(&both), Cost { staging: 1, image_editing: 1 });
    }

    #[test]
    fn added_variations_cost_only_for_a_kind_the_render_does_not_stand_charged_for() {
        let staged = Cost::of(UsageKind::Staging, 1);
        assert_eq!(of_added(1, staged, &[UsageKind::Staging]), Cost::NONE, "a regeneration is free");
        assert_eq!(of_added(1, staged, &[UsageKind::ImageEditing]), Cost::of(UsageKind::ImageEditing, 1));
        assert_eq!(of_added(3, staged, &[UsageKind::ImageEditing]), Cost::of(UsageKind::ImageEditing, 3), "per view");
        assert_eq!(
            of_added(1, Cost::NONE, &[UsageKind::Staging, UsageKind::ImageEditing]),
            Cost { staging: 1, image_editing: 1 },
            "a refunded render pays again for what it makes"
        );
        assert_eq!(of_added(0, Cost::NONE, &[UsageKind::Staging]), Cost::of(UsageKind::Staging, 1), "at least one");
        assert_eq!(of_added(1, Cost { staging: 1, image_editing: 1 }, &UsageKind::ALL), Cost::NONE);
    }

    #[test]
    fn the_studio_reads_what_a_render_stands_charged_for_from_its_variations() {
        let variation = |kind: &str, status: &str| -> Variation {
            serde_json::from_value(serde_json::json!({"id": "var_1", "render_id": "rnd_1", "created_at": 1,
                "type": kind, "status": status}))
            .unwrap()
        };
        let enhancement: Config = serde_json::from_value(serde_json::json!({"type": "enhancement"})).unwrap();
        let staged = [variation("staging", "done"), variation("staging", "error")];
        assert_eq!(charged_by(&staged), Cost::of(UsageKind::Staging, 1));
        assert_eq!(of_adding_to(&staged, &enhancement), Cost::of(UsageKind::ImageEditing, 1));
        let enhanced = [variation("staging", "done"), variation("enhancement", "queued")];
        assert_eq!(of_adding_to(&enhanced, &enhancement), Cost::NONE, "a regeneration");
        let failed = [variation("staging", "error"), variation("removal", "error")];
        assert_eq!(charged_by(&failed), Cost::NONE, "given back: what is added pays");
        let views: Variation = serde_json::from_value(serde_json::json!({"id": "var_2", "render_id": "rnd_1",
            "created_at": 1, "type": "staging", "status": "done",
            "result": [{"url": "https://a/1.jpg"}, {"url": "https://a/2.jpg"}, {"url": "https://a/3.jpg"}]}))
        .unwrap();
        assert_eq!(of_adding_to(&[views], &enhancement), Cost::of(UsageKind::ImageEditing, 3), "every view");
    }

    #[test]
    fn kinds_are_named_as_the_command_line_writes_them() {
        for kind in UsageKind::ALL {
            assert_eq!(UsageKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(UsageKind::parse("imageEditing"), None);
    }
}
