//! The board's state: its renders as the server (or this screen alone) keeps them, each render's row, whether the
//! list was read, and the last change the server refused. Methods take each answer in; the view only reads.

use std::collections::HashMap;

use leptos::prelude::*;
use vstage_api::ApiError;
use vstage_api::board::{Board as SavedBoard, BoardRender};
use vstage_api::{GetRender, MAX_VARIATIONS_PER_RENDER};

use super::model::{BoardChange, Progress};
use crate::api::ApiClient;
use crate::locale::Locale;
use crate::locale::errors::api_error;
use crate::render_state::RenderState;

/// Whether the board's list has been read.
#[derive(Debug, Clone, PartialEq)]
pub enum Loading {
    Reading,
    Ready,
    Failed(ApiError),
}

/// A board row's render and what is known of it, kept by the board so that its progress and selection can read it.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub state: RenderState,
    pub selected: RwSignal<bool>,
    /// Bumped to read the render again (variations were added to it).
    pub refresh: RwSignal<u64>,
}

impl Default for Row {
    fn default() -> Self {
        Row::new()
    }
}

impl Row {
    pub fn new() -> Row {
        Row { state: RenderState::new(), selected: RwSignal::new(false), refresh: RwSignal::new(0) }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct BoardState {
    /// The renders on the board, in the order they were added.
    pub entries: RwSignal<Vec<BoardRender>>,
    pub loading: RwSignal<Loading>,
    /// Why the last change did not reach the server.
    pub failure: RwSignal<Option<ApiError>>,
    /// Each render's row, kept for the board's life (rows come and go; their state stays readable).
    rows: StoredValue<HashMap<String, Row>>,
    /// The board's owner: rows are made under it, so that they live as long as the board.
    owner: StoredValue<Owner>,
}

impl BoardState {
    /// An empty board being read, owned by the current owner (the board screen's).
    pub fn new() -> Self {
        BoardState {
            entries: RwSignal::new(Vec::new()),
            loading: RwSignal::new(Loading::Reading),
            failure: RwSignal::new(None),
            rows: StoredValue::new(HashMap::new()),
            owner: StoredValue::new(Owner::current().expect("a component runs under an owner")),
        }
    }

    /// The row of render `id`, made the first time it is asked for.
    pub fn row(&self, id: &str) -> Row {
        if let Some(row) = self.rows.with_value(|rows| rows.get(id).copied()) {
            return row;
        }
        let row = self.owner.with_value(|owner| owner.with(Row::new));
        self.rows.update_value(|rows| {
            rows.insert(id.to_string(), row);
        });
        row
    }

    /// Takes the answer to reading the board; a board never kept (404) is an empty one.
    pub fn loaded(&self, answer: Result<SavedBoard, ApiError>) {
        let loading = match answer {
            Ok(board) => {
                self.entries.set(board.renders);
                Loading::Ready
            }
            Err(error) if error.status() == Some(404) => Loading::Ready,
            Err(error) => Loading::Failed(error),
        };
        let _ = self.loading.try_set(loading);
    }

    /// Takes the server's answer to a change: the board as it now keeps it, or why it did not.
    pub fn changed(&self, answer: Result<SavedBoard, ApiError>) {
        match answer {
            Ok(board) => {
                self.entries.set(board.renders);
                let _ = self.failure.try_set(None);
            }
            Err(error) => {
                let _ = self.failure.try_set(Some(error));
            }
        }
    }

    /// Makes a change on this screen only, when no server keeps the board.
    pub fn change_locally(&self, change: BoardChange) {
        self.entries.update(|list| change.apply_locally(list));
    }

    /// How far the variations of every render on the board are.
    pub fn progress(&self) -> Progress {
        self.entries.with(|list| {
            list.iter().fold(Progress::default(), |sum, entry| {
                sum + self.row(&entry.render_id).state.variations.with(|variations| Progress::of(variations))
            })
        })
    }

    /// The selected renders, each with its label.
    pub fn selected(&self) -> Vec<(String, String)> {
        self.entries.with(|list| {
            list.iter()
                .filter(|entry| self.row(&entry.render_id).selected.get())
                .map(|entry| (entry.render_id.clone(), entry.label.clone()))
                .collect()
        })
    }

    /// Has the rows of renders `ids` read them again: their new variations show, and polling or events take them
    /// from there.
    pub fn refresh(&self, ids: Vec<String>) {
        for id in ids {
            self.row(&id).refresh.update(|n| *n += 1);
        }
    }
}

/// Reads render `id`, with all its variations, into `state`; a failure is worded in the studio's language.
pub async fn read_render(api: &ApiClient, id: &str, state: RenderState, locale: Signal<Locale>) {
    let query = GetRender {
        include_variations: Some(true),
        variations_limit: Some(MAX_VARIATIONS_PER_RENDER as u32),
        ..GetRender::default()
    };
    match api.get_render(id, &query).await {
        Ok(fresh) => state.read(fresh),
        Err(error) => state.failed(api_error(locale.get_untracked(), &error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn entry(id: &str, label: &str) -> BoardRender {
        BoardRender { render_id: id.to_string(), label: label.to_string() }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_board_takes_its_reads_and_changes_and_keeps_each_rows_state() {
        let owner = Owner::new();
        owner.with(|| {
            let state = BoardState::new();
            state.loaded(Err(ApiError::Http { status: 404, message: None }));
            assert_eq!(state.loading.get_untracked(), Loading::Ready, "a board never kept is an empty one");
            state.loaded(Ok(SavedBoard { renders: vec![entry("a", "Living.jpg"), entry("b", "")] }));
            assert_eq!(state.entries.with_untracked(Vec::len), 2);

            state.row("b").selected.set(true);
            assert!(state.row("b").selected.get_untracked(), "a render keeps one row");
            assert_eq!(state.selected(), [("b".to_string(), String::new())]);
            assert_eq!(state.progress(), Progress::default());
            state.refresh(vec!["a".to_string()]);
            assert_eq!(state.row("a").refresh.get_untracked(), 1);

            let refused = ApiError::Http { status: 500, message: None };
            state.changed(Err(refused.clone()));
            assert_eq!(state.failure.get_untracked(), Some(refused.clone()));
            state.changed(Ok(SavedBoard { renders: vec![entry("a", "Living.jpg")] }));
            assert_eq!(state.failure.get_untracked(), None);
            assert!(state.selected().is_empty(), "only the renders on the board are selected");
            state.change_locally(BoardChange::Clear);
            assert!(state.entries.with_untracked(Vec::is_empty));
            state.loaded(Err(refused.clone()));
            assert_eq!(state.loading.get_untracked(), Loading::Failed(refused));
        });
    }
}
