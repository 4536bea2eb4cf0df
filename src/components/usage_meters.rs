//! This period's usage as a labelled group of meters, staging and image editing, from the one `Allowance` (the
//! header's, the account screen's).

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::allowance::Allowance;
use crate::components::usage_meter::UsageMeter;
use crate::locale::use_locale;

#[component]
pub fn UsageMeters(
    /// What the group counts, e.g. "Photos used this period".
    #[prop(into)]
    label: Signal<String>,
    allowance: Allowance,
) -> impl IntoView {
    let locale = use_locale();
    // Again in another language.
    let meters = move || {
        let Allowance { staging, image_editing, .. } = allowance.clone();
        let locale = locale.get();
        let (staging_label, editing_label) =
            (td_string!(locale, common.usage_staging), td_string!(locale, common.usage_editing));
        view! {
            <UsageMeter label=staging_label used=staging.used limit=staging.limit />
            <UsageMeter label=editing_label used=image_editing.used limit=image_editing.limit />
        }
    };
    view! { <section class="vstage-usage" aria-label=label>{meters}</section> }
}
