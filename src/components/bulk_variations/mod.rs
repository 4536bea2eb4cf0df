//! "Add variations to selected": one configuration for several renders, or their empty rooms staged, sent with
//! `POST /v2/renders/variations/bulk` after each render was read again and checked for room; those left out are named.
//! `state` holds the dialog, `model` (with `crate::variation_plan`) works it out, and each part is a component.

mod left_out;
mod mode_tabs;
mod model;
mod reading_note;
mod sending;
mod state;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::ValidationError;

use self::left_out::LeftOut;
use self::mode_tabs::ModeTabs;
use self::model::{DRAFT_ID, Outcome, Reading};
use self::reading_note::ReadingNote;
use self::sending::Sending;
use self::state::BulkDialog;
use crate::api::use_api;
use crate::chunks::{chunk, screen};
use crate::components::config_fields::ConfigFields;
use crate::components::cost_note::{CostNote, covered};
use crate::locale::use_locale;

/// The dialog for `chosen`, its code fetched when it is first opened (the renders list and the board offer it).
pub fn lazy_dialog(chosen: Vec<(String, String)>, on_added: Callback<Vec<String>>, on_close: Callback<()>) -> AnyView {
    screen(move || Box::pin(bulk_variations_dialog(chosen.clone(), on_added, on_close)))
}

chunk! {
    fn bulk_variations_dialog(
        chosen: Vec<(String, String)>,
        on_added: Callback<Vec<String>>,
        on_close: Callback<()>,
    ) -> AnyView {
        view! { <BulkVariations chosen on_added on_close /> }.into_any()
    }
}

#[component]
pub fn BulkVariations(
    /// The chosen renders: id and the name the person knows them by.
    chosen: Vec<(String, String)>,
    /// Called with the ids of the renders that got variations.
    #[prop(into)]
    on_added: Callback<Vec<String>>,
    #[prop(into)] on_close: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let dialog = BulkDialog::new(locale);
    read_renders(dialog, chosen);
    let send = sender(dialog, on_added);
    view! {
        <div class="vstage-dialog" role="dialog" aria-modal="true" aria-labelledby="vstage-bulk-title">
            <h2 id="vstage-bulk-title">{move || td_string!(locale.get(), studio.bulk_title)}</h2>
            <ModeTabs on_empty_rooms=dialog.on_empty_rooms />
            <ConfigFields id=DRAFT_ID drafts=dialog.draft existing=Signal::stored(0) error=Signal::stored(None::<ValidationError>) />
            <ReadingNote reading=dialog.reading />
            <LeftOut plan=dialog.plan />
            <CostNote cost=Signal::derive(move || dialog.plan.get().map(|plan| plan.cost)) />
            <Sending dialog on_send=send on_close />
        </div>
    }
}

/// Reads each chosen render now: its variation count and empty room, as they are at this moment.
fn read_renders(dialog: BulkDialog, chosen: Vec<(String, String)>) {
    let api = use_api();
    spawn_local(async move {
        let query = model::read_query();
        let mut targets = Vec::new();
        for (id, label) in chosen {
            match api.get_render(&id, &query).await {
                Ok(render) => targets.push(model::target_of(&id, &label, &render)),
                Err(error) => {
                    dialog.read(Reading::Failed { label, error });
                    return;
                }
            }
        }
        dialog.read(Reading::Read(targets));
    });
}

/// Sends the plan, request by request, and hands the renders that got variations to `on_added`.
fn sender(dialog: BulkDialog, on_added: Callback<Vec<String>>) -> Callback<()> {
    let api = use_api();
    Callback::new(move |()| {
        if !dialog.plan.get_untracked().is_none_or(|plan| covered(plan.cost)) {
            return;
        }
        let Some(plan) = dialog.start_sending() else { return };
        let api = api.clone();
        spawn_local(async move {
            let mut added_to = Vec::new();
            let mut outcome = Vec::new();
            for request in model::requests(&plan.send) {
                let renders = request.renders.len();
                match api.bulk_add_variations(&request).await {
                    Ok(added) => {
                        outcome.push(Outcome::Added { variations: added.results.len(), renders });
                        added_to.extend(request.renders.into_iter().map(|entry| entry.render_id));
                    }
                    Err(error) => outcome.push(Outcome::Refused { renders, error }),
                }
            }
            dialog.sent(outcome);
            // the dialog's page may have been left while the variations were added
            if !added_to.is_empty() {
                let _ = on_added.try_run(added_to);
            }
        });
    })
}
