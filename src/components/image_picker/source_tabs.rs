//! The photo picker's choice of where the photo comes from: a web address, this device (where the server takes
//! uploads) or the sandbox's samples.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::Source;
use super::state::PickerState;
use crate::account::use_account;
use crate::locale::{Locale, use_locale};

#[component]
pub fn SourceTabs(picker: PickerState) -> impl IntoView {
    let locale = use_locale();
    let account = use_account();
    let tab = move |value: Source, label: fn(Locale) -> &'static str| {
        view! {
            <label class="vstage-tab" class:vstage-tab--chosen=move || picker.is_chosen(value)>
                <input type="radio" name="vstage-photo-source" prop:checked=move || picker.is_chosen(value) on:change=move |_| picker.choose(value) />
                {move || label(locale.get())}
            </label>
        }
    };
    view! {
        <div class="vstage-tabs" role="radiogroup" aria-label=move || td_string!(locale.get(), forms.picker_source)>
            {tab(Source::Address, |locale| td_string!(locale, forms.picker_address_tab))}
            <Show when=move || account.offers_uploads()>
                {tab(Source::Device, |locale| td_string!(locale, forms.picker_device_tab))}
            </Show>
            <Show when=move || account.is_sandbox()>
                {tab(Source::Sample, |locale| td_string!(locale, forms.picker_sample_tab))}
            </Show>
        </div>
    }
}
