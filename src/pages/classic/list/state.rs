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
}

impl ClassicList {
    pub fn new() -> Self {
        ClassicList {
            renders: RwSignal::new(Vec::new()),
            cursor: RwSignal::new(None),
            loading: RwSignal::new(true),
            failure: RwSignal::new(None),
        }
    }

    /// Starts reading the first page again, or with `more` the one after those shown: the query for it.
    pub fn start_reading(&self, more: bool) -> ListRenders {
        let query = model::page_query(if more { self.cursor.get_untracked() } else { None });
        self.loading.set(true);
        query
    }

    /// Takes the answer to a read: a first page replaces the renders, a next one (`more`) adds to them. The page may
    /// be gone by then.
    pub fn read(&self, more: bool, answer: Result<v1::RenderPage, ApiError>) {
        match answer {
            Ok(page) => {
                let _ = self.renders.try_update(|list| {
                    if !more {
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
            assert_eq!(list.start_reading(true).cursor, None, "no cursor before a page");
            list.read(false, Ok(page(&["a", "b"], Some("b"))));
            assert_eq!(list.start_reading(true).cursor.as_deref(), Some("b"));
            assert!(list.loading.get_untracked());
            list.read(true, Ok(page(&["c"], None)));
            assert_eq!(ids(list), ["a", "b", "c"]);
            assert_eq!((list.cursor.get_untracked(), list.loading.get_untracked()), (None, false));

            list.read(true, Err(ApiError::Timeout { seconds: 30 }));
            assert_eq!(ids(list), ["a", "b", "c"], "a failed page keeps those shown");
            assert_eq!(list.failure.get_untracked(), Some(ApiError::Timeout { seconds: 30 }));
            list.read(false, Ok(page(&[], None)));
            assert_eq!((ids(list).len(), list.failure.get_untracked()), (0, None), "a try again starts afresh");
            assert!(list.none_found());
        });
    }
}
