//! The photo picker's file from this device: chosen or dropped, then uploaded with a progress bar, and what
//! became of it (uploaded, not an image, or the uploader's sentence).

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::{self, Upload};
use super::state::PickerState;
use crate::components::drop_zone::DropZone;
use crate::locale::use_locale;
use crate::upload::use_uploader;

#[component]
pub fn DeviceUpload(picker: PickerState) -> impl IntoView {
    let locale = use_locale();
    let uploader = use_uploader();
    let on_files = Callback::new(move |files: web_sys::FileList| {
        if let Some(file) = files.get(0) {
            picker.send(uploader.clone(), file);
        }
    });
    view! {
        <DropZone id="vstage-image-file" label=move || td_string!(locale.get(), forms.picker_drop) on_files>
            {move || match picker.upload.get() {
                Upload::Idle => ().into_any(),
                Upload::Sending { name, progress } => view! {
                    <div class="vstage-upload" role="status" aria-live="polite">
                        <span>{move || model::sending_words(locale.get(), &name, progress)}</span>
                        <progress max="1" value=progress.to_string()></progress>
                    </div>
                }.into_any(),
                Upload::Done { name } => view! {
                    <p class="vstage-upload" role="status">
                        {move || td_string!(locale.get(), forms.picker_uploaded, name = &name)}
                    </p>
                }.into_any(),
                Upload::NotImage { name } => view! {
                    <p class="vstage-error" role="alert">
                        {move || td_string!(locale.get(), forms.picker_not_image, name = &name)}
                    </p>
                }.into_any(),
                Upload::Failed { message } => view! { <p class="vstage-error" role="alert">{message}</p> }.into_any(),
            }}
        </DropZone>
    }
}
