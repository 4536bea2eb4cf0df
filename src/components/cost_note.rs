//! What a request will cost the photo allowance, said by the form before it is sent (`vstage_api::usage`); and, when
//! the agent's allowance this period cannot cover it, why the form will not send it. `shortfall` is the rule, a plain
//! function tested apart from the view.

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
        let (used, limit) = match kind {
            UsageKind::Staging => user.staging_usage(),
            UsageKind::ImageEditing => user.image_editing_usage(),
        };
        let left = limit.remaining(used)?;
        (photos > left).then_some((kind, left))
    })
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
        let uses: Vec<String> = cost.parts().map(|(kind, photos)| uses(locale, kind, photos)).collect();
        let short = user.as_ref().and_then(|user| Some((shortfall(user, cost)?, user.renews_at?)));
        Some(match short {
            Some(((kind, left), renews_at)) => {
                let (date, left) = (format::day(locale, renews_at), format::number(locale, left as f64));
                let why =
                    td_string!(locale, forms.cost_short, left = left, kind = kind_word(locale, kind), date = date);
                view! { <p class="vstage-error" role="alert">{uses.join(" ")} " " {why}</p> }.into_any()
            }
            None => view! { <p class="vstage-hint vstage-cost" role="status">{uses.join(" ")}</p> }.into_any(),
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
}
