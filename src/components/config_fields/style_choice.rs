//! Staging's style as a swatch card each: the style's main and accent colours, the very ones the sandbox furnishes
//! with, so that the agent picks by eye and not by a word.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::STYLES;
use super::draft::DraftFields;
use crate::describe;
use crate::locale::use_locale;

#[component]
pub fn StyleChoice(fields: DraftFields) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-field">
            <span class="vstage-field__label" id=fields.dom("style-label")>{move || td_string!(locale.get(), forms.config_style)}</span>
            <div class="vstage-styles" role="radiogroup" aria-labelledby=fields.dom("style-label")>
                {STYLES
                    .iter()
                    .map(|style| {
                        let chosen = {
                            let style = style.clone();
                            move || fields.draft().style == style
                        };
                        let (pick, name) = (style.clone(), style.clone());
                        view! {
                            <label class="vstage-style" class:vstage-kind--chosen=chosen.clone()>
                                <span class=format!("vstage-swatch vstage-swatch--{}", style.as_str()) aria-hidden="true"></span>
                                <input
                                    type="radio"
                                    name=fields.dom("style")
                                    value=style.as_str().to_string()
                                    prop:checked=chosen.clone()
                                    on:change=move |_| fields.edit(|d| d.style = pick.clone())
                                />
                                <span class="vstage-kind__name">{move || describe::style(locale.get(), &name)}</span>
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
        </div>
    }
}
