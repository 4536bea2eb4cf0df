//! What a request will cost the photo allowance, said by the form before it is sent (`vstage_api::usage`), with what
//! will be left; when the agent's allowance this period cannot cover it, why the form will not send it; and whether
//! it is worth a question first, worded for where the studio runs. The figures are the one `Allowance`
//! (`crate::allowance`); `worth_asking` and the words are plain functions tested apart from the view.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::usage::{Cost, UsageKind};

use crate::account::use_account;
use crate::allowance::Allowance;
use crate::host::{Placement, placement};
use crate::locale::{Locale, format, use_locale};

/// A request of this many photos of a kind or more is asked about before it is sent.
pub const ASK_FROM: u64 = 10;

/// Whether `cost` deserves a question before it is sent: `ASK_FROM` photos of a kind or more, or more than half of
/// what is left of it.
pub fn worth_asking(allowance: Option<&Allowance>, cost: Cost) -> bool {
    cost.parts().any(|(kind, photos)| {
        photos >= ASK_FROM || allowance.and_then(|allowance| allowance.left(kind)).is_some_and(|left| photos * 2 > left)
    })
}

/// "Costs 4 photos of your Staging allowance. 53 will be left after this.": what `cost` takes from which of the
/// agent's allowances and, where the figures set a number, what is left of it after.
pub fn cost_words(locale: Locale, allowance: Option<&Allowance>, cost: Cost) -> String {
    let mut words = Vec::new();
    for (kind, photos) in cost.parts() {
        words.push(uses(locale, kind, photos));
        if let Some(left) = allowance.and_then(|allowance| allowance.left(kind)).filter(|left| *left >= photos) {
            let left = format::number(locale, (left - photos) as f64);
            words.push(td_string!(locale, forms.cost_left, left = left).to_string());
        }
    }
    words.join(" ")
}

/// "Only 3 left of your Staging allowance until it renews on 1 December 2026. Ask the listing site for more.": why the agent's
/// own allowance cannot cover a request short of `kind` with `left` photos, and where more comes from, worded for
/// where the studio runs.
pub fn short_words(locale: Locale, (kind, left): (UsageKind, u64), renews_at: i64, placement: Placement) -> String {
    let (date, left) = (format::day(locale, renews_at), format::number(locale, left as f64));
    let why = td_string!(locale, forms.cost_short, left = left, kind = kind_word(locale, kind), date = date);
    let more = match placement {
        Placement::Embedded => td_string!(locale, forms.cost_more_embedded),
        Placement::Standalone => td_string!(locale, forms.cost_more_standalone),
    };
    format!("{why} {more}")
}

/// Whether the agent's allowance can cover `cost`, as far as the studio knows now.
pub fn covered(cost: Cost) -> bool {
    use_account().allowance_now().is_none_or(|allowance| allowance.shortfall(cost).is_none())
}

#[component]
pub fn CostNote(
    /// What the form's request would cost; `None` while it cannot be worked out.
    #[prop(into)]
    cost: Signal<Option<Cost>>,
) -> impl IntoView {
    let account = use_account();
    let locale = use_locale();
    let placement = placement();
    move || {
        let cost = cost.get().filter(|cost| !cost.is_none())?;
        let locale = locale.get();
        let allowance = account.allowance().and_then(Result::ok);
        let short = allowance.as_ref().and_then(|allowance| Some((allowance.shortfall(cost)?, allowance.renews_at?)));
        Some(match short {
            Some((short, renews_at)) => {
                let why = short_words(locale, short, renews_at, placement);
                let uses: Vec<String> = cost.parts().map(|(kind, photos)| uses(locale, kind, photos)).collect();
                view! { <p class="vstage-error" role="alert">{uses.join(" ")} " " {why}</p> }.into_any()
            }
            None => {
                let words = cost_words(locale, allowance.as_ref(), cost);
                view! { <p class="vstage-hint vstage-cost" role="status">{words}</p> }.into_any()
            }
        })
    }
}

/// "Costs 1 photo of your Staging allowance."
fn uses(locale: Locale, kind: UsageKind, photos: u64) -> String {
    let (count, kind) = (format::number(locale, photos as f64), kind_word(locale, kind));
    match format::is_singular(locale, photos as f64) {
        true => td_string!(locale, forms.cost_singular, count = count, kind = kind).to_string(),
        false => td_string!(locale, forms.cost_plural, count = count, kind = kind).to_string(),
    }
}

/// The kind as the usage meters name it.
pub fn kind_word(locale: Locale, kind: UsageKind) -> &'static str {
    match kind {
        UsageKind::Staging => td_string!(locale, common.usage_staging),
        UsageKind::ImageEditing => td_string!(locale, common.usage_editing),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vstage_api::{Limit, PhotoCounts, PhotoLimits, User};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// An agent with its own staging allowance of `limit`, `used` of it spent, over the account's 100.
    fn agent(used: u64, limit: u64) -> Allowance {
        let own = User {
            user: None,
            photo_limit: PhotoLimits { staging: Limit::Photos(limit), image_editing: Limit::Unlimited },
            photos_used_this_period: PhotoCounts { staging: used, image_editing: 0 },
            renews_at: Some(1_796_083_200_000),
        };
        Allowance::read(Some(&own), None).unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_cost_says_what_is_left_and_a_large_one_is_asked_about() {
        let four = Cost::of(UsageKind::Staging, 4);
        let allowance = agent(43, 100);
        assert_eq!(
            cost_words(Locale::en, Some(&allowance), four),
            "Costs 4 photos of your Staging allowance. 53 will be left after this."
        );
        assert_eq!(
            cost_words(Locale::en, None, four),
            "Costs 4 photos of your Staging allowance.",
            "nothing known, nothing said"
        );
        let editing = Cost::of(UsageKind::ImageEditing, 4);
        assert_eq!(
            cost_words(Locale::en, Some(&allowance), editing),
            "Costs 4 photos of your Image editing allowance.",
            "no limit"
        );
        assert!(!worth_asking(Some(&allowance), four));
        assert!(worth_asking(Some(&allowance), Cost::of(UsageKind::Staging, ASK_FROM)), "ten photos at once");
        assert!(worth_asking(Some(&agent(94, 100)), four), "more than half of what is left");
        assert!(!worth_asking(Some(&allowance), editing));
        assert!(worth_asking(None, Cost::of(UsageKind::Staging, 12)));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_short_allowance_says_where_more_comes_from_where_the_studio_runs() {
        let short = agent(0, 3).shortfall(Cost::of(UsageKind::Staging, 4)).unwrap();
        assert_eq!(short, (UsageKind::Staging, 3));
        let renews = 1_796_083_200_000;
        let why =
            format!("Only 3 left of your Staging allowance until it renews on {}.", format::day(Locale::en, renews));
        let embedded = short_words(Locale::en, short, renews, Placement::Embedded);
        assert_eq!(embedded, format!("{why} Ask the listing site for more."));
        let standalone = short_words(Locale::en, short, renews, Placement::Standalone);
        assert!(standalone.starts_with(&format!("{why} ")), "{standalone}");
        assert!(!standalone.contains("listing site"), "{standalone}");
    }
}
