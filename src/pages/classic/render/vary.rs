//! "Add a variation": room type, style from the variation list, the watermark, going to queued at once, waiting;
//! only while the render is done, with the service's refusals as sentences.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::v1;

use super::model::variation_styles;
use super::state::VaryForm;
use crate::api::use_api;
use crate::locale::use_locale;
use crate::pages::classic::model::{not_done_yet, refusal};
use crate::pages::classic::{ClassicOptions, RoomAndStyle};

#[component]
pub fn ClassicVary(
    render_id: Signal<String>,
    render: RwSignal<Option<v1::Render>>,
    /// Reads the render again once the variation is asked for.
    reload: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let options = ClassicOptions::load();
    let form = VaryForm::new();
    let VaryForm { room_type, style, sending, failure, .. } = form;
    let not_done = move || render.with(|r| not_done_yet(locale.get(), r.as_ref().map(|r| &r.status)));
    let submit = sender(form, render_id, reload, move || not_done().is_none());
    view! {
        <section class="vstage-section" aria-labelledby="vstage-classic-vary">
            <h2 id="vstage-classic-vary">{move || td_string!(locale.get(), classic.vary_title)}</h2>
            <form class="vstage-form" on:submit=submit novalidate>
                {options.view(move |options: v1::Options| {
                    let styles = variation_styles(&options);
                    view! {
                        <RoomAndStyle id="vstage-classic-vary" room_types=options.room_types styles room_type style />
                    }
                })}
                <Check checked=form.watermark>{move || td_string!(locale.get(), classic.watermark)}</Check>
                <Check checked=form.queued_at_once>{move || td_string!(locale.get(), classic.vary_queued_at_once)}</Check>
                <Check checked=form.wait>{move || td_string!(locale.get(), classic.vary_wait)}</Check>
                {move || not_done().map(|reason| view! { <p class="vstage-hint" id="vstage-classic-vary-why">{reason}</p> })}
                {move || failure.get().map(|error| view! { <p class="vstage-error" role="alert">{move || refusal(locale.get(), &error)}</p> })}
                <div class="vstage-form__actions">
                    <button
                        type="submit"
                        class="vstage-button"
                        disabled=move || sending.get() || not_done().is_some()
                        aria-describedby="vstage-classic-vary-why"
                    >
                        {move || if sending.get() {
                            td_string!(locale.get(), classic.sending)
                        } else {
                            td_string!(locale.get(), classic.vary_title)
                        }}
                    </button>
                </div>
            </form>
        </section>
    }
}

/// Asks for the variation, while the render is done; once it is asked, the render is read again.
fn sender(
    form: VaryForm,
    render_id: Signal<String>,
    reload: Callback<()>,
    render_done: impl Fn() -> bool + 'static,
) -> impl Fn(leptos::ev::SubmitEvent) + 'static {
    let api = use_api();
    move |ev| {
        ev.prevent_default();
        let Some(request) = form.start(render_done()) else { return };
        let api = api.clone();
        let id = render_id.get_untracked();
        spawn_local(async move {
            // the page may have been left meanwhile: then there is nothing to reload
            if form.finish(api.v1_create_variation(&id, &request).await) {
                let _ = reload.try_run(());
            }
        });
    }
}

/// A box to tick, with its words after it.
#[component]
fn Check(checked: RwSignal<bool>, children: Children) -> impl IntoView {
    view! {
        <label class="vstage-check">
            <input type="checkbox" prop:checked=move || checked.get() on:change=move |ev| checked.set(event_target_checked(&ev)) />
            {children()}
        </label>
    }
}
