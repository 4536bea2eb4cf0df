//! A new render: the photo, one or more configurations with their counts (20 variations at most in all), and the
//! advanced options. Its staging starts from what the studio knows: furniture removed first where the photo's
//! analysis finds some (`furniture`), the "Virtually staged" mark on where the listing's rules ask for one. Everything is checked with `vstage-api`'s rules before sending; errors sit by their field.
//! `state` holds the form, `model` works out its request and words, and the sections are components of their own.

mod advanced;
mod furniture;
pub mod model;
mod more_views;
mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::usage;

use self::advanced::AdvancedOptions;
use self::furniture::{FurnitureNote, staging_defaults};
use self::more_views::MoreViews;
use self::state::NewRenderForm;
use crate::api::use_api;
use crate::attributes::ListingPhoto;
use crate::components::config_fields::MaskRequest;
use crate::components::config_list::ConfigList;
use crate::components::cost_note::{CostNote, covered};
use crate::components::image_picker::ImagePicker;
use crate::components::mask_dialog::lazy_mask_dialog;
use crate::components::screen_heading::ScreenHeading;
use crate::components::submit_button::{SubmitButton, focus_the_first_refusal};
use crate::locale::errors::{form_error, invalid};
use crate::locale::use_locale;
use crate::pages::use_render_created;

#[component]
pub fn NewRender() -> impl IntoView {
    let locale = use_locale();
    let form = NewRenderForm::new();
    follow_listing_photo(form.image_url);
    let (furnishing, checking) = staging_defaults(form);
    let submit = sender(form, checking);
    provide_context(MaskRequest(Callback::new(move |id: u32| form.open_mask(id, locale.get_untracked()))));
    recheck_on_change(form);
    let photo_error = Signal::derive(move || form.error_on("image_url").map(|error| invalid(locale.get(), &error)));

    view! {
        <section class="vstage-page" aria-labelledby="vstage-new-title">
            <ScreenHeading id="vstage-new-title">{move || td_string!(locale.get(), studio.new_render)}</ScreenHeading>
            <form class="vstage-form" on:submit=submit novalidate>
                <ImagePicker image_url=form.image_url error=photo_error broken=form.photo_broken />
                <FurnitureNote furnishing drafts=form.drafts />
                <ConfigList drafts=form.drafts existing=Signal::stored(0) error=form.error multiple=true />
                <MoreViews form />
                <AdvancedOptions form />
                <CostNote cost=Signal::derive(move || Some(usage::of_render(&form.request()))) />
                {move || form.failure.get().map(|error| view! { <p class="vstage-error" role="alert">{form_error(locale.get(), &error)}</p> })}
                <SubmitButton
                    busy=Signal::derive(move || form.sending.get() || checking.get())
                    words=Signal::derive(move || match checking.get() && !form.sending.get() {
                        true => td_string!(locale.get(), forms.furnishing_checking).to_string(),
                        false => model::submit_words(locale.get(), form.sending.get(), form.wait.get()).to_string(),
                    })
                />
            </form>
            {move || form.masking.get().map(|id| lazy_mask_dialog(
                Signal::derive(move || td_string!(locale.get(), studio.new_custom_mask).to_string()),
                Signal::derive(move || td_string!(locale.get(), studio.new_mask_hint).to_string()),
                form.image_url.get_untracked(),
                Callback::new(move |url: String| form.take_mask(id, url)),
                Callback::new(move |()| form.masking.set(None)),
            ))}
        </section>
    }
}

/// A refusal on screen goes, or changes, as soon as the form changes: the request is checked again on each change
/// while one is shown, so a fixed field's message never stays.
fn recheck_on_change(form: NewRenderForm) {
    let locale = use_locale();
    Effect::new(move |_| {
        let checked = form.check(&form.request(), locale.get());
        if form.error.get_untracked().is_some() {
            form.error.set(checked.err());
        }
    });
}

/// Starts the photo at the listing's, when the host gives one, and takes each other one it gives later.
fn follow_listing_photo(image_url: RwSignal<String>) {
    let Some(ListingPhoto(photo)) = use_context::<ListingPhoto>() else { return };
    if let Some(first) = photo.get_untracked() {
        image_url.set(first);
    }
    Effect::new(move |first: Option<()>| {
        let photo = photo.get();
        if let (Some(()), Some(photo)) = (first, photo) {
            image_url.set(photo);
        }
    });
}

/// Sends the form, once the photo's furniture is known; on success, what follows a new render (its page).
fn sender(form: NewRenderForm, checking: Signal<bool>) -> impl Fn(leptos::ev::SubmitEvent) + Clone + 'static {
    let (api, created, locale) = (use_api(), use_render_created(), use_locale());
    move |ev| {
        ev.prevent_default();
        // the button says the photo's furniture is being looked for; nothing is sent before it is known
        if checking.get_untracked() {
            return;
        }
        let Some(request) = form.start(locale.get_untracked()) else {
            focus_the_first_refusal(&ev);
            return;
        };
        // What the agent's allowance cannot cover is not sent; the cost note says why.
        if !covered(usage::of_render(&request)) {
            form.sending.set(false);
            return;
        }
        let (api, created) = (api.clone(), created.clone());
        spawn_local(async move {
            if let Some(render) = form.finish(api.create_render(&request).await) {
                created(render.id);
            }
        });
    }
}
