//! The classic form's photo: its web address, or a file from this device (chosen or dropped) sent with the form,
//! named once chosen and with its upload's progress while the form is sent.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::NewClassicForm;
use crate::account::use_account;
use crate::components::drop_zone::DropZone;
use crate::components::photo_address::PhotoAddress;
use crate::locale::use_locale;
use crate::pages::classic::model;

#[component]
pub fn PhotoSection(form: NewClassicForm) -> impl IntoView {
    let locale = use_locale();
    let account = use_account();
    let on_files = Callback::new(move |files: web_sys::FileList| {
        if let Some(chosen) = files.get(0) {
            form.choose_file(chosen);
        }
    });
    view! {
        <fieldset class="vstage-picker">
            <legend>{move || td_string!(locale.get(), classic.new_photo)}</legend>
            <PhotoAddress
                id="vstage-classic-address"
                label=move || td_string!(locale.get(), classic.new_address)
                placeholder="https://…/living-room.jpg"
                value=form.address
                on_input=move |typed| form.type_address(typed)
            />
            <Show when=move || account.offers_uploads()>
                <DropZone id="vstage-classic-file" label=move || td_string!(locale.get(), classic.new_drop) on_files>
                    {move || form.file.get().map(|file| view! {
                        <p class="vstage-upload" role="status">
                            {move || td_string!(locale.get(), classic.new_file_chosen, name = file.name())}
                        </p>
                    })}
                    {move || form.progress.get().map(|done| view! {
                        <div class="vstage-upload" role="status">
                            <span>{move || model::uploading(locale.get(), done)}</span>
                            <progress max="1" value=done.to_string()></progress>
                        </div>
                    })}
                </DropZone>
            </Show>
        </fieldset>
    }
}
