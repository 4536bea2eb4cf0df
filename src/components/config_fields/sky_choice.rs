//! Day to dusk's sky (dusk, golden hour, blue hour), as radio cards with a line on each and the sky's colours
//! from its top to the horizon, the sandbox's own.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::SKIES;
use super::draft::DraftFields;
use crate::describe;
use crate::locale::use_locale;

#[component]
pub fn SkyChoice(fields: DraftFields) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-skies" role="radiogroup" aria-label=move || td_string!(locale.get(), forms.config_sky)>
            {SKIES
                .iter()
                .map(|sky| {
                    let chosen = {
                        let sky = sky.clone();
                        move || fields.draft().sky == sky
                    };
                    let (pick, name, hint) = (sky.clone(), sky.clone(), sky.clone());
                    view! {
                        <label class="vstage-kind vstage-sky" class:vstage-kind--chosen=chosen.clone()>
                            <span class=format!("vstage-swatch vstage-swatch--{}", sky.as_str()) aria-hidden="true"></span>
                            <input
                                type="radio"
                                name=fields.dom("sky")
                                prop:checked=chosen.clone()
                                on:change=move |_| fields.edit(|d| d.sky = pick.clone())
                            />
                            <span class="vstage-kind__name">{move || describe::sky_style(locale.get(), &name)}</span>
                            <span class="vstage-kind__hint">{move || describe::sky_style_explained(locale.get(), &hint)}</span>
                        </label>
                    }
                })
                .collect_view()}
        </div>
    }
}
