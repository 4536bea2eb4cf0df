//! The bulk dialog's state: the chosen renders as read, the one configuration, whether the empty rooms are staged,
//! the plan worked out from them, and the sending with what each request did. Methods take each step in; the
//! sending's steps may come after the dialog is closed.

use leptos::prelude::*;

use super::model::{DRAFT_ID, Outcome, Reading};
use crate::config_draft::ConfigDraft;
use crate::locale::Locale;
use crate::variation_plan::{Plan, plan};

#[derive(Debug, Clone, Copy)]
pub struct BulkDialog {
    pub reading: RwSignal<Reading>,
    /// The one configuration, under `DRAFT_ID`.
    pub draft: RwSignal<Vec<(u32, ConfigDraft)>>,
    /// Staged on each render's own empty room, rather than the same settings for each.
    pub on_empty_rooms: RwSignal<bool>,
    /// What the sending will do, once the renders are read.
    pub plan: Memo<Option<Plan>>,
    pub sending: RwSignal<bool>,
    /// What each request of the last sending did.
    pub outcome: RwSignal<Vec<Outcome>>,
}

impl BulkDialog {
    /// The plan's reasons are in `locale`.
    pub fn new(locale: Signal<Locale>) -> Self {
        let reading = RwSignal::new(Reading::Pending);
        let draft = RwSignal::new(vec![(DRAFT_ID, ConfigDraft::default())]);
        let on_empty_rooms = RwSignal::new(false);
        let plan = Memo::new(move |_| {
            let Reading::Read(targets) = reading.get() else { return None };
            let draft = draft.with(|list| list.first().map(|(_, d)| d.clone()).unwrap_or_default());
            Some(plan(locale.get(), &targets, &draft, on_empty_rooms.get()))
        });
        BulkDialog {
            reading,
            draft,
            on_empty_rooms,
            plan,
            sending: RwSignal::new(false),
            outcome: RwSignal::new(Vec::new()),
        }
    }

    /// Takes where the reading is.
    pub fn read(&self, reading: Reading) {
        let _ = self.reading.try_set(reading);
    }

    /// Whether there is something to send and nothing is being sent.
    pub fn can_send(&self) -> bool {
        !self.sending.get() && self.plan.get().is_some_and(|plan| !plan.send.is_empty())
    }

    /// Starts sending: the plan to send, unless there is nothing to send or a sending is under way.
    pub fn start_sending(&self) -> Option<Plan> {
        let plan = self.plan.get_untracked()?;
        if plan.send.is_empty() || self.sending.get_untracked() {
            return None;
        }
        self.sending.set(true);
        self.outcome.set(Vec::new());
        Some(plan)
    }

    /// Takes what each request of the sending did.
    pub fn sent(&self, outcome: Vec<Outcome>) {
        let _ = self.outcome.try_set(outcome);
        let _ = self.sending.try_set(false);
    }
}

#[cfg(test)]
mod tests {
    use vstage_api::ApiError;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::variation_plan::Target;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_plan_waits_for_the_reading_and_one_sending_runs_at_a_time() {
        let owner = Owner::new();
        owner.with(|| {
            let dialog = BulkDialog::new(Signal::stored(Locale::en));
            assert_eq!(dialog.start_sending(), None, "nothing to send before the renders are read");
            dialog.read(Reading::Read(vec![
                Target::of("r1", "Kitchen.jpg", 20, &[]),
                Target::of("r2", "Hall.jpg", 0, &[]),
            ]));
            assert!(dialog.can_send());
            assert_eq!(dialog.plan.get_untracked().unwrap().left_out.len(), 1, "the full render is left out");

            let plan = dialog.start_sending().expect("one render to send to");
            assert_eq!(plan.send.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["r2"]);
            assert!(!dialog.can_send() && dialog.start_sending().is_none(), "not twice at once");
            let refused = Outcome::Refused { renders: 1, error: ApiError::Timeout { seconds: 30 } };
            dialog.sent(vec![refused.clone()]);
            assert_eq!((dialog.sending.get_untracked(), dialog.outcome.get_untracked()), (false, vec![refused]));

            dialog.on_empty_rooms.set(true);
            assert!(!dialog.can_send(), "neither render has an empty room to stage");
        });
    }
}
