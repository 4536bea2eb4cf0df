//! The mode badge: whether the studio talks to the sandbox or to the live service, from `/api/capabilities`.
//! Nothing is shown when the server does not say (a plain reverse proxy).

use leptos::prelude::*;

#[component]
pub fn ModeBadge(
    /// `Some("sandbox")`, `Some("upstream")`, another mode, or `None` when unknown.
    #[prop(into)]
    mode: Signal<Option<String>>,
) -> impl IntoView {
    move || {
        mode.get().map(|mode| {
            let (label, title, class) = match mode.as_str() {
                "sandbox" => (
                    "Sandbox".to_string(),
                    "Connected to the local sandbox: results are simulated and marked SANDBOX.",
                    "vstage-mode vstage-mode--sandbox",
                ),
                "upstream" => {
                    ("Live".to_string(), "Connected to the staging service.", "vstage-mode vstage-mode--live")
                }
                other => (other.to_string(), "The server's mode.", "vstage-mode"),
            };
            view! {
                <span class=class title=title>
                    {label}
                </span>
            }
        })
    }
}
