//! Where the photo comes from: a web address, a file from this device (chosen or dropped, previewed, uploaded with
//! a progress bar), or one of the sandbox's sample photos. Sets the address the service will fetch.
//! `state` holds the choice, `model` works it out, and each source and the preview are components of their own.

mod device_upload;
mod model;
mod photo_preview;
mod sample_choice;
mod source_tabs;
mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;

use self::device_upload::DeviceUpload;
use self::model::Source;
use self::photo_preview::PhotoPreview;
use self::sample_choice::SampleChoice;
use self::source_tabs::SourceTabs;
use self::state::PickerState;
use crate::account::use_account;
use crate::api::use_api;
use crate::components::photo_address::PhotoAddress;
use crate::locale::use_locale;

#[component]
pub fn ImagePicker(
    /// The chosen photo's address.
    image_url: RwSignal<String>,
    /// The form's error about the photo, if any.
    #[prop(into)]
    error: Signal<Option<String>>,
    /// Set while the photo chosen cannot be shown here, for a form that refuses to send it.
    #[prop(optional)]
    broken: Option<RwSignal<bool>>,
) -> impl IntoView {
    let locale = use_locale();
    let account = use_account();
    let picker = PickerState::new(image_url, broken.unwrap_or_else(|| RwSignal::new(false)));
    Effect::new(move |_| {
        image_url.track();
        picker.preview_broken.set(false);
    });
    ask_for_samples(picker);
    // The sandbox's samples are offered first (the server may say it is the sandbox after a click).
    Effect::new(move |_| picker.offer_samples_first(account.is_sandbox()));
    // A photo given from outside while a sample is chosen (the host's `photo-url`).
    Effect::new(move |_| picker.show_given_address());
    view! {
        <fieldset class="vstage-picker">
            <legend>{move || td_string!(locale.get(), forms.picker_legend)}</legend>
            <SourceTabs picker />
            <Show when=move || picker.is_chosen(Source::Address)>
                <PhotoAddress
                    id="vstage-image-url"
                    label=move || td_string!(locale.get(), forms.picker_address)
                    placeholder="https://…/living-room.jpg"
                    value=image_url
                    on_input=move |typed: String| image_url.set(typed.trim().to_string())
                    invalid=Signal::derive(move || error.get().is_some())
                />
            </Show>
            <Show when=move || picker.is_chosen(Source::Device)>
                <DeviceUpload picker />
            </Show>
            <Show when=move || picker.is_chosen(Source::Sample)>
                <SampleChoice picker />
            </Show>
            {move || error.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
            <PhotoPreview picker />
        </fieldset>
    }
}

/// Asks for the sandbox's samples once the server says it is the sandbox (a deep link may start before it says
/// so); elsewhere there are none to offer.
fn ask_for_samples(picker: PickerState) {
    let account = use_account();
    let api = use_api();
    Effect::new(move |asked: Option<bool>| {
        if asked == Some(true) || !account.is_sandbox() {
            return asked.unwrap_or(false);
        }
        let api = api.clone();
        spawn_local(async move {
            let _ = picker.samples.try_set(Some(api.samples().await.unwrap_or_default()));
        });
        true
    });
}
