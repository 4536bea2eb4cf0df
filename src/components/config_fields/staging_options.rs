//! Staging's options: the room type (and, before the click, whether the listing's rules forbid staging it), the
//! style (`style_choice`), and whether furniture is removed first (not for a staging on an emptied room, which is
//! staged on that removal).

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{RemovalMode, RoomType};

use super::draft::DraftFields;
use super::style_choice::StyleChoice;
use super::{REMOVAL_MODES, room_options};
use crate::components::choice_field::ChoiceField;
use crate::components::exterior_rule_note::ExteriorRuleNote;
use crate::describe;
use crate::locale::use_locale;

#[component]
pub fn StagingOptions(fields: DraftFields) -> impl IntoView {
    let locale = use_locale();
    // made again in another language: the options' words follow the locale
    let room = move || {
        let locale = locale.get();
        view! {
            <ChoiceField
                id=fields.dom("room")
                label=td_string!(locale, forms.config_room_type)
                options=room_options(locale)
                current=Signal::derive(move || fields.draft().room_type.as_str().to_string())
                on_pick=move |value: String| fields.edit(|d| d.room_type = RoomType::from(value.as_str()))
            />
        }
    };
    let removal = move || {
        let locale = locale.get();
        view! {
            <ChoiceField
                id=fields.dom("removal")
                label=td_string!(locale, forms.config_removal)
                options=REMOVAL_MODES
                    .iter()
                    .map(|mode| (mode.as_str().to_string(), describe::removal_mode(locale, mode)))
                    .collect()
                current=Signal::derive(move || fields.draft().removal.as_str().to_string())
                on_pick=move |value: String| {
                    fields.edit(|d| d.removal = RemovalMode::from(value.as_str()));
                }
            />
        }
    };
    view! {
        {room}
        <ExteriorRuleNote room=Signal::derive(move || fields.draft().room_type) />
        <StyleChoice fields />
        <Show
            when=move || fields.draft().base_variation_id.is_none()
            fallback=move || view! { <p class="vstage-muted">{move || td_string!(locale.get(), forms.config_staged_on_removal)}</p> }
        >
            {removal}
            <Show when=move || fields.draft().removal != RemovalMode::Off>
                <p class="vstage-hint">{move || td_string!(locale.get(), forms.config_removal_hint)}</p>
            </Show>
        </Show>
    }
}
