//! The renders the bulk dialog's plan leaves out, each with the reason, when there are any.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;
use crate::variation_plan::Plan;

#[component]
pub fn LeftOut(plan: Memo<Option<Plan>>) -> impl IntoView {
    let locale = use_locale();
    move || {
        plan.get().filter(|plan| !plan.left_out.is_empty()).map(|plan| {
            view! {
                <div class="vstage-panel" role="status">
                    <p>{move || td_string!(locale.get(), studio.bulk_left_out)}</p>
                    <ul class="vstage-bulk__left-out">
                        {plan.left_out.into_iter().map(|reason| view! { <li>{reason}</li> }).collect_view()}
                    </ul>
                </div>
            }
        })
    }
}
