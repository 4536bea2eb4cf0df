//! Furniture removal with a hand-corrected mask: choose a photo, run the service's analysis and see its mask over
//! the photo (brought into view), correct it in the mask editor, then create a render that removes exactly what the mask marks.
//! `state` holds where the page is, `model` works out its words and request, and the steps are components.

mod analysis;
mod masked;
mod model;
mod staging_choices;
mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::usage;

use self::analysis::{AnalysisShown, FOUND_ID};
use self::masked::MaskedSection;
use self::model::Step;
use self::state::FurnitureMaskState;
use crate::api::use_api;
use crate::components::cost_note::covered;
use crate::components::image_picker::ImagePicker;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::components::screen_heading::ScreenHeading;
use crate::components::submit_button::focus_the_first_refusal;
use crate::hooks::use_focus_after::use_focus_at_top;
use crate::locale::errors::{form_error, invalid};
use crate::locale::use_locale;
use crate::pages::use_render_created;

#[component]
pub fn FurnitureMask() -> impl IntoView {
    let locale = use_locale();
    let page = FurnitureMaskState::new();
    let FurnitureMaskState { image_url, step, failure, photo_error, working, .. } = page;
    // a new photo starts over
    Effect::new(move |_| {
        image_url.track();
        page.start_over();
    });
    // what was found is brought to the top of the view (not left below the fold) and focused
    use_focus_at_top(move || matches!(step.get(), Step::Analysed(_)), FOUND_ID);
    let analyze = analyzer(page);
    let on_remove = remover(page);

    view! {
        <section class="vstage-page" aria-labelledby="vstage-mask-title">
            <ScreenHeading id="vstage-mask-title">{move || td_string!(locale.get(), studio.mask_title)}</ScreenHeading>
            <p class="vstage-hint">{move || td_string!(locale.get(), studio.mask_hint)}</p>
            <ImagePicker image_url error=Signal::derive(move || photo_error.get().map(|error| invalid(locale.get(), &error))) />
            <Show when=move || matches!(step.get(), Step::Photo)>
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-analyze" disabled=move || working.get() on:click=analyze.clone()>
                        {move || if working.get() { td_string!(locale.get(), studio.mask_analysing) } else { td_string!(locale.get(), studio.mask_find) }}
                    </button>
                </div>
            </Show>
            {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{form_error(locale.get(), &error)}</p> })}
            {move || match step.get() {
                Step::Photo => ().into_any(),
                Step::Analysed(analysis) => view! { <AnalysisShown page analysis /> }.into_any(),
                Step::Editing { start_from } => view! {
                    <LazyMaskEditor
                        image_url=image_url.get_untracked()
                        start_from=start_from
                        on_done=move |mask_url: String| page.masked(mask_url)
                        on_cancel=move |()| page.start_over()
                    />
                }.into_any(),
                Step::Masked { mask_url } => view! { <MaskedSection page mask_url on_remove /> }.into_any(),
            }}
        </section>
    }
}

/// Runs the service's analysis of the photo, once its address does.
fn analyzer(page: FurnitureMaskState) -> impl Fn(leptos::ev::MouseEvent) + Clone + 'static {
    let api = use_api();
    move |ev: leptos::ev::MouseEvent| {
        let Some(request) = page.start_analysis() else {
            focus_the_first_refusal(&ev);
            return;
        };
        let api = api.clone();
        spawn_local(async move { page.analysed(api.analyze(&request).await) });
    }
}

/// Creates the render that removes what the mask at the address given marks; then what follows a new render.
fn remover(page: FurnitureMaskState) -> Callback<String> {
    let (api, created) = (use_api(), use_render_created());
    Callback::new(move |mask_url: String| {
        // What the agent's allowance cannot cover is not sent; the cost note says why.
        if !covered(usage::of_render(&untrack(|| page.removal(mask_url.clone())))) {
            return;
        }
        let request = page.start_removal(mask_url);
        let (api, created) = (api.clone(), created.clone());
        spawn_local(async move {
            if let Some(render) = page.finish_removal(api.create_render(&request).await) {
                created(render.id);
            }
        });
    })
}
