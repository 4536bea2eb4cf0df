//! A waiting photo's room, style and furniture, chosen on the photo itself while it has the board's settings: the
//! room starts from the guess of its name (said beside it until the agent chooses), the style from the board's, the
//! furniture from its analysis (a furnished room's removed first, said beside it).

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{RemovalMode, RoomType, Style};

use super::photos::BoardPhotos;
use crate::components::choice_field::ChoiceField;
use crate::components::config_fields::{removal_options, room_options, style_options};
use crate::components::exterior_rule_note::ExteriorRuleNote;
use crate::locale::use_locale;

#[component]
pub fn WaitingPhotoRoom(photos: BoardPhotos, key: u32) -> impl IntoView {
    let locale = use_locale();
    let draft = Memo::new(move |_| {
        let shared = photos.shared_draft();
        photos.photos.with(|list| list.iter().find(|p| p.key == key).map(|p| p.draft(&shared))).unwrap_or_default()
    });
    let guessed = move || photos.photos.with(|list| list.iter().any(|p| p.key == key && p.room_guessed));
    let pick_room = move |value: String| {
        photos.change(key, |photo| {
            photo.room = Some(RoomType::from(value.as_str()));
            photo.room_guessed = false;
        })
    };
    let pick_style = move |value: String| photos.change(key, |photo| photo.style = Some(Style::from(value.as_str())));
    let pick_removal =
        move |value: String| photos.change(key, |photo| photo.removal = Some(RemovalMode::from(value.as_str())));
    let furnishing = move || photos.photos.with(|list| list.iter().find(|p| p.key == key).and_then(|p| p.furnishing));
    // made again in another language: the options' words follow the locale
    move || {
        let locale = locale.get();
        view! {
            <div class="vstage-board__room">
                <ChoiceField
                    id=format!("vstage-board-room-{key}")
                    label=td_string!(locale, forms.config_room_type)
                    options=room_options(locale)
                    current=Signal::derive(move || draft.with(|d| d.room_type.as_str().to_string()))
                    on_pick=pick_room
                />
                <ChoiceField
                    id=format!("vstage-board-style-{key}")
                    label=td_string!(locale, forms.config_style)
                    options=style_options(locale)
                    current=Signal::derive(move || draft.with(|d| d.style.as_str().to_string()))
                    on_pick=pick_style
                />
                <ChoiceField
                    id=format!("vstage-board-removal-{key}")
                    label=td_string!(locale, forms.config_removal)
                    options=removal_options(locale)
                    current=Signal::derive(move || draft.with(|d| d.removal.as_str().to_string()))
                    on_pick=pick_removal
                />
                <ExteriorRuleNote room=Signal::derive(move || draft.with(|d| d.room_type.clone())) />
                <Show when=guessed>
                    <p class="vstage-hint">{move || td_string!(locale, board.room_guessed)}</p>
                </Show>
            </div>
            {move || furnishing().filter(|_| draft.with(|d| d.room_type != RoomType::Outdoor)).map(|found| {
                let kept = draft.with(|d| d.removal == RemovalMode::Off);
                view! { <p class="vstage-hint vstage-board__furniture">{found.words(locale, kept)}</p> }
            })}
        }
    }
}
