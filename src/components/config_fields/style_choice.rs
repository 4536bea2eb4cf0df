//! Staging's style, chosen by picture: the `StylePicker` over this draft's style.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Style;

use super::draft::DraftFields;
use crate::components::style_picker::StylePicker;
use crate::locale::use_locale;

#[component]
pub fn StyleChoice(fields: DraftFields) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-field">
            <span class="vstage-field__label" id=fields.dom("style-label")>{move || td_string!(locale.get(), forms.config_style)}</span>
            <StylePicker
                name=fields.dom("style")
                labelled_by=fields.dom("style-label")
                current=Signal::derive(move || fields.draft().style)
                on_pick=move |style: Style| fields.edit(|d| d.style = style)
            />
        </div>
    }
}
