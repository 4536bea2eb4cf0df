//! One draft of a form as its fields see it: read from the form's list by id, edited in place, its variation
//! count as typed (never changed behind the person's back: more than is left of the render's 20 is said at once and
//! refused when sent), and the form's validation error when it is about one of its fields.

use leptos::prelude::*;
use vstage_api::ValidationError;

use crate::config_draft::{ConfigDraft, count_limit, error_for};
use crate::locale::{Locale, errors};

/// The drafts of a form, each with a stable id for keyed lists.
pub type Drafts = RwSignal<Vec<(u32, ConfigDraft)>>;

/// The draft `id` of `drafts`, for the components of its fields.
#[derive(Clone, Copy)]
pub struct DraftFields {
    id: u32,
    drafts: Drafts,
    /// Variations the render already has (0 for a new render).
    existing: Signal<u64>,
}

impl DraftFields {
    pub fn new(id: u32, drafts: Drafts, existing: Signal<u64>) -> Self {
        DraftFields { id, drafts, existing }
    }

    pub fn id(&self) -> u32 {
        self.id
    }

    /// Its place in the form (tracked).
    pub fn index(&self) -> usize {
        self.drafts.with(|list| list.iter().position(|(i, _)| *i == self.id).unwrap_or(0))
    }

    /// The draft as it stands (tracked).
    pub fn draft(&self) -> ConfigDraft {
        let id = self.id;
        self.drafts.with(|list| list.iter().find(|(i, _)| *i == id).map(|(_, d)| d.clone())).unwrap_or_default()
    }

    pub fn edit(&self, change: impl FnOnce(&mut ConfigDraft)) {
        let id = self.id;
        self.drafts.update(|list| {
            if let Some((_, draft)) = list.iter_mut().find(|(i, _)| *i == id) {
                change(draft);
            }
        })
    }

    /// The most variations this draft may make, given the others and the render's (tracked).
    pub fn limit(&self) -> u64 {
        let plain: Vec<ConfigDraft> = self.drafts.get().into_iter().map(|(_, d)| d).collect();
        count_limit(&plain, self.index(), self.existing.get())
    }

    /// The count as typed (a count that is not a number is 0, which the form refuses).
    pub fn set_count(&self, typed: &str) {
        let requested: u64 = typed.trim().parse().unwrap_or(0);
        self.edit(|d| d.count = requested);
    }

    /// The most this draft may ask for, when it asks for more (tracked).
    pub fn over(&self) -> Option<u64> {
        let limit = self.limit();
        (self.draft().count > limit).then_some(limit)
    }

    /// A document id of this draft's `name` field.
    pub fn dom(&self, name: &str) -> String {
        format!("vstage-config-{}-{name}", self.id)
    }

    /// `error` in words when it is about this draft's `field` (`config` takes all but the count) (tracked).
    pub fn error_about(&self, error: Option<ValidationError>, field: &str, locale: Locale) -> Option<String> {
        let single = self.drafts.with(Vec::len) == 1;
        let error = error?;
        let matched = error_for(&error, self.index(), single)?;
        (matched == field || (field == "config" && matched != "variation_count"))
            .then(|| errors::invalid(locale, &error))
    }
}
