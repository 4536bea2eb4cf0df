//! Day to dusk's sky (dusk, golden hour, blue hour), as radio cards: a small picture of the sample house under the
//! sky (made by the server, `GET /api/examples/sky/{sky}.jpg`, loaded only when scrolled near), its name and a line.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::SkyStyle;

use super::SKIES;
use super::draft::DraftFields;
use crate::components::example_picture::ExamplePicture;
use crate::describe;
use crate::locale::{Locale, use_locale};

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
                    let (pick, name, hint, alt) = (sky.clone(), sky.clone(), sky.clone(), sky.clone());
                    let name_id = fields.dom(&format!("sky-{}", sky.as_str()));
                    view! {
                        <label class="vstage-kind vstage-sky" class:vstage-kind--chosen=chosen.clone()>
                            <ExamplePicture
                                kind="sky"
                                name=sky.as_str()
                                alt=Signal::derive(move || example_alt(locale.get(), &alt))
                            />
                            <input
                                type="radio"
                                name=fields.dom("sky")
                                aria-labelledby=name_id.clone()
                                prop:checked=chosen.clone()
                                on:change=move |_| fields.edit(|d| d.sky = pick.clone())
                            />
                            <span class="vstage-kind__name" id=name_id>{move || describe::sky_style(locale.get(), &name)}</span>
                            <span class="vstage-kind__hint">{move || describe::sky_style_explained(locale.get(), &hint)}</span>
                        </label>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// "The sample house under the Dusk sky": what the example picture of `sky` shows.
fn example_alt(locale: Locale, sky: &SkyStyle) -> String {
    td_string!(locale, forms.sky_example_alt, sky = describe::sky_style(locale, sky)).to_string()
}
