//! The room type and style of a room staged once its furniture is removed (the style chosen by picture), drawn
//! again in the new words when the language changes (the choices live in signals).

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{RoomType, Style};

use super::state::FurnitureMaskState;
use crate::components::choice_field::ChoiceField;
use crate::components::config_fields::room_options;
use crate::components::style_picker::StylePicker;
use crate::locale::use_locale;

#[component]
pub fn StagingChoices(page: FurnitureMaskState) -> impl IntoView {
    let locale = use_locale();
    let FurnitureMaskState { room_type, style, .. } = page;
    move || {
        let locale = locale.get();
        view! {
            <ChoiceField
                id="vstage-mask-room".to_string()
                label=td_string!(locale, studio.mask_room_type)
                options=room_options(locale)
                current=Signal::derive(move || room_type.get().as_str().to_string())
                on_pick=move |value: String| room_type.set(RoomType::from(value.as_str()))
            />
            <div class="vstage-field">
                <span class="vstage-field__label" id="vstage-mask-style-label">{td_string!(locale, studio.mask_style)}</span>
                <StylePicker
                    name="vstage-mask-style"
                    labelled_by="vstage-mask-style-label"
                    current=style
                    on_pick=move |picked: Style| style.set(picked)
                />
            </div>
        }
    }
}
