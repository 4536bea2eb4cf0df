//! What the classic form asks for besides the photo: the mode of use, then what that mode needs (room type and
//! style to stage, a mask to declutter), and the output's resolution, watermark and waiting.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{RoomType, v1};

use super::mask_choice::MaskChoice;
use super::mode_choice::ModeChoice;
use super::output_choices::OutputChoices;
use super::state::NewClassicForm;
use crate::components::exterior_rule_note::ExteriorRuleNote;
use crate::locale::use_locale;
use crate::pages::classic::{ClassicOptions, RoomAndStyle};

#[component]
pub fn SettingsSection(form: NewClassicForm) -> impl IntoView {
    let locale = use_locale();
    let options = ClassicOptions::load();
    view! {
        <fieldset class="vstage-config">
            <legend>{move || td_string!(locale.get(), classic.new_what)}</legend>
            <ModeChoice mode=form.mode />
            <Show when=move || form.mode.get().stages()>
                {options.view(move |options: v1::Options| view! {
                    <RoomAndStyle
                        id="vstage-classic"
                        room_types=options.room_types
                        styles=options.styles
                        room_type=form.room_type
                        style=form.style
                    />
                })}
                <ExteriorRuleNote room=Signal::derive(move || RoomType::from(form.room_type.get().as_str())) />
            </Show>
            <Show when=move || form.mode.get().declutters()>
                <MaskChoice form />
            </Show>
            <OutputChoices form />
        </fieldset>
    }
}
