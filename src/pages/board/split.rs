//! Which waiting photos the agent's own allowance covers now, when it cannot cover them all: taken in the board's
//! order, each that fits in what the photos before it left is created, the others wait for the allowance to renew.
//! A plain function of the photos and the one `Allowance`, tested apart from the view.

use vstage_api::BulkCreateRenders;
use vstage_api::usage::{self, UsageKind};

use super::model::{PhotoToSend, bulk_entries};
use crate::allowance::Allowance;

/// The waiting photos split by the allowance: those it covers (created now) and those that wait, each as its key
/// and name, with the kind it is short of and what is left of it, and when it renews.
#[derive(Debug, Clone, PartialEq)]
pub struct AllowanceSplit {
    pub fit: Vec<(u32, String)>,
    pub wait: Vec<(u32, String)>,
    pub short: (UsageKind, u64),
    pub renews_at: i64,
}

impl AllowanceSplit {
    /// Whether the photo of `key` waits for the allowance.
    pub fn waits(&self, key: u32) -> bool {
        self.wait.iter().any(|(waiting, _)| *waiting == key)
    }

    pub fn fit_keys(&self) -> Vec<u32> {
        self.fit.iter().map(|(key, _)| *key).collect()
    }
}

/// How `allowance` splits the photos to send; `None` when it covers them all (or sets no number of its own).
pub fn split(photos: &[PhotoToSend], allowance: &Allowance) -> Option<AllowanceSplit> {
    let renders = bulk_entries(photos.iter().map(|photo| (photo.address.as_str(), &photo.draft)));
    let costs =
        usage::of_each_bulk_render(&BulkCreateRenders { webhook_url: None, wait_for_completion: None, renders });
    let short = allowance.shortfall(costs.iter().copied().fold(usage::Cost::NONE, usage::Cost::plus))?;
    let renews_at = allowance.renews_at?;
    let (mut fit, mut wait) = (Vec::new(), Vec::new());
    for (photo, fits) in photos.iter().zip(allowance.fitting(&costs)) {
        let named = (photo.key, photo.label.clone());
        if fits { fit.push(named) } else { wait.push(named) }
    }
    Some(AllowanceSplit { fit, wait, short, renews_at })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config_draft::{ConfigDraft, Kind};
    use vstage_api::{Limit, PhotoCounts, PhotoLimits, User};
    use wasm_bindgen_test::wasm_bindgen_test;

    fn photo(key: u32, label: &str, kind: Kind) -> PhotoToSend {
        let draft = ConfigDraft { kind, ..ConfigDraft::default() };
        PhotoToSend { key, label: label.into(), address: format!("https://p.example/{label}"), draft }
    }

    fn staging_left(left: u64) -> Allowance {
        let own = User {
            user: None,
            photo_limit: PhotoLimits { staging: Limit::Photos(3), image_editing: Limit::Unlimited },
            photos_used_this_period: PhotoCounts { staging: 3 - left, image_editing: 0 },
            renews_at: Some(1_796_083_200_000),
        };
        Allowance::read(Some(&own), None).unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_photos_that_fit_are_created_in_order_and_the_others_wait() {
        let board: Vec<PhotoToSend> = ["a.jpg", "b.jpg", "c.jpg", "d.jpg"]
            .iter()
            .zip(0..)
            .map(|(name, key)| photo(key, name, Kind::Staging))
            .collect();
        let split = split(&board, &staging_left(3)).expect("4 photos, 3 left");
        assert_eq!(split.fit_keys(), [0, 1, 2]);
        assert_eq!(split.wait, [(3, "d.jpg".to_string())]);
        assert_eq!((split.short, split.renews_at), ((UsageKind::Staging, 3), 1_796_083_200_000));
        assert!(split.waits(3) && !split.waits(0));
        assert_eq!(super::split(&board[..3], &staging_left(3)), None, "three fit: nothing to split");
        let none_left = super::split(&board, &staging_left(0)).unwrap();
        assert_eq!((none_left.fit.len(), none_left.wait.len()), (0, 4));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_photo_of_a_kind_with_room_left_is_created_past_one_that_waits() {
        let board =
            [photo(0, "a.jpg", Kind::Staging), photo(1, "b.jpg", Kind::Staging), photo(2, "c.jpg", Kind::Enhancement)];
        let split = split(&board, &staging_left(1)).unwrap();
        assert_eq!(split.fit_keys(), [0, 2], "the enhancement has no limit of its own");
        assert_eq!(split.wait, [(1, "b.jpg".to_string())]);
    }
}
