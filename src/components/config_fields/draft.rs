//! One draft of a form as its fields see it: read from the form's list by id, edited in place, its variation
//! count held within what is left of the render's 20, and the form's validation error when it is about one of
//! its fields.

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
    /// The count the person asked for was more than is left: the count it was held to.
    clamped: RwSignal<Option<u64>>,
}

impl DraftFields {
    pub fn new(id: u32, drafts: Drafts, existing: Signal<u64>) -> Self {
        DraftFields { id, drafts, existing, clamped: RwSignal::new(None) }
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

    /// After a change of kind or removal, which can change how many variations the draft makes: the count is
    /// held within bounds again.
    pub fn refit(&self) {
        let (list, existing) = (self.drafts.get_untracked(), self.existing.get_untracked());
        let plain: Vec<ConfigDraft> = list.iter().map(|(_, d)| d.clone()).collect();
        let position = list.iter().position(|(i, _)| *i == self.id).unwrap_or(0);
        let limit = count_limit(&plain, position, existing);
        if plain.get(position).is_some_and(|d| d.count > limit) {
            self.edit(|d| d.count = limit.max(1));
            self.clamped.set(Some(limit.max(1)));
        }
    }

    /// The count as typed, held to what is left.
    pub fn set_count(&self, typed: &str) {
        let requested: u64 = typed.trim().parse().unwrap_or(0);
        let plain: Vec<ConfigDraft> = self.drafts.get_untracked().into_iter().map(|(_, d)| d).collect();
        let position = self.drafts.with_untracked(|list| list.iter().position(|(i, _)| *i == self.id).unwrap_or(0));
        let limit = count_limit(&plain, position, self.existing.get_untracked());
        self.clamped.set((requested > limit).then_some(limit));
        self.edit(|d| d.count = requested.min(limit));
    }

    /// The count the last one typed was held to, if it was (tracked).
    pub fn clamped(&self) -> Option<u64> {
        self.clamped.get()
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
