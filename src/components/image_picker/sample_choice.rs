//! The photo picker's sandbox samples: each a button with its photo and description, pressed when chosen; a
//! placeholder while they are read.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::PickerState;
use crate::locale::use_locale;

#[component]
pub fn SampleChoice(picker: PickerState) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-samples">
            {move || match picker.samples.get() {
                None => view! {
                    <p class="vstage-skeleton">{move || td_string!(locale.get(), forms.picker_loading_samples)}</p>
                }.into_any(),
                Some(samples) => samples.into_iter().map(|sample| {
                    let url = sample.url.clone();
                    let chosen = {
                        let url = url.clone();
                        move || picker.image_url.get() == url
                    };
                    view! {
                        <button
                            type="button"
                            class="vstage-sample"
                            class:vstage-sample--chosen=chosen.clone()
                            aria-pressed=move || chosen().to_string()
                            on:click=move |_| picker.choose_sample(url.clone())
                        >
                            <img src=sample.url.clone() alt="" loading="lazy" />
                            <span>{sample.description.clone()}</span>
                        </button>
                    }
                }).collect_view().into_any(),
            }}
        </div>
    }
}
