//! The render page's "Add variations": how many more the render takes, and the form that adds one configuration's
//! variations (opened empty, or as "stage this empty room" on a removal variation).

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::usage;
use vstage_api::{AddVariations as AddRequest, ApiError, MAX_VARIATIONS_PER_RENDER, ValidationError, Variation};

use crate::account::use_account;
use crate::api::use_api;
use crate::chunks::{chunk, screen};
use crate::components::config_list::ConfigList;
use crate::components::cost_note::{CostNote, covered};
use crate::config_draft::{ConfigDraft, total};
use crate::hooks::use_focus_after::use_focus_after;
use crate::locale::errors::form_error;
use crate::locale::use_locale;
use crate::plural;

/// The form's state, shared with the page so that a variation card can open it with a draft.
#[derive(Debug, Clone, Copy)]
pub struct AddForm {
    open: RwSignal<bool>,
    drafts: RwSignal<Vec<(u32, ConfigDraft)>>,
    error: RwSignal<Option<ValidationError>>,
    /// The last call's failure, put in words when shown.
    failure: RwSignal<Option<ApiError>>,
    sending: RwSignal<bool>,
}

impl AddForm {
    pub fn new() -> Self {
        AddForm {
            open: RwSignal::new(false),
            drafts: RwSignal::new(vec![(0, ConfigDraft::default())]),
            error: RwSignal::new(None),
            failure: RwSignal::new(None),
            sending: RwSignal::new(false),
        }
    }

    /// Opens the form with `draft`.
    pub fn open_with(&self, draft: ConfigDraft) {
        self.error.set(None);
        self.failure.set(None);
        self.drafts.set(vec![(0, draft)]);
        self.open.set(true);
    }
}

#[component]
pub fn AddVariationsSection(
    #[prop(into)] render_id: Signal<String>,
    form: AddForm,
    /// Variations the render has now.
    #[prop(into)]
    existing: Signal<u64>,
    /// The render's variations, by which an addition's cost is said (`usage::of_adding_to`).
    #[prop(into)]
    variations: Signal<Vec<Variation>>,
    /// Called with the variations the service added.
    on_added: Callback<Vec<Variation>>,
) -> impl IntoView {
    let locale = use_locale();
    // "Stage this empty room" on a card far above opens the form here: it comes into view.
    use_focus_after(move || form.open.get(), "vstage-add-title");
    let left = move || MAX_VARIATIONS_PER_RENDER.saturating_sub(existing.get());
    view! {
        <section class="vstage-section" aria-labelledby="vstage-add-title">
            <h2 id="vstage-add-title" tabindex="-1">{move || td_string!(locale.get(), studio.add_variations)}</h2>
            {move || if !form.open.get() {
                view! {
                    <p class="vstage-muted">{move || {
                        let left = left();
                        plural!(locale.get(), left, studio.add_more_singular, studio.add_more_plural, count = left)
                    }}</p>
                    <button class="vstage-button" disabled=move || left() == 0 on:click=move |_| form.open_with(ConfigDraft::default())>
                        {move || td_string!(locale.get(), studio.add_variations)}
                    </button>
                }.into_any()
            } else {
                // The form's code (the configuration's fields) is fetched when it is first opened.
                screen(move || Box::pin(add_variations_form(render_id, form, existing, variations, on_added)))
            }}
        </section>
    }
}

chunk! {
    fn add_variations_form(
        render_id: Signal<String>,
        form: AddForm,
        existing: Signal<u64>,
        variations: Signal<Vec<Variation>>,
        on_added: Callback<Vec<Variation>>,
    ) -> AnyView {
        view! { <AddVariationsForm render_id form existing variations on_added /> }.into_any()
    }
}

/// The open form: the configuration, its cost, and "Add", which sends it.
#[component]
fn AddVariationsForm(
    render_id: Signal<String>,
    form: AddForm,
    existing: Signal<u64>,
    variations: Signal<Vec<Variation>>,
    on_added: Callback<Vec<Variation>>,
) -> impl IntoView {
    let locale = use_locale();
    let left = move || MAX_VARIATIONS_PER_RENDER.saturating_sub(existing.get());
    let cost = Signal::derive(move || {
        let (_, draft) = form.drafts.with(|drafts| drafts.first().cloned())?;
        Some(variations.with(|list| usage::of_adding_to(list, &draft.to_config())))
    });
    let submit = submitter(render_id, form, existing, cost, on_added);
    let nothing_to_add = move || total(&form.drafts.get().into_iter().map(|(_, d)| d).collect::<Vec<_>>(), 0) == 0;
    view! {
        <form class="vstage-form" on:submit=move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            submit.run(());
        } novalidate>
            <p class="vstage-muted">{move || {
                let left = left();
                plural!(locale.get(), left, studio.add_left_singular, studio.add_left_plural, left = left, max = MAX_VARIATIONS_PER_RENDER)
            }}</p>
            <ConfigList drafts=form.drafts existing error=form.error />
            <CostNote cost />
            {move || form.failure.get().map(|error| view! { <p class="vstage-error" role="alert">{form_error(locale.get(), &error)}</p> })}
            <div class="vstage-form__actions">
                <button type="submit" class="vstage-button" disabled=move || form.sending.get() || nothing_to_add()>
                    {move || if form.sending.get() { td_string!(locale.get(), studio.adding) } else { td_string!(locale.get(), studio.add) }}
                </button>
                <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| form.open.set(false)>{move || td_string!(locale.get(), studio.cancel)}</button>
            </div>
        </form>
    }
}

/// Checks the form and sends it: the variations added close it and go to `on_added`.
fn submitter(
    render_id: Signal<String>,
    form: AddForm,
    existing: Signal<u64>,
    cost: Signal<Option<usage::Cost>>,
    on_added: Callback<Vec<Variation>>,
) -> Callback<()> {
    let (api, account) = (use_api(), use_account());
    Callback::new(move |()| {
        let Some((_, draft)) = form.drafts.get_untracked().first().cloned() else { return };
        let request = AddRequest { config: draft.to_config(), variation_count: draft.count, wait_for_completion: None };
        let existing = existing.get_untracked();
        if let Err(invalid) = request.validate(Some(existing)) {
            form.error.set(Some(invalid));
            return;
        }
        if !cost.get_untracked().is_none_or(covered) {
            return;
        }
        form.error.set(None);
        form.failure.set(None);
        form.sending.set(true);
        let api = api.clone();
        let id = render_id.get_untracked();
        spawn_local(async move {
            match api.add_variations(&id, &request, Some(existing)).await {
                Ok(added) => {
                    account.refresh();
                    form.open.set(false);
                    on_added.run(added.variations);
                }
                Err(ApiError::Invalid(invalid)) => form.error.set(Some(invalid)),
                Err(other) => form.failure.set(Some(other)),
            }
            form.sending.set(false);
        });
    })
}
