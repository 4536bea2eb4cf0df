//! The kind of processing a draft asks for (staging, removal, day to dusk, enhancement), as radio cards with a
//! line on what each does.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::draft::DraftFields;
use crate::config_draft::Kind;
use crate::locale::use_locale;

#[component]
pub fn KindChoice(fields: DraftFields) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-kinds" role="radiogroup" aria-label=move || td_string!(locale.get(), forms.config_processing)>
            {Kind::ALL
                .into_iter()
                .map(|kind| {
                    view! {
                        <label class="vstage-kind" class:vstage-kind--chosen=move || fields.draft().kind == kind>
                            <input
                                type="radio"
                                name=fields.dom("kind")
                                prop:checked=move || fields.draft().kind == kind
                                on:change=move |_| {
                                    fields.edit(|d| d.kind = kind);
                                }
                            />
                            <span class="vstage-kind__name">{move || kind.label(locale.get())}</span>
                            <span class="vstage-kind__hint">{move || kind.explained(locale.get())}</span>
                        </label>
                    }
                })
                .collect_view()}
        </div>
    }
}
