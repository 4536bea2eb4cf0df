//! A waiting photo's own settings: "Customise" starts them from what the photo has (the board's, with its room and
//! style) and edits them with the same fields, "Use the board's settings" drops them. The photo keeps a copy, so that it is sent with them.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::ValidationError;

use super::photos::{BoardPhotos, OWN_DRAFT_IDS};
use crate::components::config_fields::ConfigFields;
use crate::locale::use_locale;

#[component]
pub fn OwnSettings(photos: BoardPhotos, key: u32) -> impl IntoView {
    let locale = use_locale();
    let own_id = OWN_DRAFT_IDS + key;
    let kept = photos.photos.with_untracked(|list| list.iter().find(|p| p.key == key).and_then(|p| p.own.clone()));
    let own = RwSignal::new(kept.map(|draft| vec![(own_id, draft)]).unwrap_or_default());
    Effect::new(move |_| {
        let chosen = own.with(|list| list.first().map(|(_, draft)| draft.clone()));
        photos.change(key, |photo| photo.own = chosen);
    });
    // From what the photo has now: the board's settings with its room and style.
    let customise = move |_| {
        let shared = photos.shared_draft();
        let now = photos.photos.with_untracked(|list| list.iter().find(|p| p.key == key).map(|p| p.draft(&shared)));
        own.set(vec![(own_id, now.unwrap_or(shared))]);
    };
    view! {
        <Show
            when=move || !own.with(Vec::is_empty)
            fallback=move || view! {
                <button type="button" class="vstage-button vstage-button--small vstage-button--secondary" on:click=customise>
                    {move || td_string!(locale.get(), board.waiting_customise)}
                </button>
            }
        >
            <div class="vstage-board__own">
                <ConfigFields id=own_id drafts=own existing=Signal::stored(0) error=Signal::stored(None::<ValidationError>) />
                <button type="button" class="vstage-button vstage-button--small vstage-button--secondary" on:click=move |_| own.set(Vec::new())>
                    {move || td_string!(locale.get(), board.waiting_use_shared)}
                </button>
            </div>
        </Show>
    }
}
