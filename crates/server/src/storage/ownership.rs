//! Who created what: every render and analysis made through this server is recorded with its subject, so that in
//! `token` access a subject sees only its own. Also pages a subject's renders for `GET /api/v2/renders`.

use std::sync::Arc;

use vstage_api::host_reference::HostReference;

use super::outbox::OutboxEntry;
pub use super::store::{Creation, Kind, OwnedPage};
use super::store::{RenderPhoto, Store};
use crate::error::ServerError;

#[derive(Debug, Clone)]
pub struct Ownership {
    store: Arc<dyn Store>,
}

impl Ownership {
    pub fn new(store: Arc<dyn Store>) -> Self {
        Ownership { store }
    }

    /// Records `ids` as created by `subject` (a retried record changes nothing), with the host's webhooks that
    /// report it.
    pub async fn record(
        &self,
        kind: Kind,
        ids: Vec<String>,
        subject: &str,
        reported: &[OutboxEntry],
    ) -> Result<(), ServerError> {
        self.store.record_owners(kind, &ids, subject, reported).await
    }

    /// Remembers that a creation is being sent (see `Delivery::creation`).
    pub async fn started(&self, creation: &Creation<'_>) -> Result<(), ServerError> {
        self.store.record_creation(creation, vstage_api::time::now_millis()).await
    }

    /// Records each render's photo, `(render id, address)`.
    pub async fn record_photos(&self, photos: &[RenderPhoto]) -> Result<(), ServerError> {
        self.store.record_photos(photos).await
    }

    /// Records each render's references from the host, `(render id, references)`.
    pub async fn record_references(&self, references: &[(String, HostReference)]) -> Result<(), ServerError> {
        self.store.record_references(references).await
    }

    /// The host's references kept with `render_id`.
    pub async fn reference_of(&self, render_id: &str) -> Result<HostReference, ServerError> {
        self.store.reference_of(render_id).await
    }

    /// Whether `subject` created every one of `ids`.
    pub async fn owns_all(&self, kind: Kind, ids: Vec<String>, subject: &str) -> Result<bool, ServerError> {
        self.store.owns_all(kind, &ids, subject).await
    }

    /// `limit` of `subject`'s renders (of `listing` when it names one) after `cursor` (a render id), newest first
    /// unless `ascending`.
    pub async fn renders_page(
        &self,
        (kind, subject, listing): (Kind, &str, Option<&str>),
        limit: u32,
        cursor: Option<String>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError> {
        self.store.owned_page(kind, subject, listing, limit, cursor.as_deref(), ascending).await
    }
}
