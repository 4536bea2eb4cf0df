//! The renders list's state: the order chosen, the renders read so far and where the next page starts, the
//! service's count, what is being read (or why it failed), and the renders chosen for more variations. Methods take
//! each page in; the view only reads.

use leptos::prelude::*;
use vstage_api::{ApiError, ListRenders, Render, RenderPage, SortOrder};

use super::model::{self, Loading};

#[derive(Debug, Clone, Copy)]
pub struct RendersList {
    pub order: RwSignal<SortOrder>,
    pub renders: RwSignal<Vec<Render>>,
    /// Where the next page starts, while there is one.
    pub cursor: RwSignal<Option<String>>,
    /// The service's count of the account's renders.
    pub total: RwSignal<Option<u64>>,
    pub loading: RwSignal<Loading>,
    /// Renders chosen for "Add variations to selected", by id.
    pub selection: RwSignal<Vec<String>>,
    /// How many first pages were asked for. A next page asked before the newest of them is of a list no longer
    /// shown: another order, another listing, or the list read again.
    first_reads: StoredValue<u64>,
}

/// A next page being read: its query, and which first page's list it continues.
pub struct NextPage {
    pub query: ListRenders,
    continues: u64,
}

impl RendersList {
    pub fn new() -> Self {
        RendersList {
            order: RwSignal::new(SortOrder::Desc),
            renders: RwSignal::new(Vec::new()),
            cursor: RwSignal::new(None),
            total: RwSignal::new(None),
            loading: RwSignal::new(Loading::First),
            selection: RwSignal::new(Vec::new()),
            first_reads: StoredValue::new(0),
        }
    }

    /// Starts reading the list from its first page (in another order, for another listing, or again): the next
    /// pages asked for until now are of the list it replaces, and none is offered until the first page is read.
    pub fn start_first_page(&self) {
        self.first_reads.update_value(|reads| *reads += 1);
        self.cursor.set(None);
    }

    /// Takes the first page's answer, `None` while it is read: it starts the list again.
    pub fn first_page(&self, answer: Option<Result<RenderPage, ApiError>>) {
        match answer {
            None => self.loading.set(Loading::First),
            Some(Ok(page)) => {
                self.renders.set(page.items);
                self.cursor.set(page.next_cursor);
                self.total.set(page.total_count);
                self.loading.set(Loading::Idle);
            }
            Some(Err(error)) => {
                self.renders.set(Vec::new());
                self.loading.set(Loading::Failed(error));
            }
        }
    }

    /// Starts reading the next page: the query for it, in the order shown now.
    pub fn start_next_page(&self) -> NextPage {
        self.loading.set(Loading::More);
        let query = model::page_query(self.order.get_untracked(), self.cursor.get_untracked());
        NextPage { query, continues: self.first_reads.get_value() }
    }

    /// Takes the answer to `asked` (from `start_next_page`), added at the end; a page of a list read from its first
    /// page since (another order, another listing, or again) is no page of the list shown.
    pub fn next_page(&self, asked: &NextPage, answer: Result<RenderPage, ApiError>) {
        if asked.continues != self.first_reads.get_value() {
            return;
        }
        match answer {
            Ok(page) => {
                self.renders.update(|list| list.extend(page.items));
                self.cursor.set(page.next_cursor);
                self.total.set(page.total_count);
                self.loading.set(Loading::Idle);
            }
            Err(error) => self.loading.set(Loading::Failed(error)),
        }
    }

    /// The chosen renders, each with the name it goes by in the dialog.
    pub fn chosen(&self) -> Vec<(String, String)> {
        let chosen = self.selection.get_untracked();
        self.renders.with_untracked(|list| {
            list.iter().filter(|r| chosen.contains(&r.id)).map(|r| (r.id.clone(), model::render_name(r))).collect()
        })
    }

    /// Whether there are cards to show: the first page is read and has renders.
    pub fn has_cards(&self) -> bool {
        self.loading.get() != Loading::First && !self.renders.with(Vec::is_empty)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn page(ids: &[&str], next: Option<&str>) -> RenderPage {
        let items: Vec<_> = ids.iter().map(|id| json!({"id": id, "created_at": 1, "eta": null})).collect();
        serde_json::from_value(json!({"items": items, "next_cursor": next, "total_count": 3})).unwrap()
    }

    fn ids(list: RendersList) -> Vec<String> {
        list.renders.with_untracked(|renders| renders.iter().map(|r| r.id.clone()).collect())
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn pages_add_up_until_the_list_is_read_from_its_first_page_again() {
        let owner = Owner::new();
        owner.with(|| {
            let list = RendersList::new();
            list.first_page(None);
            assert!(!list.has_cards(), "skeletons while the first page is read");
            list.first_page(Some(Ok(page(&["a", "b"], Some("b")))));
            assert!(list.has_cards());
            assert_eq!(list.total.get_untracked(), Some(3));

            let asked = list.start_next_page();
            assert_eq!((asked.query.cursor.as_deref(), list.loading.get_untracked()), (Some("b"), Loading::More));
            list.next_page(&asked, Ok(page(&["c"], None)));
            assert_eq!(ids(list), ["a", "b", "c"]);
            assert_eq!((list.cursor.get_untracked(), list.loading.get_untracked()), (None, Loading::Idle));

            // The first page read again (as its resource does for another order or listing) while a next one is.
            list.first_page(Some(Ok(page(&["a", "b"], Some("b")))));
            let asked = list.start_next_page();
            list.order.set(SortOrder::Asc);
            list.start_first_page();
            assert_eq!(list.cursor.get_untracked(), None, "no next page offered while the first is read again");
            list.next_page(&asked, Ok(page(&["c"], None)));
            assert_eq!(ids(list), ["a", "b"], "a page of the list replaced is not added");
            list.first_page(Some(Ok(page(&["z"], None))));
            list.next_page(&asked, Ok(page(&["c"], None)));
            assert_eq!(ids(list), ["z"], "nor added to the list that replaced it, whenever it comes");

            list.selection.set(vec!["z".into(), "gone".into()]);
            assert_eq!(list.chosen(), [("z".to_string(), "z".to_string())]);
            list.first_page(Some(Err(ApiError::Timeout { seconds: 30 })));
            assert!(!list.has_cards());
            assert_eq!(list.loading.get_untracked(), Loading::Failed(ApiError::Timeout { seconds: 30 }));
        });
    }
}
