//! What this agent may still spend, per kind: the one reading every count of the studio derives from (the header's
//! and the account's meters, every cost note, the board's split). The agent's own allowance where `vstage serve`
//! keeps one (`GET /api/usage`, what the server reserves by, read in the account's shape), else the figures
//! `GET /v2/user` gives (a token's holder's own, or the account's to whoever may see them). Plain data and
//! functions, tested apart from the views.

use vstage_api::usage::{Cost, UsageKind};
use vstage_api::{Limit, User};

/// One kind's photos: used of a limit, and whether the limit is the agent's own (the server refuses past it).
#[derive(Debug, Clone, PartialEq)]
pub struct Spendable {
    pub used: u64,
    pub limit: Limit,
    pub own: bool,
}

impl Spendable {
    /// The photos left, when the limit sets a number.
    pub fn left(&self) -> Option<u64> {
        self.limit.remaining(self.used)
    }
}

/// Each kind's photos as the studio shows and predicts them, and when the agent's own allowance renews.
#[derive(Debug, Clone, PartialEq)]
pub struct Allowance {
    pub staging: Spendable,
    pub image_editing: Spendable,
    /// When an own allowance renews (epoch ms); `None` when no kind has one.
    pub renews_at: Option<i64>,
}

impl Allowance {
    /// The reading of `own` (`GET /api/usage`, when the server keeps allowances) over `user` (`GET /v2/user`): a
    /// kind `own` sets a number of is the agent's, any other what `user` says; `None` when neither is known.
    pub fn read(own: Option<&User>, user: Option<&User>) -> Option<Allowance> {
        let kind = |kind: UsageKind| spendable(own, user, kind);
        let (staging, image_editing) = (kind(UsageKind::Staging)?, kind(UsageKind::ImageEditing)?);
        let any_own = staging.own || image_editing.own;
        let renews_at = own.or(user).and_then(|figures| figures.renews_at).filter(|_| any_own);
        Some(Allowance { staging, image_editing, renews_at })
    }

    pub fn of(&self, kind: UsageKind) -> &Spendable {
        match kind {
            UsageKind::Staging => &self.staging,
            UsageKind::ImageEditing => &self.image_editing,
        }
    }

    /// The photos of `kind` left this period, when a number is set.
    pub fn left(&self, kind: UsageKind) -> Option<u64> {
        self.of(kind).left()
    }

    /// What the agent's own allowance has left of each kind it limits (what the server reserves by).
    fn own_left(&self, kind: UsageKind) -> Option<u64> {
        Some(self.of(kind)).filter(|spendable| spendable.own).and_then(Spendable::left)
    }

    /// The kind `cost` asks more of than the agent's own allowance has left, and what is left: the server would
    /// refuse it. `None` when it fits, or for a kind only the account limits (the service judges then).
    pub fn shortfall(&self, cost: Cost) -> Option<(UsageKind, u64)> {
        cost.parts().find_map(|(kind, photos)| {
            let left = self.own_left(kind)?;
            (photos > left).then_some((kind, left))
        })
    }

    /// Of requests costing `costs`, in order, which the agent's own allowance covers taken one after another: each
    /// that fits in what the earlier ones left is in, the others wait.
    pub fn fitting(&self, costs: &[Cost]) -> Vec<bool> {
        let mut left = UsageKind::ALL.map(|kind| self.own_left(kind));
        costs
            .iter()
            .map(|cost| {
                let fits = cost.parts().all(|(kind, photos)| left[kind as usize].is_none_or(|left| photos <= left));
                if fits {
                    for (kind, photos) in cost.parts() {
                        left[kind as usize] = left[kind as usize].map(|left| left - photos);
                    }
                }
                fits
            })
            .collect()
    }
}

/// `kind`'s photos as `figures` say, `(used, limit)`.
fn usage_of(figures: &User, kind: UsageKind) -> (u64, &Limit) {
    match kind {
        UsageKind::Staging => figures.staging_usage(),
        UsageKind::ImageEditing => figures.image_editing_usage(),
    }
}

/// `kind`'s photos: the agent's own when the server sets a number of it, else as `user` says (or what the server
/// counted, without a limit, when `user` is unknown).
fn spendable(own: Option<&User>, user: Option<&User>, kind: UsageKind) -> Option<Spendable> {
    if let Some((used, Limit::Photos(limit))) = own.map(|own| usage_of(own, kind)) {
        return Some(Spendable { used, limit: Limit::Photos(*limit), own: true });
    }
    match user {
        Some(user) => {
            let (used, limit) = usage_of(user, kind);
            // A token's holder is answered with its own figures, which say when they renew and name no account;
            // the account's own figures name it, and may say when its period renews too.
            let own = user.user.is_none() && user.renews_at.is_some() && matches!(limit, Limit::Photos(_));
            Some(Spendable { used, limit: limit.clone(), own })
        }
        None => own.map(|own| Spendable { used: usage_of(own, kind).0, limit: Limit::Unlimited, own: false }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vstage_api::{PhotoCounts, PhotoLimits, UserIdentity};
    use wasm_bindgen_test::wasm_bindgen_test;

    const RENEWS: i64 = 1_796_083_200_000;

    /// The account's answer an operator gets at `GET /v2/user`: 100 of each.
    fn account(used: u64) -> User {
        User {
            user: Some(UserIdentity { email: "owner@example.com".into(), uid: "u_1".into() }),
            photo_limit: PhotoLimits { staging: Limit::Photos(100), image_editing: Limit::Photos(100) },
            photos_used_this_period: PhotoCounts { staging: used, image_editing: 7 },
            renews_at: None,
        }
    }

    /// `GET /api/usage` in the account's shape: a staging allowance of `staging` (none when `None`), `used` of it.
    fn own(staging: Option<u64>, used: u64) -> User {
        User {
            user: None,
            photo_limit: PhotoLimits {
                staging: staging.map_or(Limit::Unlimited, Limit::Photos),
                image_editing: Limit::Unlimited,
            },
            photos_used_this_period: PhotoCounts { staging: used, image_editing: 2 },
            renews_at: Some(RENEWS),
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn an_own_allowance_is_read_over_the_accounts_figures_kind_by_kind() {
        let allowance = Allowance::read(Some(&own(Some(3), 1)), Some(&account(1))).unwrap();
        assert_eq!(allowance.staging, Spendable { used: 1, limit: Limit::Photos(3), own: true });
        assert_eq!(allowance.image_editing, Spendable { used: 7, limit: Limit::Photos(100), own: false });
        assert_eq!(allowance.renews_at, Some(RENEWS));
        assert_eq!(allowance.left(UsageKind::Staging), Some(2), "3 of 3 less 1, never 99 of the account");

        let none_of_its_own = Allowance::read(Some(&own(None, 1)), Some(&account(1))).unwrap();
        assert_eq!(none_of_its_own.staging, Spendable { used: 1, limit: Limit::Photos(100), own: false });
        assert_eq!(none_of_its_own.renews_at, None, "the account's figures say no renewal");
        assert_eq!(Allowance::read(None, None), None);
        let behind_a_proxy = Allowance::read(None, Some(&account(4))).unwrap();
        assert_eq!((behind_a_proxy.left(UsageKind::Staging), behind_a_proxy.staging.own), (Some(96), false));
        let token_holder = User { user: None, renews_at: Some(RENEWS), ..account(4) };
        assert!(Allowance::read(None, Some(&token_holder)).unwrap().staging.own, "a token's own figures");
        let renewing_account = User { renews_at: Some(RENEWS), ..account(4) };
        let read = Allowance::read(Some(&own(None, 0)), Some(&renewing_account)).unwrap();
        assert!(!read.staging.own, "an account that says when its month renews is still the account's");
        assert_eq!(read.renews_at, None, "and no allowance of the agent's renews");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn only_an_own_allowance_refuses_and_the_board_takes_what_fits_in_order() {
        let allowance = Allowance::read(Some(&own(Some(3), 0)), Some(&account(0))).unwrap();
        let one = Cost::of(UsageKind::Staging, 1);
        assert_eq!(allowance.shortfall(Cost::of(UsageKind::Staging, 3)), None);
        assert_eq!(allowance.shortfall(Cost::of(UsageKind::Staging, 4)), Some((UsageKind::Staging, 3)));
        assert_eq!(
            allowance.shortfall(Cost::of(UsageKind::ImageEditing, 500)),
            None,
            "the account's: the service judges"
        );
        let editing = Cost::of(UsageKind::ImageEditing, 1);
        assert_eq!(allowance.fitting(&[one, one, editing, one, one]), [true, true, true, true, false]);
        let spent = Allowance::read(Some(&own(Some(3), 3)), None).unwrap();
        assert_eq!(spent.fitting(&[one, editing]), [false, true], "image editing has no limit of its own");
        assert_eq!(spent.image_editing.limit, Limit::Unlimited);
    }
}
