//! The account's state shared by the header and the pages: the service's status, `GET /user`, the agent's own
//! allowance (`GET /api/usage`, read with it as one `Allowance`) and the server's capabilities.
//! Loaded once when the studio starts; `refresh` reloads the status and the usage.

use leptos::prelude::*;
use vstage_api::{ApiError, Capabilities, User};

use crate::allowance::Allowance;
use crate::api::use_api;

/// What the widget knows of the service's availability.
#[derive(Debug, Clone, PartialEq)]
pub enum ServiceState {
    Checking,
    Online,
    /// Not reachable, or refusing us; `reason` is a sentence for the person.
    Unreachable {
        reason: String,
    },
}

impl ServiceState {
    pub fn from_result(result: Option<Result<(), ApiError>>) -> Self {
        match result {
            None => ServiceState::Checking,
            Some(Ok(())) => ServiceState::Online,
            Some(Err(error)) => ServiceState::Unreachable { reason: error.to_string() },
        }
    }
}

#[derive(Clone, Copy)]
pub struct Account {
    status: LocalResource<Result<(), ApiError>>,
    pub user: LocalResource<Result<User, ApiError>>,
    /// The agent's own allowance as the server keeps it, in the account's shape (a 404 behind a plain proxy).
    own: LocalResource<Result<User, ApiError>>,
    capabilities: LocalResource<Result<Capabilities, ApiError>>,
}

impl Account {
    pub fn service_state(&self) -> ServiceState {
        ServiceState::from_result(self.status.get())
    }

    /// `sandbox` or `upstream` as the server says; `None` while loading or when it does not say.
    pub fn mode(&self) -> Option<String> {
        self.capabilities.get().and_then(Result::ok).map(|capabilities| capabilities.mode)
    }

    /// Whether the server answered: `None` while asking; a plain proxy without capabilities (404) counts as
    /// answering; any other failure is the sentence to show.
    pub fn reachable(&self) -> Option<Result<(), String>> {
        self.capabilities.get().map(|capabilities| match capabilities {
            Ok(_) => Ok(()),
            Err(error) if error.status() == Some(404) => Ok(()),
            Err(error) => Err(error.to_string()),
        })
    }

    /// Whether the server streams live events: `None` while asking, `false` behind a plain proxy.
    pub fn offers_events(&self) -> Option<bool> {
        self.capabilities.get().map(|capabilities| capabilities.is_ok_and(|c| c.events))
    }

    /// Whether the server answered for the agent's own usage (whatever it said: a plain proxy's 404 too).
    pub fn usage_answered(&self) -> bool {
        self.own.get().is_some()
    }

    /// Whether the server is our sandbox (sample photos are offered).
    pub fn is_sandbox(&self) -> bool {
        self.capabilities.get().and_then(Result::ok).is_some_and(|capabilities| capabilities.is_sandbox())
    }

    /// Whether the server stores uploaded photos.
    pub fn offers_uploads(&self) -> bool {
        self.capabilities.get().and_then(Result::ok).is_some_and(|capabilities| capabilities.uploads)
    }

    /// Whether the server remembers the listing board.
    pub fn offers_board(&self) -> bool {
        self.capabilities.get().and_then(Result::ok).is_some_and(|capabilities| capabilities.board)
    }

    /// What the agent may still spend, per kind: `None` while loading, the reason when nothing is known.
    pub fn allowance(&self) -> Option<Result<Allowance, ApiError>> {
        let (own, user) = (self.own.get()?, self.user.get()?);
        let read = Allowance::read(own.as_ref().ok(), user.as_ref().ok());
        Some(read.ok_or_else(|| user.err().unwrap_or_else(|| ApiError::Decode { detail: String::new() })))
    }

    /// The allowance once known, as it is now (for a click's check).
    pub fn allowance_now(&self) -> Option<Allowance> {
        untrack(|| self.allowance()).and_then(Result::ok)
    }

    pub fn refresh(&self) {
        self.status.refetch();
        self.user.refetch();
        self.own.refetch();
    }
}

/// Starts loading the account and makes it available below.
pub fn provide_account() {
    let api = use_api();
    let status_api = api.clone();
    let capabilities_api = api.clone();
    let capabilities = LocalResource::new(move || {
        let api = capabilities_api.clone();
        async move { api.capabilities().await }
    });
    let status = LocalResource::new(move || {
        let api = status_api.clone();
        async move { api.status().await }
    });
    let own_api = api.clone();
    let user = LocalResource::new(move || {
        let api = api.clone();
        async move { api.user().await }
    });
    let own = LocalResource::new(move || {
        let api = own_api.clone();
        async move { api.usage().await }
    });
    provide_context(Account { status, user, own, capabilities });
}

pub fn use_account() -> Account {
    use_context::<Account>().expect("provide_account is called by App")
}
