//! The classic renders list's state: the renders read so far, where the next page starts, whether a page is being
//! read and why the last read failed. Methods take each page in; the view only reads.

use leptos::prelude::*;
use vstage_api::{ApiError, ListRenders, v1};

use super::model;

#[derive(Debug, Clone, Copy)]
pub struct ClassicList {
    pub renders: RwSignal<Vec<v1::Render>>,
    /// Where the next page starts, while there is one.
    pub cursor: RwSignal<Option<String>>,
    pub loading: RwSignal<bool>,
    /// Why the last read failed, until one succeeds.
    pub failure: RwSignal<Option<ApiError>>,
    /// How many first pages were asked for: the list a read continues.
    first_reads: StoredValue<u64>,
}

/// A page being read: its query, whether it adds to the renders shown, and the list it continues.
pub struct PageRead {
    pub query: ListRenders,
    more: bool,
    continues: u64,
}

impl ClassicList {
    pub fn new() -> Self {
        ClassicList {
            renders: RwSignal::new(Vec::new()),
            cursor: RwSignal::new(None),
            loading: RwSignal::new(true),
            failure: RwSignal::new(None),
            first_reads: StoredValue::new(0),
        }
    }

    /// Starts reading the first page again (once more, or for another listing), or with `more` the one after those
    /// shown. A first page read replaces the list: reads started before it are of the list it replaces, and no next
    /// page is offered until it is read.
    pub fn start_reading(&self, more: bool) -> PageRead {
        if !more {
            self.first_reads.update_value(|reads| *reads += 1);
            self.cursor.set(None);
        }
        self.loading.set(true);
        let query = model::page_query(if more { self.cursor.get_untracked() } else { None });
        PageRead { query, more, continues: self.first_reads.get_value() }
    }

    /// Takes the answer to a read: a first page replaces the renders, a next one adds to them. The page may be gone
    /// by then, and a read of the list since replaced is dropped.
    pub fn read(&self, asked: &PageRead, answer: Result<v1::RenderPage, ApiError>) {
        if self.first_reads.try_get_value() != Some(asked.continues) {
            return;
        }
        match answer {
            Ok(page) => {
                let _ = self.renders.try_update(|list| {
                    if !asked.more {
                        list.clear();
                    }
                    list.extend(page.items);
                });
                let _ = self.cursor.try_set(page.next_cursor);
                let _ = self.failure.try_set(None);
            }
            Err(error) => {
                let _ = self.failure.try_set(Some(error));
            }
        }
        let _ = self.loading.try_set(false);
    }

    /// Whether the subject has no classic render: the list was read, without failing, and holds none.
    pub fn none_found(&self) -> bool {
        !self.loading.get() && self.failure.with(Option::is_none) && self.renders.with(Vec::is_empty)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn page(ids: &[&str], next: Option<&str>) -> v1::RenderPage {
        let items: Vec<_> = ids.iter().map(|id| json!({"render_id": id, "status": "done"})).collect();
        serde_json::from_value(json!({"items": items, "next_cursor": next})).unwrap()
    }

    fn ids(list: ClassicList) -> Vec<String> {
        list.renders.with_untracked(|renders| renders.iter().map(|r| r.render_id.clone()).collect())
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn pages_add_up_and_the_first_starts_again() {
        Owner::new().with(|| {
            let list = ClassicList::new();
            assert!(!list.none_found(), "nothing is said while the first page is read");
            let first = list.start_reading(false);
            assert_eq!(first.query.cursor, None, "no cursor before a page");
            list.read(&first, Ok(page(&["a", "b"], Some("b"))));
            let more = list.start_reading(true);
            assert_eq!(more.query.cursor.as_deref(), Some("b"));
            assert!(list.loading.get_untracked());
            list.read(&more, Ok(page(&["c"], None)));
            assert_eq!(ids(list), ["a", "b", "c"]);
            assert_eq!((list.cursor.get_untracked(), list.loading.get_untracked()), (None, false));

            list.read(&more, Err(ApiError::Timeout { seconds: 30 }));
            assert_eq!(ids(list), ["a", "b", "c"], "a failed page keeps those shown");
            assert_eq!(list.failure.get_untracked(), Some(ApiError::Timeout { seconds: 30 }));
            let again = list.start_reading(false);
            list.read(&again, Ok(page(&[], None)));
            assert_eq!((ids(list).len(), list.failure.get_untracked()), (0, None), "a try again starts afresh");
            assert!(list.none_found());
        });
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn reads_of_a_list_replaced_are_dropped() {
        Owner::new().with(|| {
            let list = ClassicList::new();
            let first = list.start_reading(false);
            list.read(&first, Ok(page(&["a", "b"], Some("b"))));
            let more = list.start_reading(true);
            // another listing's first page, asked while the next page of the first listing's is read
            let other = list.start_reading(false);
            assert_eq!(list.cursor.get_untracked(), None, "no next page offered while the first is read again");
            list.read(&more, Ok(page(&["c"], None)));
            assert_eq!(ids(list), ["a", "b"], "the next page of the list replaced is not added");
            list.read(&other, Ok(page(&["x"], None)));
            list.read(&first, Ok(page(&["a", "b"], None)));
            list.read(&more, Ok(page(&["c"], None)));
            assert_eq!(ids(list), ["x"], "nor are the list replaced's pages, whenever they come");
        });
    }
}
