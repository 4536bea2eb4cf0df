//! The classic render's before and after: the photo against the output chosen (else the newest), its caption
//! following the language without drawing the slider again.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::compared_output;
use super::state::ClassicRenderState;
use crate::components::before_after::BeforeAfter;
use crate::locale::use_locale;
use crate::pages::classic::model::outputs;

#[component]
pub fn BeforeAfterSection(page: ClassicRenderState) -> impl IntoView {
    let locale = use_locale();
    let ClassicRenderState { render, compare, .. } = page;
    move || {
        let loaded = render.get()?;
        let before = loaded.image_url.clone()?;
        let index = compared_output(compare.get(), loaded.outputs.len())?;
        let after = outputs(locale.get_untracked(), &loaded).into_iter().nth(index)?;
        let after_label = Signal::derive(move || {
            render.with(|loaded| {
                let caption = loaded.as_ref().and_then(|loaded| outputs(locale.get(), loaded).into_iter().nth(index));
                caption.map(|output| output.caption).unwrap_or_default()
            })
        });
        Some(view! {
            <section class="vstage-section" aria-label=move || td_string!(locale.get(), classic.render_before_after)>
                <h2>{move || td_string!(locale.get(), classic.render_before_after)}</h2>
                <BeforeAfter
                    before=Signal::stored(before)
                    after=Signal::stored(after.url)
                    before_label=Signal::derive(move || td_string!(locale.get(), classic.render_original).to_string())
                    after_label
                />
            </section>
        })
    }
}
