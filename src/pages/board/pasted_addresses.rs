//! The board's pasted addresses: several photos' web addresses at once, added as waiting photos (what is not an
//! address is named, and left in the field to correct, which takes the focus); in the sandbox, all its sample
//! photos at once.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::ApiError;

use super::model::pasted_addresses;
use super::photos::{BoardPhotos, PhotoState};
use crate::account::use_account;
use crate::api::use_api;
use crate::components::photo_address::PhotoAddress;
use crate::components::submit_button::focus_the_first_refusal;
use crate::locale::errors::api_error;
use crate::locale::use_locale;

#[component]
pub fn PastedAddresses(photos: BoardPhotos) -> impl IntoView {
    let account = use_account();
    let api = use_api();
    let locale = use_locale();
    let pasted = RwSignal::new(String::new());
    let not_addresses = RwSignal::new(Vec::<String>::new());
    let samples_failure = RwSignal::new(None::<ApiError>);
    let add_pasted = move |ev: leptos::ev::MouseEvent| {
        let (addresses, mut refused) = pasted_addresses(locale.get_untracked(), &pasted.get_untracked());
        if addresses.is_empty() && refused.is_empty() {
            refused.push(td_string!(locale.get_untracked(), board.paste_nothing).to_string());
        }
        photos.add_addresses(locale.get_untracked(), addresses);
        if refused.is_empty() {
            pasted.set(String::new());
        } else {
            focus_the_first_refusal(&ev);
        }
        not_addresses.set(refused);
    };
    let add_samples = move |_| {
        let api = api.clone();
        samples_failure.set(None);
        spawn_local(async move {
            match api.samples().await {
                Ok(samples) => {
                    for sample in samples {
                        photos.add(
                            locale.get_untracked(),
                            sample.name,
                            sample.url.clone(),
                            PhotoState::Ready(sample.url),
                        );
                    }
                }
                Err(error) => samples_failure.set(Some(error)),
            }
        });
    };
    view! {
        <PhotoAddress
            id="vstage-board-addresses"
            label=move || td_string!(locale.get(), board.add_addresses)
            placeholder="https://…/kitchen.jpg"
            several=true
            value=pasted
            on_input=move |typed| {
                pasted.set(typed);
                // what was said of the text before is gone with it
                not_addresses.set(Vec::new());
            }
            invalid=Signal::derive(move || !not_addresses.with(Vec::is_empty))
            errors=not_addresses
        >
            <div class="vstage-form__actions">
                <button type="button" class="vstage-button vstage-button--secondary" on:click=add_pasted>
                    {move || td_string!(locale.get(), board.add_these)}
                </button>
                <Show when=move || account.is_sandbox()>
                    <button type="button" class="vstage-button vstage-button--secondary" on:click=add_samples.clone()>
                        {move || td_string!(locale.get(), board.add_samples)}
                    </button>
                </Show>
            </div>
            {move || samples_failure.get().map(|error| view! { <p class="vstage-error" role="alert">{move || api_error(locale.get(), &error)}</p> })}
        </PhotoAddress>
    }
}
