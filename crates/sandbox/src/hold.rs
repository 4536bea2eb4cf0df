//! Holding an account's work, the sandbox's pause button for tests and demos: while an account holds, the workers
//! take none of its queued variations, so "still at work" lasts until it lets go, however fast or slow the
//! machine. `POST /sandbox/hold` holds, `DELETE /sandbox/hold` lets go.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use vstage_api::Message;

use crate::SandboxState;
use crate::auth::Authenticated;

/// The accounts (by uid) whose work waits.
#[derive(Debug, Default)]
pub struct Held {
    accounts: Mutex<HashSet<String>>,
}

impl Held {
    /// The held accounts' uids as a JSON array, for the workers' query (`json_each`).
    pub fn as_json(&self) -> String {
        let accounts = self.accounts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        serde_json::to_string(&*accounts).unwrap_or_else(|_| "[]".into())
    }

    fn set(&self, account: &str, held: bool) -> bool {
        let mut accounts = self.accounts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if held { accounts.insert(account.to_string()) } else { accounts.remove(account) }
    }
}

pub fn routes() -> Router<Arc<SandboxState>> {
    Router::new().route("/hold", post(hold).delete(release))
}

async fn hold(State(state): State<Arc<SandboxState>>, Authenticated(account): Authenticated) -> Json<Message> {
    state.held.set(&account.uid, true);
    Json(Message { message: "The account's work waits until DELETE /sandbox/hold.".into() })
}

async fn release(State(state): State<Arc<SandboxState>>, Authenticated(account): Authenticated) -> Json<Message> {
    let was = state.held.set(&account.uid, false);
    state.work_added.notify_waiters();
    let message = if was { "The account's work goes on." } else { "The account's work was not held." };
    Json(Message { message: message.into() })
}
