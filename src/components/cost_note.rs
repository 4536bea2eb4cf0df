//! What a request will cost the photo allowance, said by the form before it is sent (`vstage_api::usage`), with what
//! will be left; when the agent's allowance this period cannot cover it, why the form will not send it; and whether
//! it is worth a question first. `shortfall` and `worth_asking` are the rules, plain functions tested apart from the
//! view.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::User;
use vstage_api::usage::{Cost, UsageKind};

use crate::account::use_account;
use crate::locale::{Locale, format, use_locale};

/// The kind `cost` asks more of than `user`'s own allowance has left this period, and what is left; `None` when it
/// fits, or when the figures are the account's (they say no renewal: the service judges then).
pub fn shortfall(user: &User, cost: Cost) -> Option<(UsageKind, u64)> {
    user.renews_at.as_ref()?;
    cost.parts().find_map(|(kind, photos)| {
        let left = left_of(user, kind)?;
        (photos > left).then_some((kind, left))
    })
}

/// The photos of `kind` left this period, when the figures set a number.
fn left_of(user: &User, kind: UsageKind) -> Option<u64> {
    let (used, limit) = match kind {
        UsageKind::Staging => user.staging_usage(),
        UsageKind::ImageEditing => user.image_editing_usage(),
    };
    limit.remaining(used)
}

/// A request of this many photos of a kind or more is asked about before it is sent.
pub const ASK_FROM: u64 = 10;

/// Whether `cost` deserves a question before it is sent: `ASK_FROM` photos of a kind or more, or more than half of
/// what is left of it.
pub fn worth_asking(user: Option<&User>, cost: Cost) -> bool {
    cost.parts().any(|(kind, photos)| {
        photos >= ASK_FROM || user.and_then(|user| left_of(user, kind)).is_some_and(|left| photos * 2 > left)
    })
}

/// "Uses 4 photos: Staging. 53 left (Staging) after this.": what `cost` uses and, where the figures set a number,
/// what is left after it.
pub fn cost_words(locale: Locale, user: Option<&User>, cost: Cost) -> String {
    let mut words = Vec::new();
    for (kind, photos) in cost.parts() {
        words.push(uses(locale, kind, photos));
        if let Some(left) = user.and_then(|user| left_of(user, kind)).filter(|left| *left >= photos) {
            let (left, kind) = (format::number(locale, (left - photos) as f64), kind_word(locale, kind));
            words.push(td_string!(locale, forms.cost_left, left = left, kind = kind).to_string());
        }
    }
    words.join(" ")
}

/// Whether the agent's allowance can cover `cost`, as far as the studio knows now.
pub fn covered(cost: Cost) -> bool {
    let user = use_account().user.get_untracked().and_then(Result::ok);
    user.is_none_or(|user| shortfall(&user, cost).is_none())
}

#[component]
pub fn CostNote(
    /// What the form's request would cost; `None` while it cannot be worked out.
    #[prop(into)]
    cost: Signal<Option<Cost>>,
) -> impl IntoView {
    let account = use_account();
    let locale = use_locale();
    move || {
        let cost = cost.get().filter(|cost| !cost.is_none())?;
        let locale = locale.get();
        let user = account.user.get().and_then(Result::ok);
        let short = user.as_ref().and_then(|user| Some((shortfall(user, cost)?, user.renews_at?)));
        Some(match short {
            Some(((kind, left), renews_at)) => {
                let (date, left) = (format::day(locale, renews_at), format::number(locale, left as f64));
                let why =
                    td_string!(locale, forms.cost_short, left = left, kind = kind_word(locale, kind), date = date);
                let uses: Vec<String> = cost.parts().map(|(kind, photos)| uses(locale, kind, photos)).collect();
                view! { <p class="vstage-error" role="alert">{uses.join(" ")} " " {why}</p> }.into_any()
            }
            None => {
                let words = cost_words(locale, user.as_ref(), cost);
                view! { <p class="vstage-hint vstage-cost" role="status">{words}</p> }.into_any()
            }
        })
    }
}

/// "Uses 1 photo: Staging."
fn uses(locale: Locale, kind: UsageKind, photos: u64) -> String {
    let (count, kind) = (format::number(locale, photos as f64), kind_word(locale, kind));
    match format::is_singular(locale, photos as f64) {
        true => td_string!(locale, forms.cost_singular, count = count, kind = kind).to_string(),
        false => td_string!(locale, forms.cost_plural, count = count, kind = kind).to_string(),
    }
}

/// The kind as the usage meters name it.
fn kind_word(locale: Locale, kind: UsageKind) -> &'static str {
    match kind {
        UsageKind::Staging => td_string!(locale, common.usage_staging),
        UsageKind::ImageEditing => td_string!(locale, common.usage_editing),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vstage_api::{Limit, PhotoCounts, PhotoLimits};
    use wasm_bindgen_test::wasm_bindgen_test;

    fn agent(used: u64, limit: Limit, renews: bool) -> User {
        User {
            user: None,
            photo_limit: PhotoLimits { staging: limit, image_editing: Limit::Unlimited },
            photos_used_this_period: PhotoCounts { staging: used, image_editing: 40 },
            renews_at: renews.then_some(1_796_083_200_000),
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn an_allowance_left_short_refuses_and_the_accounts_figures_do_not() {
        let one = Cost::of(UsageKind::Staging, 1);
        assert_eq!(shortfall(&agent(29, Limit::Photos(30), true), one), None);
        assert_eq!(shortfall(&agent(30, Limit::Photos(30), true), one), Some((UsageKind::Staging, 0)));
        assert_eq!(
            shortfall(&agent(28, Limit::Photos(30), true), Cost::of(UsageKind::Staging, 3)),
            Some((UsageKind::Staging, 2))
        );
        assert_eq!(shortfall(&agent(30, Limit::Photos(30), false), one), None, "the account's: the service judges");
        assert_eq!(shortfall(&agent(900, Limit::Unlimited, true), one), None);
        assert_eq!(shortfall(&agent(0, Limit::Photos(1), true), Cost::of(UsageKind::ImageEditing, 9)), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_cost_says_what_is_left_and_a_large_one_is_asked_about() {
        let four = Cost::of(UsageKind::Staging, 4);
        let user = agent(43, Limit::Photos(100), true);
        assert_eq!(cost_words(Locale::en, Some(&user), four), "Uses 4 photos: Staging. 53 left (Staging) after this.");
        assert_eq!(cost_words(Locale::en, None, four), "Uses 4 photos: Staging.", "nothing known, nothing said");
        let unlimited = agent(43, Limit::Unlimited, true);
        assert_eq!(cost_words(Locale::en, Some(&unlimited), four), "Uses 4 photos: Staging.");
        assert!(!worth_asking(Some(&user), four));
        assert!(worth_asking(Some(&user), Cost::of(UsageKind::Staging, ASK_FROM)), "ten photos at once");
        assert!(worth_asking(Some(&agent(94, Limit::Photos(100), true)), four), "more than half of what is left");
        assert!(!worth_asking(Some(&unlimited), four));
        assert!(worth_asking(None, Cost::of(UsageKind::Staging, 12)));
    }
}
