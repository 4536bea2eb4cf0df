//! Adding photos to the board: several files chosen or dropped at once (each uploaded in parallel with its own
//! progress), several addresses pasted, or, in the sandbox, all its sample photos (`pasted_addresses`).

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::pasted_addresses::PastedAddresses;
use super::photos::BoardPhotos;
use crate::account::use_account;
use crate::components::drop_zone::DropZone;
use crate::locale::use_locale;
use crate::upload::use_uploader;

#[component]
pub fn AddPhotos(photos: BoardPhotos) -> impl IntoView {
    let account = use_account();
    let locale = use_locale();
    let uploader = use_uploader();
    let on_files = Callback::new(move |files: web_sys::FileList| {
        for index in 0..files.length() {
            if let Some(file) = files.get(index) {
                photos.upload(locale.get_untracked(), uploader.clone(), file);
            }
        }
    });
    view! {
        <fieldset class="vstage-board__add">
            <legend>{move || td_string!(locale.get(), board.add_legend)}</legend>
            <Show when=move || account.offers_uploads()>
                <DropZone
                    id="vstage-board-files"
                    label=move || td_string!(locale.get(), board.add_drop)
                    multiple=true
                    on_files
                />
            </Show>
            <PastedAddresses photos />
        </fieldset>
    }
}
