//! The mode badge: whether the studio talks to the sandbox or to the live service, from `/api/capabilities`.
//! Nothing is shown when the server does not say (a plain reverse proxy).

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;

#[component]
pub fn ModeBadge(
    /// `Some("sandbox")`, `Some("upstream")`, another mode, or `None` when unknown.
    #[prop(into)]
    mode: Signal<Option<String>>,
) -> impl IntoView {
    let locale = use_locale();
    move || {
        let locale = locale.get();
        mode.get().map(|mode| {
            let (label, title, class) = match mode.as_str() {
                "sandbox" => (
                    td_string!(locale, common.mode_sandbox).to_string(),
                    td_string!(locale, common.mode_sandbox_title),
                    "vstage-mode vstage-mode--sandbox",
                ),
                "upstream" => (
                    td_string!(locale, common.mode_live).to_string(),
                    td_string!(locale, common.mode_live_title),
                    "vstage-mode vstage-mode--live",
                ),
                other => (other.to_string(), td_string!(locale, common.mode_other_title), "vstage-mode"),
            };
            view! {
                <span class=class title=title>
                    {label}
                </span>
            }
        })
    }
}
